// The typed client: openapi-fetch over the generated paths (schema.ts),
// with the envelope unwrapped and the answers of errors thrown.
import createClient from "openapi-fetch";
import type { Client as FetchClient, MaybeOptionalInit } from "openapi-fetch";

import type { paths } from "./schema.js";
import { retryAfterMs, retryingFetch, type RetryOptions } from "./retry.js";

/** The HTTP methods the merchant API uses. */
export type Method = "get" | "post" | "put" | "patch" | "delete";

/** The paths of the API that take method M. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: infer Op } ? (Op extends undefined ? never : P) : never;
}[keyof paths];

/** The envelope's data of an operation's 200 answer (undefined for none). */
export type Data<Op> = Op extends { responses: { 200: { content: { "application/json": infer E } } } }
  ? E extends { data: infer D }
    ? D
    : undefined
  : undefined;

type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

/** The init argument of a call: required when the operation has required
 * parameters or a required body, optional otherwise. */
export type InitArgs<P extends keyof paths, M extends Method> =
  RequiredKeys<MaybeOptionalInit<paths[P], M>> extends never
    ? [init?: MaybeOptionalInit<paths[P], M>]
    : [init: MaybeOptionalInit<paths[P], M>];

/** Options of a Jangada client. */
export interface JangadaOptions extends RetryOptions {
  /** The API's base URL with its /v1, e.g. https://api.example.com/v1. */
  baseUrl: string;
  /** The merchant API key, sent as X-API-Key. */
  apiKey: string;
  /** The fetch to send requests with (default: the global fetch). */
  fetch?: typeof fetch;
}

/** An error answer of the API: its status and the error envelope's
 * message (which names the field of a 400) and request id. */
export class JangadaError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly requestId: string,
    /** The answer's Retry-After in milliseconds (429, 503), 0 without one. */
    readonly retryAfterMs: number,
  ) {
    super(`jangada: ${status}: ${message}${requestId ? ` (request ${requestId})` : ""}`);
    this.name = "JangadaError";
  }
}

/** The Idempotency-Key header of a create, for init.headers: the same key
 * (per API key) answers with what the first attempt did. */
export function idempotencyKey(key: string): { "Idempotency-Key": string } {
  return { "Idempotency-Key": key };
}

/**
 * The merchant API's client. Each call names the method and the path as
 * the document writes them and answers the envelope's data, typed:
 *
 *   const j = new Jangada({ baseUrl, apiKey });
 *   const charge = await j.post("/payment-pix/create", { body: { amount: 25.9, description: "Pedido 1" } });
 *   const again = await j.get("/payment-pix/get/{id}", { params: { path: { id: charge.id } } });
 *
 * An error answer throws a JangadaError. Every POST carries an
 * Idempotency-Key (a random one unless init.headers gives one), so that the
 * retries of a 429, a 503 or a lost connection cannot create twice.
 */
export class Jangada {
  /** The openapi-fetch client underneath: the whole answer, envelope included. */
  readonly raw: FetchClient<paths>;

  constructor(opts: JangadaOptions) {
    this.raw = createClient<paths>({
      baseUrl: opts.baseUrl.replace(/\/+$/, ""),
      headers: { "X-API-Key": opts.apiKey },
      fetch: retryingFetch(opts.fetch ?? globalThis.fetch, opts),
    });
  }

  /** GET path. */
  get<P extends PathsWith<"get">>(path: P, ...init: InitArgs<P, "get">): Promise<Data<paths[P]["get"]>> {
    return this.call("get", path, init[0]);
  }

  /** POST path. */
  post<P extends PathsWith<"post">>(path: P, ...init: InitArgs<P, "post">): Promise<Data<paths[P]["post"]>> {
    return this.call("post", path, init[0]);
  }

  /** PATCH path. */
  patch<P extends PathsWith<"patch">>(path: P, ...init: InitArgs<P, "patch">): Promise<Data<paths[P]["patch"]>> {
    return this.call("patch", path, init[0]);
  }

  /** DELETE path. */
  delete<P extends PathsWith<"delete">>(path: P, ...init: InitArgs<P, "delete">): Promise<Data<paths[P]["delete"]>> {
    return this.call("delete", path, init[0]);
  }

  // call sends one request through openapi-fetch and unwraps its answer.
  // openapi-fetch's own generics are checked at the public methods above;
  // here the path is only a string.
  private async call<T>(method: Method, path: string, init: unknown): Promise<T> {
    const send = this.raw.request as (m: string, p: string, i?: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    const { data, error, response } = await send(method, path, init);
    if (error !== undefined || !response.ok) {
      const env = (typeof error === "object" && error !== null ? error : {}) as { message?: string; requestId?: string };
      throw new JangadaError(
        response.status,
        env.message ?? (typeof error === "string" ? error : response.statusText),
        env.requestId ?? response.headers.get("X-Request-Id") ?? "",
        retryAfterMs(response.headers.get("Retry-After"), Date.now()),
      );
    }
    return (data as { data?: T } | undefined)?.data as T;
  }
}

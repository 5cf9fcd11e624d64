// The WebSocket gateway's client: authenticate, subscribe, receive the
// event frames typed by event name, ack them by delivery id, answer the
// heartbeat, and reconnect with backoff (re-authenticating and
// re-subscribing). Its frames are the document's WebSocket components and
// its event envelopes the document's webhooks, as schema.ts types them.
import type { components, webhooks } from "./schema.js";

/** A frame a client sends. */
export type ClientMessage = components["schemas"]["WebSocketClientMessage"];
/** A frame of the gateway's own (authenticated, subscribed, error, …). */
export type ServerMessage = components["schemas"]["WebSocketServerMessage"];
/** An error frame's code. */
export type ErrorCode = Extract<ServerMessage, { event: "error" }>["code"];
/** A catalog event's name (payment.paid, transfer.completed, …). */
export type EventName = keyof webhooks;
/** The event frame of event E: the webhook delivery's envelope, its id the
 * delivery id to ack, its data typed for E. */
export type EventFrame<E extends EventName = EventName> = E extends EventName
  ? webhooks[E]["post"]["requestBody"]["content"]["application/json"]
  : never;
/** What a subscription names: an event pattern (payment.*, *) or a payment. */
export type Target = { pattern: string } | { paymentId: string };

/** The standard WebSocket constructor (global in Node.js 22, Deno, Bun;
 * Node.js 20 with --experimental-websocket; or the ws package's). */
export type WebSocketConstructor = new (url: string) => WebSocket;

/** Options of an Events connection. */
export interface EventsOptions {
  /** The gateway's URL with its /v1, e.g. wss://ws.example.com/v1. */
  url: string;
  /** The merchant API key (sent in the first frame, never in the URL). */
  apiKey: string;
  /** The WebSocket constructor (default: the global one). */
  WebSocket?: WebSocketConstructor;
  /** Delays before each reconnection, in ms (the spec's 1, 2, 4, 8, 16, 30 s;
   * the last one repeats). [] does not reconnect. */
  backoffMs?: number[];
  /** How long a request frame (authenticate, subscribe) waits for its answer. */
  timeoutMs?: number;
  /** Told of each frame that is not an answer the client waits for. */
  onMessage?: (frame: ServerMessage | EventFrame) => void;
}

/** An error frame the gateway answered, or a connection lost. */
export class EventsError extends Error {
  constructor(
    readonly code: ErrorCode | "CLOSED" | "TIMEOUT",
    message: string,
  ) {
    super(`jangada websocket: ${code}: ${message}`);
    this.name = "EventsError";
  }
}

type Waiter = { match: (f: ServerMessage) => boolean; resolve: (f: ServerMessage) => void; reject: (e: Error) => void };
type Listener = { event: EventName | "*"; handler: (frame: EventFrame) => void };

const defaultBackoff = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000];

/**
 * A connection to the gateway:
 *
 *   const ev = new Events({ url: "wss://ws.example.com/v1", apiKey });
 *   ev.on("payment.paid", (f) => { console.log(f.data.id); ev.ack(f.id); });
 *   await ev.connect();
 *   await ev.subscribe({ paymentId: charge.id });
 *
 * The gateway does not redeliver: after a reconnection, recover what was
 * missed through the REST API.
 */
export class Events {
  private ws?: WebSocket;
  private readonly targets = new Map<string, Target>();
  private readonly listeners: Listener[] = [];
  private waiters: Waiter[] = [];
  private closed = false;
  private attempt = 0;
  private readonly opts: Required<Omit<EventsOptions, "onMessage" | "WebSocket">> & Pick<EventsOptions, "onMessage" | "WebSocket">;

  constructor(opts: EventsOptions) {
    this.opts = { backoffMs: defaultBackoff, timeoutMs: 10_000, ...opts };
  }

  /** Opens the connection and authenticates; resolves with the protocol
   * version once the gateway answered authenticated. */
  async connect(): Promise<number> {
    this.closed = false;
    const Ctor = this.opts.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!Ctor) throw new Error("no WebSocket: use Node.js 22, run Node.js 20 with --experimental-websocket, or pass the ws package's");
    const ws = new Ctor(this.opts.url);
    this.ws = ws;
    ws.onmessage = (m: MessageEvent) => this.receive(String(m.data));
    ws.onclose = () => this.lost(ws);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new EventsError("CLOSED", `could not connect to ${this.opts.url}`));
    });
    let ok: ServerMessage;
    try {
      ok = await this.request({ action: "authenticate", apiKey: this.opts.apiKey }, (f) => f.event === "authenticated");
    } catch (err) {
      // A refused key stays refused: no reconnection loop.
      if (err instanceof EventsError && err.code === "UNAUTHORIZED") this.closed = true;
      throw err;
    }
    this.attempt = 0;
    for (const t of this.targets.values()) await this.request({ action: "subscribe", ...t }, (f) => echoes(f, "subscribed", t));
    return ok.event === "authenticated" ? ok.version : 0;
  }

  /** Subscribes to a pattern or a payment; resolves with the gateway's
   * answer (a paymentId's expiresAt), rejects with its error frame
   * (FORBIDDEN for another account's payment). Kept across reconnections. */
  async subscribe(target: Target): Promise<Extract<ServerMessage, { event: "subscribed" }>> {
    const f = await this.request({ action: "subscribe", ...target }, (m) => echoes(m, "subscribed", target));
    this.targets.set(keyOf(target), target);
    return f as Extract<ServerMessage, { event: "subscribed" }>;
  }

  /** Ends a subscription; the connection stays open. */
  async unsubscribe(target: Target): Promise<void> {
    this.targets.delete(keyOf(target));
    await this.request({ action: "unsubscribe", ...target }, (m) => echoes(m, "unsubscribed", target));
  }

  /** Calls handler with each frame of event (or of every event: "*"). */
  on<E extends EventName>(event: E | "*", handler: (frame: EventFrame<E>) => void): () => void {
    const l: Listener = { event, handler: handler as (frame: EventFrame) => void };
    this.listeners.push(l);
    return () => {
      const i = this.listeners.indexOf(l);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** The next frame of event whose data satisfies when, within ms. */
  next<E extends EventName>(event: E, when: (frame: EventFrame<E>) => boolean = () => true, ms = 30_000): Promise<EventFrame<E>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new EventsError("TIMEOUT", `no ${event} within ${ms} ms`));
      }, ms);
      const off = this.on(event, (f) => {
        if (!when(f)) return;
        clearTimeout(timer);
        off();
        resolve(f);
      });
    });
  }

  /** Acknowledges an event frame by its id (the delivery id). */
  ack(id: string): void {
    this.send({ action: "ack", id });
  }

  /** Closes the connection for good (no reconnection). */
  close(): void {
    this.closed = true;
    this.ws?.close(1000, "client closed");
    this.fail(new EventsError("CLOSED", "closed by the client"));
  }

  private send(m: ClientMessage): void {
    if (this.ws?.readyState !== 1) throw new EventsError("CLOSED", "the connection is not open");
    this.ws.send(JSON.stringify(m));
  }

  // request sends m and waits for the first frame that match accepts, or
  // the first error frame.
  private request(m: ClientMessage, match: (f: ServerMessage) => boolean): Promise<ServerMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new EventsError("TIMEOUT", `no answer to ${m.action}`)), this.opts.timeoutMs);
      const done = (err?: Error, f?: ServerMessage) => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        if (err) reject(err);
        else resolve(f as ServerMessage);
      };
      const waiter: Waiter = { match, resolve: (f) => done(undefined, f), reject: (e) => done(e) };
      this.waiters.push(waiter);
      try {
        this.send(m);
      } catch (err) {
        done(err as Error);
      }
    });
  }

  private receive(text: string): void {
    let f: ServerMessage | EventFrame;
    try {
      f = JSON.parse(text) as ServerMessage | EventFrame;
    } catch {
      return;
    }
    if ("id" in f && "data" in f) {
      for (const l of [...this.listeners]) if (l.event === "*" || l.event === f.event) l.handler(f);
      this.opts.onMessage?.(f);
      return;
    }
    const m = f as ServerMessage;
    if (m.event === "ping" && this.ws?.readyState === 1) this.ws.send(JSON.stringify({ action: "ping" } satisfies ClientMessage));
    const w = m.event === "error" ? this.waiters[0] : this.waiters.find((x) => x.match(m));
    if (w && m.event === "error") w.reject(new EventsError(m.code, m.message ?? m.code));
    else if (w) w.resolve(m);
    else this.opts.onMessage?.(m);
  }

  private fail(err: Error): void {
    for (const w of [...this.waiters]) w.reject(err);
  }

  // lost reconnects after the next delay, unless closed or told not to.
  private lost(ws: WebSocket): void {
    if (ws !== this.ws) return;
    this.fail(new EventsError("CLOSED", "the connection closed"));
    const delays = this.opts.backoffMs;
    if (this.closed || delays.length === 0) return;
    const delay = delays[Math.min(this.attempt++, delays.length - 1)] ?? 30_000;
    setTimeout(() => {
      // A failed attempt closes its socket, whose close schedules the next.
      if (!this.closed) this.connect().catch(() => this.ws?.close());
    }, delay);
  }
}

function keyOf(t: Target): string {
  return "pattern" in t ? `p:${t.pattern}` : `id:${t.paymentId}`;
}

function echoes(f: ServerMessage, event: "subscribed" | "unsubscribed", t: Target): boolean {
  if ((f.event !== "subscribed" && f.event !== "unsubscribed") || f.event !== event) return false;
  return "pattern" in t ? f.pattern === t.pattern : f.paymentId === t.paymentId;
}

// The TypeScript client driven against a running Jangada (the Go test
// e2e/typescript_client_test.go starts one and runs this with node): a
// charge paid in the sandbox, received over the WebSocket gateway (Events)
// and acked, its refund, a payment link's checkout paid, and the charge's
// payment.paid webhook verified, each step under a deadline; then the
// retries and the verifier's refusals against local stand-ins. Prints one
// line per step; any failure exits 1.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

import { Events, EventsError, Jangada, JangadaError, idempotencyKey, verifyWebhook, WebhookVerificationError } from "../src/index.js";

const baseUrl = need("JANGADA_BASE_URL");
const apiKey = need("JANGADA_API_KEY");
const wsUrl = need("JANGADA_WS_URL");
const j = new Jangada({ baseUrl, apiKey, backoffMs: 50 });

function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
}

function check(ok: unknown, what: string, got?: unknown): void {
  if (!ok) throw new Error(`${what}${got === undefined ? "" : `: ${JSON.stringify(got)}`}`);
}

// until polls cond every 100 ms until it answers a value, for at most ms.
async function until<T>(what: string, ms: number, cond: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// A delivery as received: the raw body and the headers.
interface Delivery {
  body: Buffer;
  headers: IncomingMessage["headers"];
}

async function receiver(): Promise<{ url: string; deliveries: Delivery[]; close: () => void }> {
  const deliveries: Delivery[] = [];
  const srv = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      deliveries.push({ body: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/hooks`, deliveries, close: () => srv.close() };
}

async function drive(): Promise<void> {
  const hooks = await receiver();
  const events = new Events({ url: wsUrl, apiKey, backoffMs: [] });
  try {
    const endpoint = await j.post("/webhooks/create", { body: { url: hooks.url, events: ["payment.*"] } });
    check(endpoint.secret?.startsWith("whsec_"), "endpoint secret", endpoint);
    const secret = endpoint.secret as string;
    console.log(`webhook endpoint ${endpoint.id}`);

    // A charge, asked twice with one Idempotency-Key: one charge.
    const body = { amount: 25.9, description: "Pedido via TypeScript" };
    const key = idempotencyKey(`ts-${Date.now()}`);
    const charge = await j.post("/payment-pix/create", { body, headers: key });
    check(charge.status === "PENDING" && charge.amount === 25.9 && charge.copyPaste, "charge", charge);
    const again = await j.post("/payment-pix/create", { body, headers: key });
    check(again.id === charge.id, "the same Idempotency-Key answers the first charge", again);
    try {
      await j.post("/payment-pix/create", { body: { amount: -1, description: "x" } });
      check(false, "a negative amount was accepted");
    } catch (err) {
      check(err instanceof JangadaError && err.status === 400 && err.message.includes("amount") && err.requestId, "a 400 naming amount", String(err));
    }
    // The gateway: authenticated, the charge subscribed (another
    // account's or an unknown payment is FORBIDDEN), its payment.paid frame
    // received, typed by event name, and acked by its delivery id.
    check((await events.connect()) === 1, "websocket protocol version 1");
    const sub = await events.subscribe({ paymentId: charge.id });
    check(sub.paymentId === charge.id && sub.expiresAt, "subscribed to the charge", sub);
    try {
      await events.subscribe({ paymentId: "tx_not_ours" });
      check(false, "a payment of no one's was subscribed");
    } catch (err) {
      check(err instanceof EventsError && err.code === "FORBIDDEN", "FORBIDDEN for a payment not of the key's account", String(err));
    }
    const frame = events.next("payment.paid", (f) => f.data.id === charge.id, 20_000);
    await j.post("/sandbox/payment-pix/{id}/pay", { params: { path: { id: charge.id } } });
    const got = await frame;
    check(got.event === "payment.paid" && got.data.status === "COMPLETED" && got.data.endToEndId && got.id !== got.data.id, "payment.paid frame", got);
    events.ack(got.id);
    console.log(`websocket ${got.event} ${got.id} acked`);
    const paid = await until("the charge to be COMPLETED", 20_000, async () => {
      const c = await j.get("/payment-pix/get/{id}", { params: { path: { id: charge.id } } });
      return c.status === "COMPLETED" ? c : undefined;
    });
    check(paid.endToEndId, "paid charge's endToEndId", paid);
    console.log(`charge ${charge.id} paid`);

    // Its refund, settled by the sandbox.
    const refund = await j.post("/refunds/create", { body: { transactionId: charge.id, amount: 25.9, description: "Cliente desistiu" } });
    check(refund.id === charge.id && refund.refund, "refund", refund);
    await j.post("/sandbox/refunds/{id}/settle", { params: { path: { id: charge.id } } });
    const refunded = await until("the refund to be COMPLETED", 20_000, async () => {
      const r = await j.get("/refunds/get/{id}", { params: { path: { id: charge.id } } });
      return r.refund?.status === "COMPLETED" ? r : undefined;
    });
    check(refunded.status === "REVERSED", "refunded deposit", refunded);
    console.log(`refund of ${charge.id} completed`);

    // A payment link's checkout, its charge paid: the session is PAID.
    const link = await j.post("/payment-links/create", { body: { name: "Ingresso TS", fixedAmount: 12, allowedMethods: ["PIX"] } });
    const session = await j.post("/payment-links/checkout", {
      body: { linkId: link.id, method: "PIX", payer: { name: "Ana Lima", document: "529.982.247-25", email: "ana@example.com" } },
    });
    check(session.status === "OPEN" && session.amount === 12 && session.transactionId && session.payCheckoutUrl, "checkout", session);
    await j.post("/sandbox/payment-pix/{id}/pay", { params: { path: { id: session.transactionId as string } } });
    await until("the session to be PAID", 20_000, async () => {
      const s = await j.get("/payment-links/sessions/get/{sessionId}", { params: { path: { sessionId: session.sessionId } } });
      return s.status === "PAID" ? s : undefined;
    });
    console.log(`checkout ${session.sessionId} paid`);

    // The charge's payment.paid, verified as a receiver does, and refused
    // once its body is touched.
    const delivery = await until("payment.paid of the charge", 20_000, async () =>
      hooks.deliveries.find((d) => {
        const env = JSON.parse(d.body.toString("utf8")) as { event: string; data: { id?: string } };
        return env.event === "payment.paid" && env.data.id === charge.id;
      }),
    );
    await verifyWebhook(secret, delivery.headers, delivery.body);
    await refused("signature", () => verifyWebhook(secret, delivery.headers, Buffer.concat([delivery.body, Buffer.from(" ")])));
    await refused("timestamp", () => verifyWebhook(secret, delivery.headers, delivery.body, { now: new Date(Date.now() + 600_000) }));
    console.log(`webhook ${delivery.headers["webhook-id"]} verified`);
  } finally {
    events.close();
    hooks.close();
  }
}

async function refused(code: string, f: () => Promise<void>): Promise<void> {
  try {
    await f();
  } catch (err) {
    check(err instanceof WebhookVerificationError && err.code === code, `refusal ${code}`, String(err));
    return;
  }
  throw new Error(`verification did not refuse (${code})`);
}

// retries: a stand-in answers 503 with Retry-After: 0, then 429, then the
// envelope; the client retries both, keeps one Idempotency-Key across the
// attempts, and unwraps the data.
async function retries(): Promise<void> {
  const keys: string[] = [];
  let n = 0;
  const srv = createServer((req, res) => {
    keys.push(String(req.headers["idempotency-key"]));
    n++;
    if (n === 1) return res.writeHead(503, { "Retry-After": "0" }).end();
    if (n === 2) return res.writeHead(429, { "Retry-After": "0", "Content-Type": "application/json" }).end('{"success":false,"message":"slow down","requestId":"r"}');
    res.writeHead(200, { "Content-Type": "application/json" }).end('{"success":true,"message":"ok","data":{"id":"tx_1","status":"PENDING"},"requestId":"r3"}');
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  try {
    const local = new Jangada({ baseUrl: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`, apiKey: "k", backoffMs: 10 });
    const c = await local.post("/payment-pix/create", { body: { amount: 1, description: "retry" } });
    check(c.id === "tx_1" && n === 3, "retried create", { c, n });
    check(keys.length === 3 && keys[0] !== "undefined" && keys.every((k) => k === keys[0]), "one Idempotency-Key across attempts", keys);
  } finally {
    srv.close();
  }
  console.log("retries honoured Retry-After");
}

const started = Date.now();
drive()
  .then(retries)
  .then(() => console.log(`ok in ${Date.now() - started} ms`))
  .catch((err: unknown) => {
    console.error(`FAIL: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });

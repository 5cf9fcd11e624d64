// Jangada's merchant API client for TypeScript: the types generated from
// the served OpenAPI document (schema.ts, by openapi-typescript), the
// client (client.ts), its retries (retry.ts), the webhook verifier
// (webhook.ts) and the WebSocket gateway's client (events.ts). Regenerate
// with `make clients`.
export { Jangada, JangadaError, idempotencyKey } from "./client.js";
export type { Data, InitArgs, JangadaOptions, Method, PathsWith } from "./client.js";
export { retryAfterMs, retryingFetch } from "./retry.js";
export type { RetryOptions } from "./retry.js";
export { defaultToleranceSeconds, verifyWebhook, WebhookVerificationError } from "./webhook.js";
export type { WebhookErrorCode, WebhookHeaders } from "./webhook.js";
export { Events, EventsError } from "./events.js";
export type { ClientMessage, ErrorCode, EventFrame, EventName, EventsOptions, ServerMessage, Target, WebSocketConstructor } from "./events.js";
export type { components, operations, paths, webhooks } from "./schema.js";

import type { components, operations, paths, webhooks } from "../schema.js";

/** Members of components_schemas (split-schema.mjs; do not edit: `make clients`). */
export interface components_schemas_3 {
    /** @description a frame of the gateway's own (not an event) */
    WebSocketServerMessage: {
        /** @constant */
        event: "authenticated";
        /** @constant */
        version: 1;
    } | {
        /** @constant */
        event: "subscribed";
        /**
         * Format: date-time
         * @description a paymentId subscription's end
         */
        expiresAt?: string;
        pattern?: string;
        paymentId?: string;
    } | {
        /** @constant */
        event: "unsubscribed";
        pattern?: string;
        paymentId?: string;
    } | {
        /** @constant */
        event: "ping";
    } | {
        /** @constant */
        event: "pong";
    } | {
        /** @enum {string} */
        code: "BAD_REQUEST" | "UNAUTHENTICATED" | "UNAUTHORIZED" | "UNAVAILABLE" | "TOO_MANY_CONNECTIONS" | "INVALID_PATTERN" | "FORBIDDEN" | "SUBSCRIPTION_LIMIT" | "RATE_LIMIT";
        /** @constant */
        event: "error";
        message?: string;
        pattern?: string;
        paymentId?: string;
    };
    WebhookView: {
        id: string;
        url: string;
        events: string[] | null;
        description: string;
        /** @enum {string} */
        status: "ACTIVE" | "DISABLED";
        /** @enum {string} */
        scope: "key" | "account";
        apiKeyId?: string;
        /** Format: date-time */
        createdAt: string;
    };
}

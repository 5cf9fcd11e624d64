import type { components, operations, paths, webhooks } from "../schema.js";

/** Members of operations (split-schema.mjs; do not edit: `make clients`). */
export interface operations_18 {
    event_transfer_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description the event type */
                "x-jangada-event": string;
                /** @description the delivery id: the same for every attempt of one event to one endpoint (use it to drop repeats) */
                "x-jangada-delivery": string;
                /** @description sha256= and the lower-case hex HMAC-SHA256 of the raw body under the endpoint's whsec_ secret */
                "x-jangada-signature": string;
                /** @description Standard Webhooks: the delivery id */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: v1, and the base64 HMAC-SHA256 of id.timestamp.body under the secret's bytes */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: date-time */
                    createdAt: string;
                    data: components["schemas"]["PublicTransaction"];
                    /** @constant */
                    event: "transfer.completed";
                    /** @description the delivery id (x-jangada-delivery) */
                    id: string;
                };
            };
        };
        responses: {
            /** @description received: no further attempt */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description any other answer, or none within the timeout: the delivery is retried on its schedule */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_transfer_created: {
        parameters: {
            query?: never;
            header: {
                /** @description the event type */
                "x-jangada-event": string;
                /** @description the delivery id: the same for every attempt of one event to one endpoint (use it to drop repeats) */
                "x-jangada-delivery": string;
                /** @description sha256= and the lower-case hex HMAC-SHA256 of the raw body under the endpoint's whsec_ secret */
                "x-jangada-signature": string;
                /** @description Standard Webhooks: the delivery id */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: v1, and the base64 HMAC-SHA256 of id.timestamp.body under the secret's bytes */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: date-time */
                    createdAt: string;
                    data: components["schemas"]["PublicTransaction"];
                    /** @constant */
                    event: "transfer.created";
                    /** @description the delivery id (x-jangada-delivery) */
                    id: string;
                };
            };
        };
        responses: {
            /** @description received: no further attempt */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description any other answer, or none within the timeout: the delivery is retried on its schedule */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_transfer_failed: {
        parameters: {
            query?: never;
            header: {
                /** @description the event type */
                "x-jangada-event": string;
                /** @description the delivery id: the same for every attempt of one event to one endpoint (use it to drop repeats) */
                "x-jangada-delivery": string;
                /** @description sha256= and the lower-case hex HMAC-SHA256 of the raw body under the endpoint's whsec_ secret */
                "x-jangada-signature": string;
                /** @description Standard Webhooks: the delivery id */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: v1, and the base64 HMAC-SHA256 of id.timestamp.body under the secret's bytes */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: date-time */
                    createdAt: string;
                    data: components["schemas"]["PublicTransaction"];
                    /** @constant */
                    event: "transfer.failed";
                    /** @description the delivery id (x-jangada-delivery) */
                    id: string;
                };
            };
        };
        responses: {
            /** @description received: no further attempt */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description any other answer, or none within the timeout: the delivery is retried on its schedule */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_transfer_internal_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description the event type */
                "x-jangada-event": string;
                /** @description the delivery id: the same for every attempt of one event to one endpoint (use it to drop repeats) */
                "x-jangada-delivery": string;
                /** @description sha256= and the lower-case hex HMAC-SHA256 of the raw body under the endpoint's whsec_ secret */
                "x-jangada-signature": string;
                /** @description Standard Webhooks: the delivery id */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: v1, and the base64 HMAC-SHA256 of id.timestamp.body under the secret's bytes */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: date-time */
                    createdAt: string;
                    data: components["schemas"]["PublicTransaction"];
                    /** @constant */
                    event: "transfer.internal.completed";
                    /** @description the delivery id (x-jangada-delivery) */
                    id: string;
                };
            };
        };
        responses: {
            /** @description received: no further attempt */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description any other answer, or none within the timeout: the delivery is retried on its schedule */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_transfer_internal_received: {
        parameters: {
            query?: never;
            header: {
                /** @description the event type */
                "x-jangada-event": string;
                /** @description the delivery id: the same for every attempt of one event to one endpoint (use it to drop repeats) */
                "x-jangada-delivery": string;
                /** @description sha256= and the lower-case hex HMAC-SHA256 of the raw body under the endpoint's whsec_ secret */
                "x-jangada-signature": string;
                /** @description Standard Webhooks: the delivery id */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: v1, and the base64 HMAC-SHA256 of id.timestamp.body under the secret's bytes */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: date-time */
                    createdAt: string;
                    data: components["schemas"]["PublicTransaction"];
                    /** @constant */
                    event: "transfer.internal.received";
                    /** @description the delivery id (x-jangada-delivery) */
                    id: string;
                };
            };
        };
        responses: {
            /** @description received: no further attempt */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description any other answer, or none within the timeout: the delivery is retried on its schedule */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    event_webhook_test: {
        parameters: {
            query?: never;
            header: {
                /** @description the event type */
                "x-jangada-event": string;
                /** @description the delivery id: the same for every attempt of one event to one endpoint (use it to drop repeats) */
                "x-jangada-delivery": string;
                /** @description sha256= and the lower-case hex HMAC-SHA256 of the raw body under the endpoint's whsec_ secret */
                "x-jangada-signature": string;
                /** @description Standard Webhooks: the delivery id */
                "webhook-id": string;
                /** @description Standard Webhooks: Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: v1, and the base64 HMAC-SHA256 of id.timestamp.body under the secret's bytes */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: date-time */
                    createdAt: string;
                    data: components["schemas"]["TestTrigger"];
                    /** @constant */
                    event: "webhook.test";
                    /** @description the delivery id (x-jangada-delivery) */
                    id: string;
                };
            };
        };
        responses: {
            /** @description received: no further attempt */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description any other answer, or none within the timeout: the delivery is retried on its schedule */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}

import type { components, operations, paths, webhooks } from "../schema.js";

/** Members of operations (split-schema.mjs; do not edit: `make clients`). */
export interface operations_17 {
    event_payment_failed: {
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
                    event: "payment.failed";
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
    event_payment_paid: {
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
                    event: "payment.paid";
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
    event_payment_pix_expired: {
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
                    event: "payment.pix.expired";
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
    event_payment_refunded: {
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
                    event: "payment.refunded";
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
    event_payment_link_paid: {
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
                    data: components["schemas"]["SessionView"];
                    /** @constant */
                    event: "payment_link.paid";
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
    event_refund_completed: {
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
                    event: "refund.completed";
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
    event_refund_failed: {
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
                    event: "refund.failed";
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
    event_refund_requested: {
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
                    event: "refund.requested";
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

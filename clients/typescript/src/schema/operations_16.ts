import type { components, operations, paths, webhooks } from "../schema.js";

/** Members of operations (split-schema.mjs; do not edit: `make clients`). */
export interface operations_16 {
    event_invoice_created: {
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
                    data: components["schemas"]["InvoiceEventData"];
                    /** @constant */
                    event: "invoice.created";
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
    event_invoice_failed: {
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
                    data: components["schemas"]["InvoiceEventData"];
                    /** @constant */
                    event: "invoice.failed";
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
    event_invoice_issued: {
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
                    data: components["schemas"]["InvoiceEventData"];
                    /** @constant */
                    event: "invoice.issued";
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
    event_invoice_processing: {
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
                    data: components["schemas"]["InvoiceEventData"];
                    /** @constant */
                    event: "invoice.processing";
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
    event_med_created: {
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
                    event: "med.created";
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
    event_med_evidence_sent: {
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
                    event: "med.evidence_sent";
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
    event_med_updated: {
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
                    event: "med.updated";
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
    event_payment_created: {
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
                    event: "payment.created";
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

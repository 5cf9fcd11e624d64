import type { components, operations, paths, webhooks } from "../schema.js";

/** Members of webhooks (split-schema.mjs; do not edit: `make clients`). */
export interface webhooks_1 {
    "invoice.cancelled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A fiscal invoice was cancelled
         * @description Sent to every endpoint subscribed to invoice.cancelled (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_invoice_cancelled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoice.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A fiscal invoice was opened for a paid charge
         * @description Sent to every endpoint subscribed to invoice.created (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_invoice_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoice.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A fiscal invoice was refused
         * @description Sent to every endpoint subscribed to invoice.failed (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_invoice_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoice.issued": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A fiscal invoice was issued
         * @description Sent to every endpoint subscribed to invoice.issued (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_invoice_issued"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "invoice.processing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A fiscal invoice is with the issuer
         * @description Sent to every endpoint subscribed to invoice.processing (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_invoice_processing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "med.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A MED dispute was opened on a received PIX
         * @description Sent to every endpoint subscribed to med.created (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_med_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "med.evidence_sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The defence of a MED dispute was sent
         * @description Sent to every endpoint subscribed to med.evidence_sent (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_med_evidence_sent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "med.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A MED dispute moved
         * @description Sent to every endpoint subscribed to med.updated (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_med_updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A PIX charge was created
         * @description Sent to every endpoint subscribed to payment.created (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_payment_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A PIX charge failed
         * @description Sent to every endpoint subscribed to payment.failed (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_payment_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.paid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A PIX charge was paid (COMPLETED)
         * @description Sent to every endpoint subscribed to payment.paid (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_payment_paid"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.pix.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A PIX charge expired unpaid (CANCELED)
         * @description Sent to every endpoint subscribed to payment.pix.expired (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_payment_pix_expired"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.refunded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A received PIX was refunded (in full or in part)
         * @description Sent to every endpoint subscribed to payment.refunded (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_payment_refunded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment_link.paid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A payment link's checkout session was paid
         * @description Sent to every endpoint subscribed to payment_link.paid (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_payment_link_paid"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refund.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A refund was paid back
         * @description Sent to every endpoint subscribed to refund.completed (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_refund_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refund.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A refund failed; its money is back
         * @description Sent to every endpoint subscribed to refund.failed (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_refund_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refund.requested": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A refund was requested
         * @description Sent to every endpoint subscribed to refund.requested (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_refund_requested"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "transfer.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A PIX out settled
         * @description Sent to every endpoint subscribed to transfer.completed (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_transfer_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "transfer.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A PIX out was created (its amount reserved)
         * @description Sent to every endpoint subscribed to transfer.created (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_transfer_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "transfer.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A PIX out failed; its reserve is back
         * @description Sent to every endpoint subscribed to transfer.failed (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_transfer_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "transfer.internal.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An internal transfer left this account
         * @description Sent to every endpoint subscribed to transfer.internal.completed (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_transfer_internal_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "transfer.internal.received": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An internal transfer reached this account
         * @description Sent to every endpoint subscribed to transfer.internal.received (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_transfer_internal_received"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}

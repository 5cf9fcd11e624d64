import type { components, operations, paths, webhooks } from "../schema.js";

/** Members of webhooks (split-schema.mjs; do not edit: `make clients`). */
export interface webhooks_2 {
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A test sent from the account panel to one endpoint
         * @description Sent to every endpoint subscribed to webhook.test (or a pattern matching it), and as a WebSocket event frame with the same envelope.
         */
        post: operations["event_webhook_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}

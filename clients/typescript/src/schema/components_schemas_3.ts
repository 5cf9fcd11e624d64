import type { components, operations, paths, webhooks } from "../schema.js";

/** Members of components_schemas (split-schema.mjs; do not edit: `make clients`). */
export interface components_schemas_3 {
    WebhookView: {
        id: string;
        url: string;
        events: string[] | null;
        description: string;
        /** @enum {string} */
        status: "ACTIVE" | "DISABLED";
        scope: string;
        apiKeyId?: string;
        /** Format: date-time */
        createdAt: string;
    };
}

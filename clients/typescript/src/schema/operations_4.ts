import type { components, operations, paths, webhooks } from "../schema.js";

/** Members of operations (split-schema.mjs; do not edit: `make clients`). */
export interface operations_4 {
    customersUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "city": "Campinas",
                 *       "phone": "(11) 91234-5678",
                 *       "state": "SP"
                 *     }
                 */
                "application/json": {
                    name?: string;
                    /** Format: email */
                    email?: string;
                    /** @description CPF or CNPJ (alphanumeric CNPJ included) */
                    document?: string;
                    /**
                     * @description case-insensitive; inferred from the document when absent
                     * @enum {string}
                     */
                    type?: "PF" | "PJ";
                    /** @description ACTIVE/INACTIVE/BLOCKED or Ativo/Inativo/Bloqueado */
                    status?: string;
                    /** @description with area code */
                    phone?: string;
                    /** @description with area code */
                    whatsapp?: string;
                    city?: string;
                    /**
                     * @description case-insensitive; Brazilian state (UF)
                     * @enum {string}
                     */
                    state?: "AC" | "AL" | "AP" | "AM" | "BA" | "CE" | "DF" | "ES" | "GO" | "MA" | "MT" | "MS" | "MG" | "PA" | "PB" | "PR" | "PE" | "PI" | "RJ" | "RN" | "RS" | "RO" | "RR" | "SC" | "SP" | "SE" | "TO";
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        data: components["schemas"]["Customer"];
                    };
                };
            };
            400: components["responses"]["400"];
            401: components["responses"]["401"];
            403: components["responses"]["403"];
            404: components["responses"]["404"];
            429: components["responses"]["429"];
            500: components["responses"]["500"];
            503: components["responses"]["503"];
        };
    };
    medsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        data: components["schemas"]["PublicTransaction"];
                    };
                };
            };
            400: components["responses"]["400"];
            401: components["responses"]["401"];
            403: components["responses"]["403"];
            404: components["responses"]["404"];
            429: components["responses"]["429"];
            500: components["responses"]["500"];
            503: components["responses"]["503"];
        };
    };
    medsList: {
        parameters: {
            query?: {
                page?: number;
                pageSize?: number;
                /** @description case-insensitive */
                status?: "OPEN" | "UNDER_REVIEW" | "ACCEPTED" | "REJECTED" | "CANCELED" | "EXPIRED";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        data: {
                            items: components["schemas"]["PublicTransaction"][];
                            page: number;
                            pageSize: number;
                            pages: number;
                            total: number;
                        };
                    };
                };
            };
            400: components["responses"]["400"];
            401: components["responses"]["401"];
            403: components["responses"]["403"];
            429: components["responses"]["429"];
            500: components["responses"]["500"];
            503: components["responses"]["503"];
        };
    };
    medsEvidence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "attachments": [
                 *         {
                 *           "contentBase64": "JVBERi0xLjQK",
                 *           "name": "nota-fiscal.pdf"
                 *         }
                 *       ],
                 *       "description": "Venda regular: o produto foi entregue em 12/11; segue a nota fiscal."
                 *     }
                 */
                "application/json": {
                    description: string;
                    attachments?: {
                        name?: string;
                        contentBase64?: string;
                    }[];
                };
                "multipart/form-data": {
                    description: string;
                    /** @description application/pdf, image/png, image/jpeg, at most 256 KiB */
                    files?: string[];
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        data: components["schemas"]["PublicTransaction"];
                    };
                };
            };
            400: components["responses"]["400"];
            401: components["responses"]["401"];
            403: components["responses"]["403"];
            404: components["responses"]["404"];
            429: components["responses"]["429"];
            500: components["responses"]["500"];
            503: components["responses"]["503"];
        };
    };
    mobileRechargeCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        data: components["schemas"]["PublicTransaction"];
                    };
                };
            };
            400: components["responses"]["400"];
            401: components["responses"]["401"];
            403: components["responses"]["403"];
            404: components["responses"]["404"];
            429: components["responses"]["429"];
            500: components["responses"]["500"];
            503: components["responses"]["503"];
        };
    };
    mobileRechargeCreate: {
        parameters: {
            query?: never;
            header?: {
                /** @description retry-safe create: the same key (per API key) answers with what the first attempt did */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": 20,
                 *       "phone": "(11) 93765-4321"
                 *     }
                 */
                "application/json": {
                    phone: string;
                    /** Format: decimal */
                    amount: number;
                    externalReference?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        data: components["schemas"]["PublicTransaction"];
                    };
                };
            };
            400: components["responses"]["400"];
            401: components["responses"]["401"];
            403: components["responses"]["403"];
            409: components["responses"]["409"];
            422: components["responses"]["422"];
            429: components["responses"]["429"];
            500: components["responses"]["500"];
            503: components["responses"]["503"];
        };
    };
    mobileRechargeGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        data: components["schemas"]["PublicTransaction"];
                    };
                };
            };
            400: components["responses"]["400"];
            401: components["responses"]["401"];
            403: components["responses"]["403"];
            404: components["responses"]["404"];
            429: components["responses"]["429"];
            500: components["responses"]["500"];
            503: components["responses"]["503"];
        };
    };
    mobileRechargeList: {
        parameters: {
            query?: {
                page?: number;
                pageSize?: number;
                /** @description case-insensitive */
                status?: "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELED" | "REVERSED";
                /** @description from this date (YYYY-MM-DD) or instant (RFC 3339) */
                dateFrom?: string;
                /** @description up to this date (inclusive) or instant */
                dateTo?: string;
                externalReference?: string;
                search?: string;
                /** @description only this sub-account's (routes that have sub-accounts) */
                subaccountId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        data: {
                            items: components["schemas"]["PublicTransaction"][];
                            page: number;
                            pageSize: number;
                            pages: number;
                            total: number;
                        };
                    };
                };
            };
            400: components["responses"]["400"];
            401: components["responses"]["401"];
            403: components["responses"]["403"];
            404: components["responses"]["404"];
            429: components["responses"]["429"];
            500: components["responses"]["500"];
            503: components["responses"]["503"];
        };
    };
    mobileRechargeProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                phone: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        data: components["schemas"]["RechargeProvider"];
                    };
                };
            };
            400: components["responses"]["400"];
            401: components["responses"]["401"];
            403: components["responses"]["403"];
            404: components["responses"]["404"];
            429: components["responses"]["429"];
            500: components["responses"]["500"];
            503: components["responses"]["503"];
        };
    };
}

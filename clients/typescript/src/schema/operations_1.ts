import type { components, operations, paths, webhooks } from "../schema.js";

/** Members of operations (split-schema.mjs; do not edit: `make clients`). */
export interface operations_1 {
    accountBalance: {
        parameters: {
            query?: never;
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
                        data: components["schemas"]["BalanceView"];
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
    accountTransactions: {
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
    billingsCreate: {
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
                "application/json": {
                    /**
                     * @description case-insensitive
                     * @enum {string}
                     */
                    method: "BOLETO" | "CARD_CREDIT" | "CARD_DEBIT" | "CARD_VOUCHER" | "PIX";
                    /**
                     * @description case-insensitive
                     * @enum {string}
                     */
                    billingType?: "BOLETO" | "CARD_CREDIT" | "CARD_DEBIT" | "CARD_VOUCHER" | "PIX";
                    /** Format: decimal */
                    amount: number;
                    customer: {
                        /** @description A store customer's id. Alone: that customer is billed as stored. With name and taxId: the billing is made out to the name and taxId sent and linked to this customer. */
                        id?: string;
                        /** @description The name the billing is made out to. Without an id, the billing is linked to the account's store customer with this taxId (created when there is none; an existing one is never changed, its name included). */
                        name?: string;
                        taxId?: string;
                        email?: string;
                        phone?: string;
                    };
                    description?: string;
                    dueDate?: string;
                    installmentCount?: number;
                    cardToken?: string;
                    creditCard?: {
                        holderName?: string;
                        number?: string;
                        expiryMonth?: string | number;
                        expiryYear?: string | number;
                        ccv?: string | number;
                    };
                    creditCardHolderInfo?: {
                        name?: string;
                        email?: string;
                        cpfCnpj?: string;
                        postalCode?: string;
                        addressNumber?: string;
                        phone?: string;
                    };
                    remoteIp?: string;
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
                        data: components["schemas"]["PublicBilling"];
                    };
                };
            };
            400: components["responses"]["400"];
            401: components["responses"]["401"];
            403: components["responses"]["403"];
            404: components["responses"]["404"];
            409: components["responses"]["409"];
            422: components["responses"]["422"];
            429: components["responses"]["429"];
            500: components["responses"]["500"];
            503: components["responses"]["503"];
        };
    };
    billingsGet: {
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
                        data: components["schemas"]["PublicBilling"];
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
    billingsList: {
        parameters: {
            query?: {
                page?: number;
                pageSize?: number;
                /** @description case-insensitive */
                status?: "PENDING" | "CONFIRMED" | "RECEIVED" | "OVERDUE" | "CANCELED" | "REFUNDED" | "PARTIALLY_REFUNDED" | "FAILED";
                /** @description case-insensitive */
                method?: "BOLETO" | "CARD_CREDIT" | "CARD_DEBIT" | "CARD_VOUCHER" | "PIX";
                customerId?: string;
                externalReference?: string;
                dateFrom?: string;
                dateTo?: string;
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
                            items: components["schemas"]["PublicBilling"][];
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
    billingsRefund: {
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
                 *       "amount": 50,
                 *       "description": "Devolução parcial",
                 *       "id": "bil_…"
                 *     }
                 */
                "application/json": {
                    id: string;
                    /** Format: decimal */
                    amount?: number;
                    description?: string;
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
                        data: components["schemas"]["PublicBilling"];
                    };
                };
            };
            400: components["responses"]["400"];
            401: components["responses"]["401"];
            403: components["responses"]["403"];
            404: components["responses"]["404"];
            409: components["responses"]["409"];
            422: components["responses"]["422"];
            429: components["responses"]["429"];
            500: components["responses"]["500"];
            503: components["responses"]["503"];
        };
    };
    billingsTokenizeCard: {
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
                 *       "creditCard": {
                 *         "ccv": "123",
                 *         "expiryMonth": "12",
                 *         "expiryYear": "2035",
                 *         "holderName": "MARIA SILVA",
                 *         "number": "4111111111111111"
                 *       },
                 *       "creditCardHolderInfo": {
                 *         "addressNumber": "1000",
                 *         "cpfCnpj": "529.982.247-25",
                 *         "email": "maria@example.com",
                 *         "name": "Maria Silva",
                 *         "phone": "11987654321",
                 *         "postalCode": "01310-100"
                 *       },
                 *       "customer": {
                 *         "id": "cus_0193c1f0-8a4b-7e2d-9c1a-3b5d7f9e1a2c"
                 *       },
                 *       "remoteIp": "203.0.113.7"
                 *     }
                 */
                "application/json": {
                    customer: {
                        /** @description A store customer's id. Alone: that customer is billed as stored. With name and taxId: the billing is made out to the name and taxId sent and linked to this customer. */
                        id?: string;
                        /** @description The name the billing is made out to. Without an id, the billing is linked to the account's store customer with this taxId (created when there is none; an existing one is never changed, its name included). */
                        name?: string;
                        taxId?: string;
                        email?: string;
                        phone?: string;
                    };
                    creditCard: {
                        holderName: string;
                        number: string;
                        expiryMonth: string | number;
                        expiryYear: string | number;
                        ccv: string | number;
                    };
                    creditCardHolderInfo?: {
                        name: string;
                        email: string;
                        cpfCnpj: string;
                        postalCode: string;
                        addressNumber: string;
                        phone: string;
                    };
                    remoteIp?: string;
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
                        data: components["schemas"]["CardTokenView"];
                    };
                };
            };
            400: components["responses"]["400"];
            401: components["responses"]["401"];
            403: components["responses"]["403"];
            404: components["responses"]["404"];
            409: components["responses"]["409"];
            422: components["responses"]["422"];
            429: components["responses"]["429"];
            500: components["responses"]["500"];
            503: components["responses"]["503"];
        };
    };
}

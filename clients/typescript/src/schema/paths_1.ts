import type { components, operations, paths, webhooks } from "../schema.js";

/** Members of paths (split-schema.mjs; do not edit: `make clients`). */
export interface paths_1 {
    "/account/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's balance */
        get: operations["accountBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's statement: every transaction, newest first */
        get: operations["accountTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billings/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a billing (boleto, credit, debit or voucher card, PIX)
         * @description A boleto answers its digitableLine and a printable bankSlipUrl; a PIX billing its pixCopyPaste and pixEncodedImage; CARD_DEBIT an invoiceUrl where the payer pays; CARD_CREDIT and CARD_VOUCHER are charged on the cardToken or creditCard (tokenized at once: the number is never stored). dueDate defaults to today + 3 days (America/Sao_Paulo).
         */
        post: operations["billingsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billings/get/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a billing by id or externalId */
        get: operations["billingsGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billings/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List billings */
        get: operations["billingsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billings/refund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refund a paid billing (whole or part)
         * @description Without amount, what is left; less than what is left makes it PARTIALLY_REFUNDED. More than what is left is a 400 and moves nothing. The answer waits (up to 5 s) for the processor: accepted, the billing with the refund COMPLETED; refused, a 400 (nothing refunded, the billing as before, the refund FAILED in refunds); not known in time, the billing with the refund PENDING in refunds (its outcome then shows there). The sandbox refuses a refund whose amount ends in ,13.
         */
        post: operations["billingsRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billings/tokenize-card": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Tokenize a card for later billings
         * @description Answers creditCardToken, creditCardBrand and creditCardNumber (the last four digits only).
         */
        post: operations["billingsTokenizeCard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bureau/dunnings/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an overdue billing's debtor to the credit bureau (fee R$ 12.90)
         * @description multipart/form-data with these fields and the file `documents` (PDF, PNG or JPEG, at most 1000 KiB); the same fields as JSON take `documents` as {name, contentBase64}.
         */
        post: operations["bureauDunningsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bureau/dunnings/get/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a dunning */
        get: operations["bureauDunningsGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bureau/dunnings/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List dunnings
         * @description data is the spec's own envelope: {object: "list", hasMore, totalCount, limit, offset, data}.
         */
        get: operations["bureauDunningsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bureau/dunnings/simulate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether a dunning of a billing can be requested, its fee and value */
        get: operations["bureauDunningsSimulate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bureau/reports/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask for a credit report of a customer's CPF/CNPJ (fee R$ 19.90) */
        post: operations["bureauReportsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bureau/reports/get/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a credit report */
        get: operations["bureauReportsGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bureau/reports/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List credit reports */
        get: operations["bureauReportsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/coupons/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a coupon
         * @description PERCENT takes discountValue % of the amount (rounded to the centavo, halves up); FIXED takes discountValue BRL, capped at the amount. maxUses counts paid sessions.
         */
        post: operations["couponsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/coupons/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a coupon */
        delete: operations["couponsDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/coupons/get/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a coupon */
        get: operations["couponsGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/coupons/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List coupons */
        get: operations["couponsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/coupons/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Update a coupon */
        patch: operations["couponsUpdate"];
        trace?: never;
    };
    "/coupons/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Validate a coupon
         * @description Answers whether the coupon applies, the discount and the final amount, with a reason when it does not; counts no use.
         */
        post: operations["couponsValidate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a customer */
        post: operations["customersCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a customer */
        delete: operations["customersDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers/get/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a customer */
        get: operations["customersGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List customers */
        get: operations["customersList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}

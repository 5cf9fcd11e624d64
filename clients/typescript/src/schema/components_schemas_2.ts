import type { components, operations, paths, webhooks } from "../schema.js";

/** Members of components_schemas (split-schema.mjs; do not edit: `make clients`). */
export interface components_schemas_2 {
    Preview: {
        subaccountId: string;
        lines: components["schemas"]["Line"][] | null;
        /** Format: decimal */
        totalPercentFee: number;
        /** Format: decimal */
        totalFixedFee: number;
        pixOut: components["schemas"]["Side"];
    };
    ProductView: {
        id: string;
        name: string;
        sku: string | null;
        description: string | null;
        price: number | null;
        /** @enum {string} */
        status: "ACTIVE" | "INACTIVE";
        deliveries: components["schemas"]["DeliveryView"][] | null;
        /** Format: date-time */
        createdAt: string;
    };
    PublicBilling: {
        id: string;
        /** @enum {string} */
        status: "PENDING" | "CONFIRMED" | "RECEIVED" | "OVERDUE" | "CANCELED" | "REFUNDED" | "PARTIALLY_REFUNDED" | "FAILED";
        statusLabel: string;
        /** @enum {string} */
        method: "BOLETO" | "CARD_CREDIT" | "CARD_DEBIT" | "CARD_VOUCHER" | "PIX";
        /** Format: decimal */
        amount: number;
        /** Format: decimal */
        netAmount: number;
        /** Format: decimal */
        feeAmount: number;
        /** Format: decimal */
        notificationFeeAmount: number;
        /** Format: decimal */
        refundedAmount: number;
        installmentCount: number;
        description: string;
        /** Format: date-time */
        dueAt: string;
        dueDate: string;
        paidAt: string | null;
        estimatedCreditDate: string | null;
        invoiceUrl: string | null;
        bankSlipUrl: string | null;
        digitableLine: string | null;
        pixCopyPaste: string | null;
        pixEncodedImage: string | null;
        externalId: string | null;
        externalReference: string | null;
        accountTransactionId: string | null;
        subscriptionId?: string;
        /** Format: date-time */
        createdAt: string;
        customer: components["schemas"]["BillingCustomer"] | null;
        creditCardToken?: string;
        creditCardBrand?: string;
        creditCardNumber?: string;
        refunds?: components["schemas"]["BillingRefund"][];
    };
    PublicCryptoQuote: {
        id: string;
        /** Format: decimal */
        amount: number;
        currency: string;
        /** @enum {string} */
        payCurrency: "BTC" | "ETH" | "USDT" | "XRP";
        payAmount: number;
        /** Format: decimal */
        rate: number;
        /** Format: date-time */
        expiresAt: string;
        /** Format: date-time */
        createdAt: string;
    };
    PublicMED: {
        transactionId: string;
        reason: string;
        /** Format: decimal */
        blockedAmount: number;
        /** Format: decimal */
        shortfallAmount: number;
        /** Format: decimal */
        returnedAmount: number;
        autoContest: boolean;
        /** Format: date-time */
        defenceDeadline: string;
        /** Format: date-time */
        expiresAt: string;
        evidence?: components["schemas"]["PublicMedEvidence"];
        /** Format: date-time */
        resolvedAt?: string;
    };
    PublicMedEvidence: {
        description: string;
        files: components["schemas"]["EvidenceFile"][] | null;
        automatic: boolean;
        /** Format: date-time */
        sentAt: string;
    };
    PublicRefund: {
        /** @enum {string} */
        status: "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELED" | "REVERSED";
        refundId?: string;
        /** Format: date-time */
        requestedAt: string;
        /** Format: date-time */
        completedAt?: string;
        /** Format: decimal */
        debitNet: number;
        /** Format: decimal */
        depositNet: number;
        /** Format: decimal */
        transferFee: number;
        /** @enum {string} */
        nature: "ORIGINAL" | "RETIRADA";
        description?: string;
        /** Format: decimal */
        splitReturned?: number;
    };
    PublicReview: {
        pending: boolean;
        /** @enum {string} */
        decision?: "approve" | "reject";
    };
    PublicSplit: {
        splitUser: string;
        /** Format: decimal */
        splitTax: number;
        /** Format: decimal */
        amount: number;
    };
    PublicTransaction: {
        id: string;
        /** @enum {string} */
        type: "PIX_IN" | "PIX_OUT" | "SPLIT_IN" | "ADJUSTMENT" | "INTERNAL_TRANSFER_OUT" | "INTERNAL_TRANSFER_IN" | "PIX_REFUND" | "PIX_AUTOMATIC" | "MOBILE_RECHARGE" | "CRYPTO_IN" | "CRYPTO_OUT" | "MED" | "SUBACCOUNT_ADD_BALANCE" | "SUBACCOUNT_REMOVE_BALANCE" | "SUBACCOUNT_TRANSFER" | "BILLING" | "BILLING_REFUND";
        /** @enum {string} */
        status: "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELED" | "REVERSED" | "OPEN" | "UNDER_REVIEW" | "ACCEPTED" | "REJECTED" | "EXPIRED" | "SCHEDULED" | "PAID";
        /** Format: decimal */
        amount: number;
        /** Format: decimal */
        feeAmount: number;
        /** Format: decimal */
        netAmount: number;
        currency: string;
        description: string;
        externalReference?: string;
        referenceId?: string;
        endToEndId?: string;
        payer?: components["schemas"]["Party"];
        recipient?: components["schemas"]["Party"];
        copyPaste?: string;
        qrcodeUrl?: string;
        /** Format: date-time */
        expiresAt?: string;
        subaccountId?: string;
        toSubaccountId?: string;
        split?: components["schemas"]["PublicSplit"];
        pixKey?: string;
        /** @enum {string} */
        pixKeyType?: "CPF" | "CNPJ" | "EMAIL" | "TELEFONE" | "CHAVE_ALEATORIA";
        securityReview?: components["schemas"]["PublicReview"];
        refund?: components["schemas"]["PublicRefund"];
        transferKind?: string;
        recipientEmail?: string;
        recipientName?: string;
        counterpartyName?: string;
        pairId?: string;
        /** Format: date-time */
        completedAt?: string;
        /** Format: date-time */
        createdAt: string;
        phone?: string;
        operator?: string;
        canBeCancelled?: boolean;
        /** @enum {string} */
        payCurrency?: "BTC" | "ETH" | "USDT" | "XRP";
        payAmount?: number;
        /** Format: decimal */
        rate?: number;
        quoteId?: string;
        address?: string;
        extraId?: string;
        txHash?: string;
        latePayment?: components["schemas"]["CryptoLatePayment"];
        protocol?: string;
        infractionId?: string;
        med?: components["schemas"]["PublicMED"];
    };
    RechargeProvider: {
        phone: string;
        operator: string;
        amounts: number[] | null;
    };
    Record: {
        id: string;
        label: string;
        /** Format: decimal */
        amount: number;
        /** @enum {string} */
        method: "PIX" | "Transferência interna" | "Cripto";
        destination: string;
        /** @enum {string} */
        triggerType: "once" | "recurring" | "balance_threshold";
        scheduleLabel: string;
        nextRunAt: string;
        lastRunAt?: string;
        runCount: number;
        /** @enum {string} */
        status: "active" | "paused" | "completed" | "failed";
        coverFee: boolean;
        maxRuns?: number;
        description?: string;
        lastError?: string;
        /** Format: date-time */
        createdAt: string;
        run?: components["schemas"]["RunResult"];
    };
    Report: {
        id: string;
        /** @enum {string} */
        status: "COMPLETED";
        customer: string;
        cpfCnpj: string;
        /** Format: decimal */
        fee: number;
        score: number;
        restrictions: number;
        /** Format: date-time */
        createdAt: string;
    };
    RunResult: {
        runNumber: number;
        transactionId: string;
        /** @enum {string} */
        type: "PIX_IN" | "PIX_OUT" | "SPLIT_IN" | "ADJUSTMENT" | "INTERNAL_TRANSFER_OUT" | "INTERNAL_TRANSFER_IN" | "PIX_REFUND" | "PIX_AUTOMATIC" | "MOBILE_RECHARGE" | "CRYPTO_IN" | "CRYPTO_OUT" | "MED" | "SUBACCOUNT_ADD_BALANCE" | "SUBACCOUNT_REMOVE_BALANCE" | "SUBACCOUNT_TRANSFER" | "BILLING" | "BILLING_REFUND";
        /** @enum {string} */
        status: "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELED" | "REVERSED" | "OPEN" | "UNDER_REVIEW" | "ACCEPTED" | "REJECTED" | "EXPIRED" | "SCHEDULED" | "PAID";
        /** Format: decimal */
        amount: number;
    };
    SessionDelivery: {
        productId: string;
        productName: string;
        /** @enum {string} */
        type: "LINK" | "TEXT_INFINITE" | "TEXT_LINES";
        redirectUrl?: string;
        content?: string;
        /** @description true when a TEXT_LINES product had no line left for this sale (paid after its session's hold lapsed): no line was handed out; content says the seller delivers */
        undelivered?: boolean;
    };
    SessionView: {
        sessionId: string;
        linkId: string;
        /** @enum {string} */
        status: "OPEN" | "PAID" | "EXPIRED";
        /** @enum {string} */
        method: "PIX" | "CRYPTO";
        /** Format: decimal */
        originalAmount: number;
        /** Format: decimal */
        discountAmount: number;
        /** Format: decimal */
        amount: number;
        couponCode?: string;
        productIds: string[] | null;
        payer?: components["schemas"]["CheckoutPayer"];
        customerId?: string;
        transactionId: string;
        externalReference?: string;
        payCheckoutUrl: string;
        delivery?: components["schemas"]["SessionDelivery"][];
        /** @description on a PAID session with a coupon: whether its sale counted a use of the coupon; false when it was paid after its hold lapsed and every use was taken or held by other checkouts (the discounted amount was still paid) */
        couponCounted?: boolean;
        /** Format: date-time */
        expiresAt: string;
        /** Format: date-time */
        paidAt?: string;
        /** Format: date-time */
        createdAt: string;
    };
    Side: {
        lines: components["schemas"]["Line"][] | null;
        /** Format: decimal */
        totalPercentFee: number;
        /** Format: decimal */
        totalFixedFee: number;
    };
    Simulation: {
        id: string;
        outcome: string;
    };
    SubaccountBalanceView: {
        id: string;
        externalReference: string;
        currency: string;
        /** Format: decimal */
        spendablePadrao: number;
        /** Format: decimal */
        availablePadrao: number;
        /** Format: decimal */
        lockedPadrao: number;
        /** Format: decimal */
        pendingPadrao: number;
    };
    SubaccountLean: {
        id: string;
        name: string;
        externalReference: string;
        /** @enum {string} */
        status: "ACTIVE" | "DISABLED";
        /** @enum {string} */
        lockMode: "NONE" | "full" | "withdraw_only" | "deposit_only";
        balance: components["schemas"]["LeanBalance"];
    };
    SubscriptionRecord: {
        subscriptionId: string;
        externalId: string;
        /** @enum {string} */
        status: "ACTIVE" | "CANCELED";
        /** @enum {string} */
        method: "BOLETO" | "CARD_CREDIT" | "PIX";
        /** Format: decimal */
        amount: number;
        /** @enum {string} */
        cycle: "WEEKLY" | "BIWEEKLY" | "MONTHLY" | "BIMONTHLY" | "QUARTERLY" | "SEMIANNUALLY" | "YEARLY";
        description: string;
        nextDueDate: string;
        /** Format: date-time */
        createdAt: string;
        customer: components["schemas"]["BillingCustomer"];
        externalReference?: string;
        creditCardBrand?: string;
        creditCardNumber?: string;
        anchorDate: string;
        cycleNumber: number;
        lastBillingId?: string;
        lastError?: string;
        /** Format: date-time */
        canceledAt?: string;
    };
    TestTrigger: {
        endpointId: string;
        url: string;
        events: string[] | null;
        triggeredBy: string;
        requestId?: string;
        /** Format: date-time */
        triggeredAt: string;
    };
    Unlocked: {
        id: string;
        /** @enum {string} */
        lockMode: "NONE" | "full" | "withdraw_only" | "deposit_only";
        /** @enum {string} */
        status: "ACTIVE" | "DISABLED";
    };
    View: {
        id: string;
        name: string;
        externalReference: string;
        /** @enum {string} */
        personType: "PF" | "PJ";
        cpf: string;
        birthDate: string;
        postalCode: string;
        company?: components["schemas"]["Company"];
        /** @enum {string} */
        status: "ACTIVE" | "DISABLED";
        /** @enum {string} */
        lockMode: "NONE" | "full" | "withdraw_only" | "deposit_only";
        limits: components["schemas"]["Limits"];
        pricing: components["schemas"]["Fees"];
        /** @enum {string} */
        portalState: "none" | "active" | "disabled" | "pending_password" | "invite_pending" | "pending_verification";
        balance: components["schemas"]["Balance"];
        /** Format: date-time */
        createdAt: string;
    };
    /** @description a frame a client sends (JSON text) */
    WebSocketClientMessage: {
        /** @constant */
        action: "authenticate";
        /** @description the API key */
        apiKey: string;
    } | {
        /** @constant */
        action: "subscribe";
        /** @description an event type or pattern: a-z, 0-9, _, . and *, up to 64 characters (payment.*, *) */
        pattern?: string;
        /** @description one payment's events, for 30 minutes or until it is paid, fails or expires */
        paymentId?: string;
    } | {
        /** @constant */
        action: "unsubscribe";
        /** @description an event type or pattern: a-z, 0-9, _, . and *, up to 64 characters (payment.*, *) */
        pattern?: string;
        /** @description one payment's events, for 30 minutes or until it is paid, fails or expires */
        paymentId?: string;
    } | {
        /** @constant */
        action: "ack";
        /** @description the event frame's id (its delivery id) */
        id: string;
    } | {
        /** @constant */
        action: "ping";
    };
    /** @description an event frame: the webhook delivery's envelope (webhooks section, by event), id the delivery id of the event to this connection's key */
    WebSocketEvent: {
        /** Format: date-time */
        createdAt: string;
        data: components["schemas"]["PublicTransaction"] | components["schemas"]["SessionView"] | components["schemas"]["InvoiceEventData"] | components["schemas"]["TestTrigger"];
        /** @enum {string} */
        event: "payment.created" | "payment.paid" | "payment.failed" | "payment.pix.expired" | "payment.refunded" | "refund.requested" | "refund.completed" | "refund.failed" | "transfer.created" | "transfer.completed" | "transfer.failed" | "transfer.internal.completed" | "transfer.internal.received" | "med.created" | "med.evidence_sent" | "med.updated" | "payment_link.paid" | "invoice.created" | "invoice.processing" | "invoice.issued" | "invoice.failed" | "invoice.cancelled" | "webhook.test";
        /** @description the delivery id: send it back in an ack */
        id: string;
    };
}

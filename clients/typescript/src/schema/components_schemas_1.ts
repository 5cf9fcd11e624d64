import type { components, operations, paths, webhooks } from "../schema.js";

/** Members of components_schemas (split-schema.mjs; do not edit: `make clients`). */
export interface components_schemas_1 {
    Attempt: {
        attempt: number;
        date: string;
        /** @enum {string} */
        status: "PENDING" | "PAID" | "FAILED";
        reason?: string;
        /** Format: date-time */
        sentAt?: string;
        /** Format: date-time */
        finishedAt?: string;
    };
    Balance: {
        /** Format: decimal */
        spendablePadrao: number;
        /** Format: decimal */
        availablePadrao: number;
        /** Format: decimal */
        lockedPadrao: number;
        /** Format: decimal */
        pendingPadrao: number;
    };
    BalanceView: {
        currency: string;
        /** Format: decimal */
        availableAmount: number;
        /** Format: decimal */
        pendingAmount: number;
        padrao: components["schemas"]["PadraoBalance"];
    };
    BillingCustomer: {
        id: string;
        name: string;
        taxId: string;
    };
    BillingRefund: {
        id: string;
        /** Format: decimal */
        amount: number;
        description?: string;
        /** Format: date-time */
        at: string;
        requestId?: string;
        /** @enum {string} */
        status?: "PENDING" | "COMPLETED" | "FAILED";
        /** Format: decimal */
        feeAmount?: number;
        failureReason?: string;
    };
    CardTokenView: {
        creditCardToken: string;
        creditCardBrand: string;
        creditCardNumber: string;
    };
    ChargeCreated: {
        id: string;
        /** @enum {string} */
        status: "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELED" | "REVERSED" | "OPEN" | "UNDER_REVIEW" | "ACCEPTED" | "REJECTED" | "EXPIRED" | "SCHEDULED" | "PAID";
        /** Format: decimal */
        amount: number;
        /** Format: decimal */
        feeAmount: number;
        /** Format: decimal */
        netAmount: number;
        copyPaste: string;
        qrCodeBase64: string;
        qrcodeUrl: string;
        /** Format: date-time */
        expiresAt: string;
        subaccountId?: string;
        /** Format: date-time */
        createdAt: string;
    };
    CheckoutPayer: {
        name?: string;
        document?: string;
        email?: string;
    };
    CheckoutView: {
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
        copyPaste?: string;
        qrCodeBase64?: string;
        address?: string;
        extraId?: string;
        /** @enum {string} */
        payCurrency?: "BTC" | "ETH" | "USDT" | "XRP";
        payAmount?: number;
        /** Format: decimal */
        rate?: number;
    };
    Company: {
        cnpj: string;
        companyName: string;
        site: string | null;
        document?: components["schemas"]["FileInfo"];
    };
    Coupon: {
        id: string;
        code: string;
        /** @enum {string} */
        discountType: "PERCENT" | "FIXED";
        /** Format: decimal */
        discountValue: number;
        uses: number;
        maxUses: number | null;
        expiresAt: string | null;
        /** @enum {string} */
        status: "ACTIVE" | "INACTIVE";
        productIds: components["schemas"]["IDList"] | null;
        paymentLinkIds: components["schemas"]["IDList"] | null;
        /** Format: date-time */
        createdAt: string;
    };
    CouponQuote: {
        valid: boolean;
        /** Format: decimal */
        discountAmount: number;
        /** Format: decimal */
        finalAmount: number;
        reason?: string;
    };
    CreatedWebhook: {
        id: string;
        url: string;
        events: string[] | null;
        description: string;
        /** @enum {string} */
        status: "ACTIVE" | "DISABLED";
        /** @enum {string} */
        scope: "key" | "account";
        apiKeyId?: string;
        /** Format: date-time */
        createdAt: string;
        secret: string;
    };
    CryptoLatePayment: {
        /** Format: decimal */
        rate: number;
        /** Format: decimal */
        credited: number;
        /** Format: date-time */
        at: string;
    };
    Customer: {
        id: string;
        name: string;
        email: string | null;
        document: string;
        /** @enum {string} */
        type: "PF" | "PJ";
        /** @enum {string} */
        status: "ACTIVE" | "INACTIVE" | "BLOCKED";
        phone: string | null;
        whatsapp: string | null;
        city: string | null;
        state: ("AC" | "AL" | "AP" | "AM" | "BA" | "CE" | "DF" | "ES" | "GO" | "MA" | "MT" | "MS" | "MG" | "PA" | "PB" | "PR" | "PE" | "PI" | "RJ" | "RN" | "RS" | "RO" | "RR" | "SC" | "SP" | "SE" | "TO") | null;
        transactions: number;
        /** Format: decimal */
        volume: number;
        /** Format: date-time */
        createdAt: string;
    };
    Deleted: {
        id: string;
        deleted: boolean;
    };
    DeliveryView: {
        /** @enum {string} */
        type: "LINK" | "TEXT_INFINITE" | "TEXT_LINES";
        redirectUrl?: string;
        richContent?: string;
        linesAvailable?: number;
        linesDelivered?: number;
    };
    DunningList: {
        object: string;
        hasMore: boolean;
        totalCount: number;
        limit: number;
        offset: number;
        data: components["schemas"]["DunningView"][] | null;
    };
    DunningSimulation: {
        payment: string;
        canBeRequested: boolean;
        reason?: string;
        /** Format: decimal */
        fee: number;
        /** Format: decimal */
        value: number;
    };
    DunningView: {
        id: string;
        /** @enum {string} */
        status: "PENDING" | "AWAITING_APPROVAL" | "PROCESSED" | "DENIED";
        /** @enum {string} */
        type: "CREDIT_BUREAU";
        payment: string;
        /** Format: decimal */
        value: number;
        /** Format: decimal */
        fee: number;
        description?: string;
        customerName: string;
        customerCpfCnpj: string;
        customerPrimaryPhone?: string;
        customerEmail?: string;
        customerPostalCode: string;
        customerAddress: string;
        customerAddressNumber: string;
        customerComplement?: string;
        customerProvince: string;
        customerCity: string;
        customerState: string;
        documentName?: string;
        reason?: string;
        /** Format: date-time */
        dateCreated: string;
    };
    Envelope: {
        message: string;
        /** @description equal to the X-Request-Id header */
        requestId: string;
        /** @constant */
        success: true;
    };
    Error: {
        message: string;
        requestId: string;
        /** @constant */
        success: false;
    };
    EvidenceFile: {
        name: string;
        contentType: string;
        size: number;
        sha256: string;
    };
    Fees: {
        /** Format: decimal */
        pixInFixed: number;
        /** Format: decimal */
        pixInPercent: number;
        /** Format: decimal */
        pixOutFixed: number;
        /** Format: decimal */
        pixOutPercent: number;
        /** Format: decimal */
        boletoFixed: number;
        /** Format: decimal */
        boletoPercent: number;
        /** Format: decimal */
        cardCreditFixed: number;
        /** Format: decimal */
        cardCreditPercent: number;
        /** Format: decimal */
        cardDebitFixed: number;
        /** Format: decimal */
        cardDebitPercent: number;
        /** Format: decimal */
        cardVoucherFixed: number;
        /** Format: decimal */
        cardVoucherPercent: number;
        /** Format: decimal */
        billingNotificationFixed: number;
    };
    FileInfo: {
        name: string;
        contentType: string;
        size: number;
        sha256: string;
    };
    IDList: string[];
    IdOnly: {
        id: string;
    };
    Instruction: {
        id: string;
        authorizationId: string;
        customerId?: string;
        cycle: number;
        firstPayment?: boolean;
        /** Format: decimal */
        amount: number;
        /** Format: decimal */
        feeAmount: number;
        /** Format: decimal */
        netAmount: number;
        dueDate: string;
        /** @enum {string} */
        status: "SCHEDULED" | "PAID" | "FAILED" | "CANCELED";
        failureReason?: string;
        attempts?: components["schemas"]["Attempt"][];
        retryDate?: string;
        endToEndId?: string;
        payer?: components["schemas"]["Party"];
        /** Format: date-time */
        paidAt?: string;
        /** Format: date-time */
        createdAt: string;
    };
    InvoiceEventData: {
        invoiceId: string;
    };
    Lean: {
        id: string;
        /** @enum {string} */
        status: "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELED" | "REVERSED" | "OPEN" | "UNDER_REVIEW" | "ACCEPTED" | "REJECTED" | "EXPIRED" | "SCHEDULED" | "PAID";
        /** Format: decimal */
        amount: number;
        endToEndId?: string;
        /** Format: date-time */
        expiresAt?: string;
        /** Format: date-time */
        completedAt?: string;
    };
    LeanBalance: {
        /** Format: decimal */
        spendablePadrao: number;
    };
    Limits: {
        daily: number | null;
        monthly: number | null;
        perTransaction: number | null;
    };
    Line: {
        label: string;
        /** Format: decimal */
        percentFee: number;
        /** Format: decimal */
        fixedFee: number;
    };
    LinkView: {
        id: string;
        name: string;
        description: string;
        allowedMethods: ("PIX" | "CRYPTO")[] | null;
        /** Format: decimal */
        fixedAmount?: number;
        productIds: string[] | null;
        /** @enum {string} */
        customerMode: "NONE" | "OPTIONAL" | "REQUIRED";
        /** @enum {string} */
        status: "ACTIVE" | "INACTIVE";
        payPageUrl: string;
        /** Format: date-time */
        createdAt: string;
    };
    PadraoBalance: {
        /** Format: decimal */
        available: number;
        /** Format: decimal */
        pending: number;
        /** Format: decimal */
        withdrawable: number;
        /** Format: decimal */
        locked24h: number;
        nextUnlockAt: string | null;
    };
    Party: {
        name?: string;
        document?: string;
        bank?: string;
        pixKey?: string;
    };
    PixautoView: {
        id: string;
        customerId: string;
        description: string;
        /** @enum {string} */
        frequency: "WEEKLY" | "MONTHLY" | "QUARTERLY" | "SEMIANNUALLY" | "YEARLY";
        /** Format: decimal */
        fixedAmount?: number;
        /** Format: decimal */
        maxAmount?: number;
        startDate: string;
        endDate?: string;
        /** Format: decimal */
        firstPaymentAmount: number;
        recurrenceId: string;
        /** @enum {string} */
        status: "PENDING" | "ACTIVE" | "CANCELED" | "REJECTED" | "EXPIRED";
        statusReason?: string;
        copyPaste?: string;
        qrCodeBase64?: string;
        payer?: components["schemas"]["Party"];
        firstPaymentId?: string;
        /** Format: date-time */
        consentExpiresAt?: string;
        /** Format: date-time */
        approvedAt?: string;
        /** Format: date-time */
        closedAt?: string;
        /** Format: date-time */
        createdAt: string;
    };
    PortalItem: {
        subaccountId: string;
        subaccountName: string;
        portal: components["schemas"]["PortalView"];
    };
    PortalReady: {
        success: boolean;
        /** @enum {string} */
        mode: "portal_ready";
    };
    PortalView: {
        /** @enum {string} */
        state: "none" | "active" | "disabled" | "pending_password" | "invite_pending" | "pending_verification";
        email: string | null;
        emailVerified: boolean;
        twoFactorEnabled: boolean;
        lastLoginAt: string | null;
    };
}

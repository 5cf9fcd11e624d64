package api

import (
	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
)

// Route is one row of the route table: the single source of truth for what
// each merchant route requires. Permission "" means authentication only.
type Route struct {
	Method     string
	Path       string
	Permission string
	// Feature is the account feature the route needs ("" for none): an
	// account without it gets 403 before its body is even read.
	Feature string
	Sandbox bool
	// Idempotent puts a POST that is not a create under the
	// Idempotency-Key middleware (a create always is).
	Idempotent bool
	Handler    func(*Server, *gin.Context)
}

// Routes is the merchant route table (paths relative to /v1).
func Routes() []Route {
	return []Route{
		{Method: "POST", Path: "/payment-pix/create", Permission: "payment-pix/create", Handler: (*Server).createCharge},
		{Method: "GET", Path: "/payment-pix/get/:id", Permission: "payment-pix/get", Handler: (*Server).getCharge},
		// The spec leaves the status route's permission open: polling a
		// charge is reading it, so it takes payment-pix/get.
		{Method: "GET", Path: "/payment-pix/status/:id", Permission: "payment-pix/get", Handler: (*Server).chargeStatus},
		{Method: "GET", Path: "/payment-pix/list", Permission: "payment-pix/list", Handler: (*Server).listCharges},
		{Method: "POST", Path: "/refunds/create", Permission: "refunds/create", Handler: (*Server).createRefund},
		{Method: "GET", Path: "/refunds/get/:id", Permission: "refunds/get", Handler: (*Server).getRefund},
		{Method: "GET", Path: "/refunds/list", Permission: "refunds/list", Handler: (*Server).listRefunds},

		{Method: "POST", Path: "/transfer-pix/create", Permission: "transfer-pix/create", Handler: (*Server).createTransfer},
		{Method: "GET", Path: "/transfer-pix/get/:id", Permission: "transfer-pix/get", Handler: (*Server).getTransfer},
		{Method: "GET", Path: "/transfer-pix/status/:id", Permission: "transfer-pix/get", Handler: (*Server).transferStatus},
		{Method: "GET", Path: "/transfer-pix/list", Permission: "transfer-pix/list", Handler: (*Server).listTransfers},
		// /payouts is the legacy alias of /transfer-pix, under the legacy payouts/* permissions.
		{Method: "POST", Path: "/payouts/create", Permission: "payouts/create", Handler: (*Server).createTransfer},
		{Method: "GET", Path: "/payouts/get/:id", Permission: "payouts/get", Handler: (*Server).getTransfer},
		{Method: "GET", Path: "/payouts/status/:id", Permission: "payouts/get", Handler: (*Server).transferStatus},
		{Method: "GET", Path: "/payouts/list", Permission: "payouts/list", Handler: (*Server).listTransfers},

		{Method: "POST", Path: "/transfer-internal/create", Permission: "transfer-internal/create", Handler: (*Server).createInternal},
		{Method: "GET", Path: "/transfer-internal/get/:id", Permission: "transfer-internal/get", Handler: (*Server).getInternal},
		{Method: "GET", Path: "/transfer-internal/list", Permission: "transfer-internal/list", Handler: (*Server).listInternal},

		{Method: "POST", Path: "/transfer-scheduled/create", Permission: "transfer-scheduled/create", Handler: (*Server).createSchedule},
		{Method: "GET", Path: "/transfer-scheduled/list", Permission: "transfer-scheduled/list", Handler: (*Server).listSchedules},
		{Method: "GET", Path: "/transfer-scheduled/get/:id", Permission: "transfer-scheduled/get", Handler: (*Server).getSchedule},
		{Method: "PATCH", Path: "/transfer-scheduled/update/:id", Permission: "transfer-scheduled/update", Handler: (*Server).updateSchedule},
		{Method: "POST", Path: "/transfer-scheduled/run-now/:id", Permission: "transfer-scheduled/run-now", Handler: (*Server).runScheduleNow},
		// The spec leaves cancel open; CONTRACTS.md fixes it here.
		{Method: "POST", Path: "/transfer-scheduled/cancel/:id", Permission: "transfer-scheduled/cancel", Handler: (*Server).cancelSchedule},

		{Method: "GET", Path: "/account/balance", Permission: "account/balance", Handler: (*Server).balance},
		{Method: "GET", Path: "/account/transactions", Permission: "account/transactions", Handler: (*Server).transactions},

		{Method: "POST", Path: "/subaccount/create", Permission: "subaccount/create", Feature: domain.FeatureSubaccounts, Handler: (*Server).createSubaccount},
		{Method: "GET", Path: "/subaccount/get/:id", Permission: "subaccount/get", Feature: domain.FeatureSubaccounts, Handler: (*Server).getSubaccount},
		{Method: "GET", Path: "/subaccount/get-by-ref/:externalReference", Permission: "subaccount/get", Feature: domain.FeatureSubaccounts, Handler: (*Server).getSubaccountByRef},
		{Method: "GET", Path: "/subaccount/list", Permission: "subaccount/list", Feature: domain.FeatureSubaccounts, Handler: (*Server).listSubaccounts},
		{Method: "POST", Path: "/subaccount/update", Permission: "subaccount/update", Feature: domain.FeatureSubaccounts, Handler: (*Server).updateSubaccount},
		{Method: "POST", Path: "/subaccount/delete", Permission: "subaccount/delete", Feature: domain.FeatureSubaccounts, Handler: (*Server).deleteSubaccount},
		{Method: "GET", Path: "/subaccount/balance", Permission: "subaccount/balance", Feature: domain.FeatureSubaccounts, Handler: (*Server).subaccountBalance},
		{Method: "POST", Path: "/subaccount/add-balance", Permission: "subaccount/add-balance", Feature: domain.FeatureSubaccounts, Handler: (*Server).addSubaccountBalance},
		{Method: "POST", Path: "/subaccount/remove-balance", Permission: "subaccount/remove-balance", Feature: domain.FeatureSubaccounts, Handler: (*Server).removeSubaccountBalance},
		{Method: "POST", Path: "/subaccount/transfer", Permission: "subaccount/transfer", Feature: domain.FeatureSubaccounts, Handler: (*Server).transferSubaccount},
		{Method: "POST", Path: "/subaccount/lock", Permission: "subaccount/lock", Feature: domain.FeatureSubaccounts, Handler: (*Server).lockSubaccount},
		{Method: "POST", Path: "/subaccount/unlock", Permission: "subaccount/unlock", Feature: domain.FeatureSubaccounts, Handler: (*Server).unlockSubaccount},
		{Method: "POST", Path: "/subaccount/set-limits", Permission: "subaccount/set-limits", Feature: domain.FeatureSubaccounts, Handler: (*Server).setSubaccountLimits},
		{Method: "POST", Path: "/subaccount/set-pricing", Permission: "subaccount/set-pricing", Feature: domain.FeatureSubaccounts, Handler: (*Server).setSubaccountPricing},
		// The spec gives the pricing preview the permission subaccount/get.
		{Method: "GET", Path: "/subaccount/pricing", Permission: "subaccount/get", Feature: domain.FeatureSubaccounts, Handler: (*Server).subaccountPricing},
		{Method: "POST", Path: "/subaccount/portal/setup", Permission: "subaccount/portal/setup", Feature: domain.FeatureSubaccounts, Handler: (*Server).portalSetup},
		{Method: "GET", Path: "/subaccount/portal/status", Permission: "subaccount/portal/get", Feature: domain.FeatureSubaccounts, Handler: (*Server).portalStatus},
		{Method: "POST", Path: "/subaccount/portal/update-email", Permission: "subaccount/portal/update-email", Feature: domain.FeatureSubaccounts, Handler: (*Server).portalUpdateEmail},
		{Method: "POST", Path: "/subaccount/portal/revoke", Permission: "subaccount/portal/revoke", Feature: domain.FeatureSubaccounts, Handler: (*Server).portalRevoke},
		{Method: "POST", Path: "/subaccount/portal/reset-2fa", Permission: "subaccount/portal/reset-2fa", Feature: domain.FeatureSubaccounts, Handler: (*Server).portalReset2FA},

		// Store: customers, products, coupons.
		{Method: "POST", Path: "/customers/create", Permission: "customers/create", Handler: (*Server).createCustomer},
		{Method: "GET", Path: "/customers/get/:id", Permission: "customers/get", Handler: (*Server).getCustomer},
		{Method: "GET", Path: "/customers/list", Permission: "customers/list", Handler: (*Server).listCustomers},
		{Method: "PATCH", Path: "/customers/update/:id", Permission: "customers/update", Handler: (*Server).updateCustomer},
		{Method: "DELETE", Path: "/customers/delete/:id", Permission: "customers/delete", Handler: (*Server).deleteCustomer},
		{Method: "POST", Path: "/products/create", Permission: "products/create", Handler: (*Server).createProduct},
		{Method: "GET", Path: "/products/get/:id", Permission: "products/get", Handler: (*Server).getProduct},
		{Method: "GET", Path: "/products/list", Permission: "products/list", Handler: (*Server).listProducts},
		{Method: "PATCH", Path: "/products/update/:id", Permission: "products/update", Handler: (*Server).updateProduct},
		{Method: "DELETE", Path: "/products/delete/:id", Permission: "products/delete", Handler: (*Server).deleteProduct},
		{Method: "POST", Path: "/coupons/create", Permission: "coupons/create", Handler: (*Server).createCoupon},
		{Method: "GET", Path: "/coupons/get/:id", Permission: "coupons/get", Handler: (*Server).getCoupon},
		{Method: "GET", Path: "/coupons/list", Permission: "coupons/list", Handler: (*Server).listCoupons},
		{Method: "PATCH", Path: "/coupons/update/:id", Permission: "coupons/update", Handler: (*Server).updateCoupon},
		{Method: "DELETE", Path: "/coupons/delete/:id", Permission: "coupons/delete", Handler: (*Server).deleteCoupon},
		{Method: "POST", Path: "/coupons/validate", Permission: "coupons/validate", Handler: (*Server).validateCoupon},
		// Mobile recharge (the spec's permissions).
		{Method: "GET", Path: "/mobile-recharge/provider/:phone", Permission: "mobile-recharge/provider", Feature: domain.FeatureMobileRecharge, Handler: (*Server).rechargeProvider},
		{Method: "POST", Path: "/mobile-recharge/create", Permission: "mobile-recharge/create", Feature: domain.FeatureMobileRecharge, Handler: (*Server).createRecharge},
		{Method: "GET", Path: "/mobile-recharge/list", Permission: "mobile-recharge/list", Feature: domain.FeatureMobileRecharge, Handler: (*Server).listRecharges},
		{Method: "GET", Path: "/mobile-recharge/get/:id", Permission: "mobile-recharge/get", Feature: domain.FeatureMobileRecharge, Handler: (*Server).getRecharge},
		{Method: "POST", Path: "/mobile-recharge/cancel/:id", Permission: "mobile-recharge/cancel", Feature: domain.FeatureMobileRecharge, Handler: (*Server).cancelRecharge},
		// Crypto (the spec leaves the permissions open: group/action of each path).
		{Method: "POST", Path: "/payment-crypto/create", Permission: "payment-crypto/create", Feature: domain.FeatureCrypto, Handler: (*Server).createCryptoDeposit},
		{Method: "GET", Path: "/payment-crypto/get/:id", Permission: "payment-crypto/get", Feature: domain.FeatureCrypto, Handler: (*Server).getCryptoDeposit},
		{Method: "GET", Path: "/payment-crypto/list", Permission: "payment-crypto/list", Feature: domain.FeatureCrypto, Handler: (*Server).listCryptoDeposits},
		{Method: "POST", Path: "/transfer-crypto/quote", Permission: "transfer-crypto/quote", Feature: domain.FeatureCrypto, Handler: (*Server).quoteCrypto},
		{Method: "POST", Path: "/transfer-crypto/create", Permission: "transfer-crypto/create", Feature: domain.FeatureCrypto, Handler: (*Server).createCryptoWithdrawal},
		{Method: "GET", Path: "/transfer-crypto/get/:id", Permission: "transfer-crypto/get", Feature: domain.FeatureCrypto, Handler: (*Server).getCryptoWithdrawal},
		{Method: "GET", Path: "/transfer-crypto/list", Permission: "transfer-crypto/list", Feature: domain.FeatureCrypto, Handler: (*Server).listCryptoWithdrawals},
		{Method: "POST", Path: "/transfer-crypto-auto/create", Permission: "transfer-crypto-auto/create", Feature: domain.FeatureCrypto, Handler: (*Server).sendCryptoAuto},

		{Method: "POST", Path: "/webhooks/create", Permission: "webhooks/create", Handler: (*Server).createWebhook},
		{Method: "GET", Path: "/webhooks/list", Permission: "webhooks/list", Handler: (*Server).listWebhooks},
		{Method: "GET", Path: "/webhooks/get/:id", Permission: "webhooks/get", Handler: (*Server).getWebhook},
		{Method: "PATCH", Path: "/webhooks/update/:id", Permission: "webhooks/update", Handler: (*Server).updateWebhook},
		{Method: "DELETE", Path: "/webhooks/delete/:id", Permission: "webhooks/delete", Handler: (*Server).deleteWebhook},

		// Payment links and checkout.
		{Method: "POST", Path: "/payment-links/create", Permission: "payment-links/create", Handler: (*Server).createLink},
		{Method: "GET", Path: "/payment-links/get/:id", Permission: "payment-links/get", Handler: (*Server).getLink},
		{Method: "GET", Path: "/payment-links/list", Permission: "payment-links/list", Handler: (*Server).listLinks},
		{Method: "PATCH", Path: "/payment-links/update/:id", Permission: "payment-links/update", Handler: (*Server).updateLink},
		{Method: "PATCH", Path: "/payment-links/status/:id", Permission: "payment-links/update", Handler: (*Server).linkStatus},
		{Method: "DELETE", Path: "/payment-links/delete/:id", Permission: "payment-links/delete", Handler: (*Server).deleteLink},
		// PIX automatic (the spec leaves the instructions' permissions open:
		// they follow the authorizations' group/action names).
		{Method: "POST", Path: "/pix-automatic/authorizations/create", Permission: "pix-automatic/authorizations/create", Feature: domain.FeaturePixAutomatic, Handler: (*Server).createAuthorization},
		{Method: "GET", Path: "/pix-automatic/authorizations/list", Permission: "pix-automatic/authorizations/list", Feature: domain.FeaturePixAutomatic, Handler: (*Server).listAuthorizations},
		{Method: "GET", Path: "/pix-automatic/authorizations/get/:id", Permission: "pix-automatic/authorizations/get", Feature: domain.FeaturePixAutomatic, Handler: (*Server).getAuthorization},
		{Method: "DELETE", Path: "/pix-automatic/authorizations/cancel/:id", Permission: "pix-automatic/authorizations/cancel", Feature: domain.FeaturePixAutomatic, Handler: (*Server).cancelAuthorization},
		{Method: "POST", Path: "/pix-automatic/payment-instructions/create", Permission: "pix-automatic/payment-instructions/create", Feature: domain.FeaturePixAutomatic, Handler: (*Server).createInstruction},
		{Method: "GET", Path: "/pix-automatic/payment-instructions/list", Permission: "pix-automatic/payment-instructions/list", Feature: domain.FeaturePixAutomatic, Handler: (*Server).listInstructions},
		{Method: "GET", Path: "/pix-automatic/payment-instructions/get/:id", Permission: "pix-automatic/payment-instructions/get", Feature: domain.FeaturePixAutomatic, Handler: (*Server).getInstruction},
		{Method: "DELETE", Path: "/pix-automatic/payment-instructions/cancel/:id", Permission: "pix-automatic/payment-instructions/cancel", Feature: domain.FeaturePixAutomatic, Handler: (*Server).cancelInstruction},
		{Method: "POST", Path: "/payment-links/checkout", Permission: "payment-links/checkout", Idempotent: true, Handler: (*Server).checkout},
		{Method: "GET", Path: "/payment-links/sessions/get/:sessionId", Permission: "payment-links/sessions/get", Handler: (*Server).getSession},
		// MED disputes: CONTRACTS.md gives MED no switch
		// (domain.FeatureMED is always on), so the rows name no Feature.
		{Method: "GET", Path: "/meds/list", Permission: "meds/list", Handler: (*Server).listMEDs},
		{Method: "GET", Path: "/meds/get/:id", Permission: "meds/get", Handler: (*Server).getMED},
		{Method: "POST", Path: "/meds/:id/evidence", Permission: "meds/evidence", Handler: (*Server).medEvidence},

		// Subscriptions: cancel takes the subscriptionId or the provider's externalId.
		{Method: "POST", Path: "/subscriptions/create", Permission: "subscriptions/create", Handler: (*Server).createSubscription},
		{Method: "GET", Path: "/subscriptions/list", Permission: "subscriptions/list", Handler: (*Server).listSubscriptions},
		{Method: "GET", Path: "/subscriptions/get/:id", Permission: "subscriptions/get", Handler: (*Server).getSubscription},
		{Method: "POST", Path: "/subscriptions/cancel/:id", Permission: "subscriptions/cancel", Handler: (*Server).cancelSubscription},

		// Credit bureau (the spec's `bureau` path segment; CONTRACTS.md names the fields).
		{Method: "GET", Path: "/bureau/dunnings/simulate", Permission: "bureau/dunnings/simulate", Feature: domain.FeatureCreditBureau, Handler: (*Server).simulateDunning},
		{Method: "POST", Path: "/bureau/dunnings/create", Permission: "bureau/dunnings/create", Feature: domain.FeatureCreditBureau, Handler: (*Server).createDunning},
		{Method: "GET", Path: "/bureau/dunnings/list", Permission: "bureau/dunnings/list", Feature: domain.FeatureCreditBureau, Handler: (*Server).listDunnings},
		{Method: "GET", Path: "/bureau/dunnings/get/:id", Permission: "bureau/dunnings/get", Feature: domain.FeatureCreditBureau, Handler: (*Server).getDunning},
		{Method: "POST", Path: "/bureau/reports/create", Permission: "bureau/reports/create", Feature: domain.FeatureCreditBureau, Handler: (*Server).createReport},
		{Method: "GET", Path: "/bureau/reports/list", Permission: "bureau/reports/list", Feature: domain.FeatureCreditBureau, Handler: (*Server).listReports},
		{Method: "GET", Path: "/bureau/reports/get/:id", Permission: "bureau/reports/get", Feature: domain.FeatureCreditBureau, Handler: (*Server).getReport},

		{Method: "POST", Path: "/sandbox/payment-pix/:id/pay", Sandbox: true, Handler: (*Server).sandboxPay},
		{Method: "POST", Path: "/sandbox/payment-pix/:id/fail", Sandbox: true, Handler: (*Server).sandboxFail},
		{Method: "POST", Path: "/sandbox/payment-pix/:id/expire", Sandbox: true, Handler: (*Server).sandboxExpire},
		{Method: "POST", Path: "/sandbox/transfer-pix/:id/settle", Sandbox: true, Handler: (*Server).sandboxTransferSettle},
		{Method: "POST", Path: "/sandbox/transfer-pix/:id/fail", Sandbox: true, Handler: (*Server).sandboxTransferFail},
		{Method: "POST", Path: "/sandbox/refunds/:id/settle", Sandbox: true, Handler: (*Server).sandboxRefundSettle},
		{Method: "POST", Path: "/sandbox/refunds/:id/fail", Sandbox: true, Handler: (*Server).sandboxRefundFail},
		// PIX automatic: the payer answers the consent QR.
		{Method: "POST", Path: "/sandbox/pix-automatic/authorizations/:id/approve", Sandbox: true, Feature: domain.FeaturePixAutomatic, Handler: (*Server).sandboxApproveAuthorization},
		{Method: "POST", Path: "/sandbox/pix-automatic/authorizations/:id/reject", Sandbox: true, Feature: domain.FeaturePixAutomatic, Handler: (*Server).sandboxRejectAuthorization},

		// Billings.
		{Method: "POST", Path: "/billings/create", Permission: "billings/create", Handler: (*Server).createBilling},
		{Method: "POST", Path: "/billings/tokenize-card", Permission: "billings/tokenize", Idempotent: true, Handler: (*Server).tokenizeCard},
		{Method: "GET", Path: "/billings/get/:id", Permission: "billings/get", Handler: (*Server).getBilling},
		{Method: "GET", Path: "/billings/list", Permission: "billings/list", Handler: (*Server).listBillings},
		{Method: "POST", Path: "/billings/refund", Permission: "billings/refund", Idempotent: true, Handler: (*Server).refundBilling},
		{Method: "POST", Path: "/sandbox/billings/:id/pay", Sandbox: true, Handler: (*Server).sandboxBillingPay},
		{Method: "POST", Path: "/sandbox/billings/:id/overdue", Sandbox: true, Handler: (*Server).sandboxBillingOverdue},
		// Mobile recharge and crypto simulations (gated like their products).
		{Method: "POST", Path: "/sandbox/mobile-recharge/:id/complete", Sandbox: true, Feature: domain.FeatureMobileRecharge, Handler: (*Server).sandboxRechargeComplete},
		{Method: "POST", Path: "/sandbox/payment-crypto/:id/pay", Sandbox: true, Feature: domain.FeatureCrypto, Handler: (*Server).sandboxCryptoPay},
		{Method: "POST", Path: "/sandbox/transfer-crypto/:id/settle", Sandbox: true, Feature: domain.FeatureCrypto, Handler: (*Server).sandboxCryptoSettle},
		{Method: "POST", Path: "/sandbox/transfer-crypto/:id/fail", Sandbox: true, Feature: domain.FeatureCrypto, Handler: (*Server).sandboxCryptoFail},
		// MED disputes: an infraction report, and its decision.
		{Method: "POST", Path: "/sandbox/meds", Sandbox: true, Handler: (*Server).sandboxOpenMED},
		{Method: "POST", Path: "/sandbox/meds/:id/resolve", Sandbox: true, Handler: (*Server).sandboxResolveMED},
	}
}

// adminRoutes is the admin API table (paths relative to /admin/v1).
func adminRoutes() []Route {
	return []Route{
		{Method: "POST", Path: "/accounts", Handler: (*Server).adminCreateAccount},
		{Method: "GET", Path: "/debug/pprof/*name", Handler: (*Server).adminPprof},
		{Method: "GET", Path: "/accounts/:id", Handler: (*Server).adminGetAccount},
		// Tools: the accounts, paged and searchable.
		{Method: "GET", Path: "/accounts", Handler: (*Server).adminListAccounts},
		{Method: "PATCH", Path: "/accounts/:id", Handler: (*Server).adminPatchAccount},
		{Method: "POST", Path: "/accounts/:id/keys", Handler: (*Server).adminCreateKey},
		{Method: "DELETE", Path: "/keys/:id", Handler: (*Server).adminRevokeKey},
		{Method: "POST", Path: "/accounts/:id/adjustments", Handler: (*Server).adminAdjust},
		{Method: "POST", Path: "/transfers/:id/review", Handler: (*Server).adminReview},
		{Method: "GET", Path: "/ledger/verify", Handler: (*Server).adminVerifyLedger},
		{Method: "POST", Path: "/accounts/:id/webhooks", Handler: (*Server).adminCreateWebhook},
		{Method: "POST", Path: "/accounts/:id/users", Handler: (*Server).adminInviteUser},
		{Method: "GET", Path: "/accounts/:id/webhooks", Handler: (*Server).adminListWebhooks},
		{Method: "GET", Path: "/webhooks/:id/deliveries", Handler: (*Server).adminDeliveries},
		{Method: "GET", Path: "/deliveries/:id", Handler: (*Server).adminGetDelivery},
		{Method: "POST", Path: "/deliveries/:id/redeliver", Handler: (*Server).adminRedeliver},
		// webhook.test: one test event to one endpoint.
		{Method: "POST", Path: "/webhooks/:id/test", Handler: (*Server).adminTestWebhook},
	}
}

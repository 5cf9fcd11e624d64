package api

import (
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	bureaudom "github.com/jangada/jangada/domain/bureau"
	"github.com/jangada/jangada/domain/checkout"
	cryptodom "github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/domain/mobile"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/service"
)

// routeCases has one case per row of Routes() (under /v1) and adminRoutes()
// (under /admin/v1), keyed "METHOD path" as the table spells them.
// TestEveryRouteHasAHandlerTest fails for a route without one.
var routeCases = map[string]routeCase{
	// Billings.
	"POST /billings/create": {"/v1/billings/create", `{"method":"BOLETO","amount":10,"customer":{"name":"Ana","taxId":"52998224725"}}`, "Billing created", func(f *fixture) {
		f.billings.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(service.CreatedBilling{Billing: routeBilling}, nil)
	}},
	"POST /billings/tokenize-card": {"/v1/billings/tokenize-card", `{"customer":{"id":"cus_1"},"creditCard":{"holderName":"ANA","number":"4111111111111111","expiryMonth":"12","expiryYear":"2099","ccv":"123"}}`,
		"Card tokenized", func(f *fixture) {
			f.billings.EXPECT().TokenizeCard(gomock.Any(), gomock.Any(), gomock.Any()).Return(service.CardTokenView{CreditCardToken: "ctk_1"}, nil)
		}},
	"GET /billings/get/:id": {"/v1/billings/get/bil_1", "", "Billing", func(f *fixture) {
		f.billings.EXPECT().Get(gomock.Any(), gomock.Any(), "bil_1").Return(service.CreatedBilling{Billing: routeBilling}, nil)
	}},
	"GET /billings/list": {"/v1/billings/list?status=pending&method=BOLETO", "", "Billings", func(f *fixture) {
		f.billings.EXPECT().List(gomock.Any(), gomock.Any(), gomock.Any()).Return([]billing.Billing{routeBilling}, 1, nil)
	}},
	"POST /billings/refund": {"/v1/billings/refund", `{"id":"bil_1","amount":5}`, "Billing refunded", func(f *fixture) {
		f.billings.EXPECT().Refund(gomock.Any(), gomock.Any(), gomock.Any()).Return(routeBilling, nil)
	}},
	"POST /sandbox/billings/:id/pay": {"/v1/sandbox/billings/bil_1/pay", "", "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().PayBilling(gomock.Any(), gomock.Any(), "bil_1").Return(routeSim, nil)
	}},
	"POST /sandbox/billings/:id/overdue": {"/v1/sandbox/billings/bil_1/overdue", "", "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().OverdueBilling(gomock.Any(), gomock.Any(), "bil_1").Return(routeSim, nil)
	}},
	// Charges.
	"POST /payment-pix/create": {"/v1/payment-pix/create", `{"amount":10,"description":"Pedido 1"}`, "PIX charge created", func(f *fixture) {
		code := "000201"
		f.charges.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(service.CreatedCharge{Charge: domain.Transaction{ID: "tx_1",
			CopyPaste: &code, ExpiresAt: &routeTime}}, nil)
	}},
	"GET /payment-pix/get/:id":    txGet("/v1/payment-pix/get/tx_1", "PIX charge", domain.TypePixIn),
	"GET /payment-pix/status/:id": txGet("/v1/payment-pix/status/tx_1", "PIX charge status", domain.TypePixIn),
	"GET /payment-pix/list":       txList("/v1/payment-pix/list", "PIX charges"),
	// Refunds.
	"POST /refunds/create": {"/v1/refunds/create", `{"transactionId":"tx_1","amount":10}`, "Refund requested", func(f *fixture) {
		f.refunds.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any()).Return(routeTx, nil)
	}},
	"GET /refunds/get/:id": {"/v1/refunds/get/rf_1", "", "Refund", func(f *fixture) {
		f.txs.EXPECT().Refund(gomock.Any(), gomock.Any(), "rf_1").Return(routeTx, nil)
	}},
	"GET /refunds/list": txList("/v1/refunds/list", "Refunds"),
	// PIX out, and its legacy alias.
	"POST /transfer-pix/create":    transferCreate("/v1/transfer-pix/create"),
	"GET /transfer-pix/get/:id":    txGet("/v1/transfer-pix/get/tx_1", "PIX transfer", domain.TypePixOut),
	"GET /transfer-pix/status/:id": txGet("/v1/transfer-pix/status/tx_1", "PIX transfer status", domain.TypePixOut),
	"GET /transfer-pix/list":       txList("/v1/transfer-pix/list", "PIX transfers"),
	"POST /payouts/create":         transferCreate("/v1/payouts/create"),
	"GET /payouts/get/:id":         txGet("/v1/payouts/get/tx_1", "PIX transfer", domain.TypePixOut),
	"GET /payouts/status/:id":      txGet("/v1/payouts/status/tx_1", "PIX transfer status", domain.TypePixOut),
	"GET /payouts/list":            txList("/v1/payouts/list", "PIX transfers"),
	// Internal transfers.
	"POST /transfer-internal/create": {"/v1/transfer-internal/create", `{"amount":10,"recipientEmail":"bob@example.com"}`, "Internal transfer completed", func(f *fixture) {
		f.internal.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(routeTx, nil)
	}},
	"GET /transfer-internal/get/:id": txGet("/v1/transfer-internal/get/tx_1", "Internal transfer", domain.TypeInternalOut, domain.TypeInternalIn),
	"GET /transfer-internal/list":    txList("/v1/transfer-internal/list", "Internal transfers"),
	// Scheduled transfers.
	"POST /transfer-scheduled/create": {"/v1/transfer-scheduled/create",
		`{"triggerType":"BALANCE_THRESHOLD","balanceThreshold":100,"payload":{"method":"interna","amount":5,"recipientEmail":"bob@example.com"}}`,
		"Scheduled transfer created", func(f *fixture) {
			f.schedules.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(schedule.Record{}, nil)
		}},
	"GET /transfer-scheduled/list": {"/v1/transfer-scheduled/list", "", "Scheduled transfers", func(f *fixture) {
		f.schedules.EXPECT().List(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, 0, nil)
	}},
	"GET /transfer-scheduled/get/:id": {"/v1/transfer-scheduled/get/sch_1", "", "Scheduled transfer", func(f *fixture) {
		f.schedules.EXPECT().Get(gomock.Any(), gomock.Any(), "sch_1").Return(schedule.Record{}, nil)
	}},
	"PATCH /transfer-scheduled/update/:id": {"/v1/transfer-scheduled/update/sch_1", `{"label":"novo"}`, "Scheduled transfer updated", func(f *fixture) {
		f.schedules.EXPECT().Update(gomock.Any(), gomock.Any(), "sch_1", gomock.Any()).Return(schedule.Record{}, nil)
	}},
	"POST /transfer-scheduled/run-now/:id": {"/v1/transfer-scheduled/run-now/sch_1", "", "Scheduled transfer ran", func(f *fixture) {
		f.schedules.EXPECT().RunNow(gomock.Any(), gomock.Any(), "sch_1").Return(schedule.Record{}, nil)
	}},
	"POST /transfer-scheduled/cancel/:id": {"/v1/transfer-scheduled/cancel/sch_1", "", "Scheduled transfer cancelled", func(f *fixture) {
		f.schedules.EXPECT().Cancel(gomock.Any(), gomock.Any(), "sch_1").Return(schedule.Record{}, nil)
	}},
	// Subscriptions.
	"POST /subscriptions/create": {"/v1/subscriptions/create", `{"method":"PIX","amount":49.9,"cycle":"MONTHLY","nextDueDate":"` + futureDue + `",` +
		`"customer":{"name":"Maria","taxId":"52998224725"}}`, "Subscription created", func(f *fixture) {
		f.subscriptions.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(billing.SubscriptionRecord{SubscriptionID: "sub_1"}, nil)
	}},
	"GET /subscriptions/list": {"/v1/subscriptions/list?status=active", "", "Subscriptions", func(f *fixture) {
		f.subscriptions.EXPECT().List(gomock.Any(), gomock.Any(), billing.SubscriptionActive, 1, 50).Return([]billing.Subscription{{ID: "sub_1"}}, 1, nil)
	}},
	"GET /subscriptions/get/:id": {"/v1/subscriptions/get/sub_1", "", "Subscription", func(f *fixture) {
		f.subscriptions.EXPECT().Get(gomock.Any(), gomock.Any(), "sub_1").Return(billing.SubscriptionRecord{SubscriptionID: "sub_1"}, nil)
	}},
	"POST /subscriptions/cancel/:id": {"/v1/subscriptions/cancel/psub_1", "", "Subscription canceled", func(f *fixture) {
		f.subscriptions.EXPECT().Cancel(gomock.Any(), gomock.Any(), "psub_1").Return(billing.SubscriptionRecord{SubscriptionID: "sub_1"}, nil)
	}},
	// Credit bureau.
	"GET /bureau/dunnings/simulate": {"/v1/bureau/dunnings/simulate?payment=bil_1", "", "Dunning simulation", func(f *fixture) {
		f.bureau.EXPECT().Simulate(gomock.Any(), gomock.Any(), "bil_1").Return(bureaudom.DunningSimulation{Payment: "bil_1"}, nil)
	}},
	"POST /bureau/dunnings/create": {"/v1/bureau/dunnings/create", dunningJSON, "Dunning requested", func(f *fixture) {
		f.bureau.EXPECT().CreateDunning(gomock.Any(), gomock.Any(), gomock.Any()).Return(bureaudom.DunningView{ID: "dun_1"}, nil)
	}},
	"GET /bureau/dunnings/list": {"/v1/bureau/dunnings/list", "", "Dunnings", func(f *fixture) {
		f.bureau.EXPECT().ListDunnings(gomock.Any(), gomock.Any(), bureaudom.DunningFilter{Limit: 10}).Return(nil, 0, nil)
	}},
	"GET /bureau/dunnings/get/:id": {"/v1/bureau/dunnings/get/dun_1", "", "Dunning", func(f *fixture) {
		f.bureau.EXPECT().GetDunning(gomock.Any(), gomock.Any(), "dun_1").Return(bureaudom.DunningView{ID: "dun_1"}, nil)
	}},
	"POST /bureau/reports/create": {"/v1/bureau/reports/create", `{"customer":"cus_1","cpfCnpj":"529.982.247-25"}`, "Credit report created", func(f *fixture) {
		f.bureau.EXPECT().CreateReport(gomock.Any(), gomock.Any(), bureaudom.NewReport{CustomerID: "cus_1", CpfCnpj: "52998224725"}).Return(bureaudom.Report{ID: "rep_1"}, nil)
	}},
	"GET /bureau/reports/list": {"/v1/bureau/reports/list", "", "Credit reports", func(f *fixture) {
		f.bureau.EXPECT().ListReports(gomock.Any(), gomock.Any(), 1, 50).Return(nil, 0, nil)
	}},
	"GET /bureau/reports/get/:id": {"/v1/bureau/reports/get/rep_1", "", "Credit report", func(f *fixture) {
		f.bureau.EXPECT().GetReport(gomock.Any(), gomock.Any(), "rep_1").Return(bureaudom.Report{ID: "rep_1"}, nil)
	}},
	// The account.
	"GET /account/balance": {"/v1/account/balance", "", "Balance", func(f *fixture) {
		f.txs.EXPECT().Balance(gomock.Any(), gomock.Any()).Return(service.Balance{Available: 100}, nil)
	}},
	"GET /account/transactions": txList("/v1/account/transactions", "Transactions"),
	// Sub-accounts.
	"POST /subaccount/create": {"/v1/subaccount/create", `{"personType":"PF","fullName":"Maria Silva","cpf":"529.982.247-25",` +
		`"birthDate":"1990-05-17","postalCode":"01310-100","externalReference":"ref-1"}`, "Sub-account created", func(f *fixture) {
		f.subs.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any()).Return(routeSub, nil)
	}},
	"GET /subaccount/get/:id": {"/v1/subaccount/get/sub_1", "", "Sub-account", func(f *fixture) {
		f.subs.EXPECT().Get(gomock.Any(), gomock.Any(), "sub_1").Return(subaccount.Subaccount{ID: "sub_1"}, subaccount.Balance{}, nil)
	}},
	"GET /subaccount/get-by-ref/:externalReference": {"/v1/subaccount/get-by-ref/ref-1", "", "Sub-account", func(f *fixture) {
		f.subs.EXPECT().Get(gomock.Any(), gomock.Any(), "ref-1").Return(subaccount.Subaccount{ID: "sub_1"}, subaccount.Balance{}, nil)
	}},
	"GET /subaccount/list": {"/v1/subaccount/list", "", "Sub-accounts", func(f *fixture) {
		f.subs.EXPECT().List(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return([]subaccount.View{routeSub}, 1, nil)
	}},
	"POST /subaccount/update": {"/v1/subaccount/update", `{"id":"sub_1","name":"Loja"}`, "Sub-account updated", func(f *fixture) {
		f.subs.EXPECT().Update(gomock.Any(), gomock.Any(), gomock.Any()).Return(routeSub, nil)
	}},
	"POST /subaccount/delete": {"/v1/subaccount/delete", `{"id":"sub_1"}`, "Sub-account deleted", func(f *fixture) {
		f.subs.EXPECT().Delete(gomock.Any(), gomock.Any(), "sub_1").Return(nil)
	}},
	"GET /subaccount/balance": {"/v1/subaccount/balance?id=sub_1", "", "Sub-account balance", func(f *fixture) {
		f.subs.EXPECT().Get(gomock.Any(), gomock.Any(), "sub_1").Return(subaccount.Subaccount{ID: "sub_1"}, subaccount.Balance{}, nil)
	}},
	"POST /subaccount/add-balance": {"/v1/subaccount/add-balance", `{"id":"sub_1","amount":10.5,"externalReference":"r1"}`, "Balance added to the sub-account", func(f *fixture) {
		f.subs.EXPECT().AddBalance(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(routeTx, nil)
	}},
	"POST /subaccount/remove-balance": {"/v1/subaccount/remove-balance", `{"id":"sub_1","amount":1,"externalReference":"r1"}`, "Balance removed from the sub-account", func(f *fixture) {
		f.subs.EXPECT().RemoveBalance(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(routeTx, nil)
	}},
	"POST /subaccount/transfer": {"/v1/subaccount/transfer", `{"fromSubaccountId":"sub_1","toSubaccountId":"sub_2","amount":1,"externalReference":"r1"}`,
		"Sub-account transfer completed", func(f *fixture) {
			f.subs.EXPECT().Transfer(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(routeTx, nil)
		}},
	"POST /subaccount/lock": {"/v1/subaccount/lock", `{"id":"sub_1","mode":"full"}`, "Sub-account locked", func(f *fixture) {
		f.subs.EXPECT().Lock(gomock.Any(), gomock.Any(), gomock.Any()).Return(routeSub, nil)
	}},
	"POST /subaccount/unlock": {"/v1/subaccount/unlock", `{"id":"sub_1"}`, "Sub-account unlocked", func(f *fixture) {
		f.subs.EXPECT().Unlock(gomock.Any(), gomock.Any(), "sub_1").Return(routeSub, nil)
	}},
	"POST /subaccount/set-limits": {"/v1/subaccount/set-limits", `{"id":"sub_1","daily":10}`, "Sub-account limits set", func(f *fixture) {
		f.subs.EXPECT().SetLimits(gomock.Any(), gomock.Any(), gomock.Any()).Return(routeSub, nil)
	}},
	"POST /subaccount/set-pricing": {"/v1/subaccount/set-pricing", `{"id":"sub_1","pixInPercent":1,"pixInFixed":0.5,"pixOutPercent":1,"pixOutFixed":0.5}`,
		"Sub-account pricing set", func(f *fixture) {
			f.subs.EXPECT().SetPricing(gomock.Any(), gomock.Any(), gomock.Any()).Return(routeSub, nil)
		}},
	"GET /subaccount/pricing": {"/v1/subaccount/pricing?id=sub_1", "", "Sub-account pricing", func(f *fixture) {
		f.subs.EXPECT().Pricing(gomock.Any(), gomock.Any(), "sub_1").Return(subaccount.Preview{}, nil)
	}},
	"POST /subaccount/portal/setup": {"/v1/subaccount/portal/setup", `{"externalReference":"shop-7","email":"a@b.co","password":"Str0ng!pw"}`, "Portal ready", func(f *fixture) {
		f.subs.EXPECT().PortalSetup(gomock.Any(), gomock.Any(), gomock.Any()).Return(nil)
	}},
	"GET /subaccount/portal/status": {"/v1/subaccount/portal/status?id=sub_1", "", "Portal status", func(f *fixture) {
		f.subs.EXPECT().PortalStatus(gomock.Any(), gomock.Any(), "sub_1").Return(subaccount.PortalItem{}, nil)
	}},
	"POST /subaccount/portal/update-email": {"/v1/subaccount/portal/update-email", `{"id":"sub_1","email":"c@d.co"}`, "Portal e-mail updated", func(f *fixture) {
		f.subs.EXPECT().PortalUpdateEmail(gomock.Any(), gomock.Any(), gomock.Any()).Return(subaccount.PortalItem{}, nil)
	}},
	"POST /subaccount/portal/revoke": {"/v1/subaccount/portal/revoke", `{"id":"sub_1"}`, "Portal revoked", func(f *fixture) {
		f.subs.EXPECT().PortalRevoke(gomock.Any(), gomock.Any(), "sub_1").Return(subaccount.PortalItem{}, nil)
	}},
	"POST /subaccount/portal/reset-2fa": {"/v1/subaccount/portal/reset-2fa", `{"id":"sub_1"}`, "Portal two-factor authentication reset", func(f *fixture) {
		f.subs.EXPECT().PortalReset2FA(gomock.Any(), gomock.Any(), "sub_1").Return(subaccount.PortalItem{}, nil)
	}},
	// Store: customers.
	"POST /customers/create": {"/v1/customers/create", `{"name":"Maria Silva","email":"maria@example.com","document":"529.982.247-25"}`,
		"Customer created", func(f *fixture) {
			f.customers.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any()).Return(routeCustomer, nil)
		}},
	"GET /customers/get/:id": {"/v1/customers/get/cus_1", "", "Customer", func(f *fixture) {
		f.customers.EXPECT().Get(gomock.Any(), gomock.Any(), "cus_1").Return(routeCustomer, nil)
	}},
	"GET /customers/list": {"/v1/customers/list", "", "Customers", func(f *fixture) {
		f.customers.EXPECT().List(gomock.Any(), gomock.Any(), store.CustomerFilter{Page: 1, PageSize: 50}).Return([]store.Customer{routeCustomer}, 1, nil)
	}},
	"PATCH /customers/update/:id": {"/v1/customers/update/cus_1", `{"status":"Inativo"}`, "Customer updated", func(f *fixture) {
		f.customers.EXPECT().Update(gomock.Any(), gomock.Any(), "cus_1", gomock.Any()).Return(routeCustomer, nil)
	}},
	"DELETE /customers/delete/:id": {"/v1/customers/delete/cus_1", "", "Customer deleted", func(f *fixture) {
		f.customers.EXPECT().Delete(gomock.Any(), gomock.Any(), "cus_1").Return(nil)
	}},
	// Store: products.
	"POST /products/create": {"/v1/products/create", `{"name":"Curso","price":97,"deliveries":[{"type":"LINK","redirectUrl":"https://example.com/c"}]}`,
		"Product created", func(f *fixture) {
			f.products.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any()).Return(routeProduct, nil)
		}},
	"GET /products/get/:id": {"/v1/products/get/prod_1", "", "Product", func(f *fixture) {
		f.products.EXPECT().Get(gomock.Any(), gomock.Any(), "prod_1").Return(routeProduct, nil)
	}},
	"GET /products/list": {"/v1/products/list", "", "Products", func(f *fixture) {
		f.products.EXPECT().List(gomock.Any(), gomock.Any(), store.ProductFilter{Page: 1, PageSize: 50}).Return([]store.Product{routeProduct}, 1, nil)
	}},
	"PATCH /products/update/:id": {"/v1/products/update/prod_1", `{"status":"inactive"}`, "Product updated", func(f *fixture) {
		f.products.EXPECT().Update(gomock.Any(), gomock.Any(), "prod_1", gomock.Any()).Return(routeProduct, nil)
	}},
	"DELETE /products/delete/:id": {"/v1/products/delete/prod_1", "", "Product deleted", func(f *fixture) {
		f.products.EXPECT().Delete(gomock.Any(), gomock.Any(), "prod_1").Return(nil)
	}},
	// Store: coupons.
	"POST /coupons/create": {"/v1/coupons/create", `{"code":"PROMO10","discountType":"PERCENT","discountValue":10}`, "Coupon created", func(f *fixture) {
		f.coupons.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any()).Return(routeCoupon, nil)
	}},
	"GET /coupons/get/:id": {"/v1/coupons/get/cpn_1", "", "Coupon", func(f *fixture) {
		f.coupons.EXPECT().Get(gomock.Any(), gomock.Any(), "cpn_1").Return(routeCoupon, nil)
	}},
	"GET /coupons/list": {"/v1/coupons/list", "", "Coupons", func(f *fixture) {
		f.coupons.EXPECT().List(gomock.Any(), gomock.Any(), store.CouponFilter{Page: 1, PageSize: 50}).Return([]store.Coupon{routeCoupon}, 1, nil)
	}},
	"PATCH /coupons/update/:id": {"/v1/coupons/update/cpn_1", `{"maxUses":5}`, "Coupon updated", func(f *fixture) {
		f.coupons.EXPECT().Update(gomock.Any(), gomock.Any(), "cpn_1", gomock.Any()).Return(routeCoupon, nil)
	}},
	"DELETE /coupons/delete/:id": {"/v1/coupons/delete/cpn_1", "", "Coupon deleted", func(f *fixture) {
		f.coupons.EXPECT().Delete(gomock.Any(), gomock.Any(), "cpn_1").Return(nil)
	}},
	"POST /coupons/validate": {"/v1/coupons/validate", `{"code":"promo10","amount":100,"paymentLinkId":"plink_1"}`, "Coupon validated", func(f *fixture) {
		f.coupons.EXPECT().Validate(gomock.Any(), gomock.Any(), gomock.Any()).Return(store.CouponQuote{Valid: true, DiscountAmount: 1000, FinalAmount: 9000}, nil)
	}},
	// Mobile recharge.
	"GET /mobile-recharge/provider/:phone": {"/v1/mobile-recharge/provider/(11)98765-4321", "", "Mobile recharge provider", func(f *fixture) {
		f.recharges.EXPECT().Provider(gomock.Any(), gomock.Any(), mobile.MobileNumber{DDD: "11", Number: "987654321"}).Return(service.RechargeProvider{}, nil)
	}},
	"POST /mobile-recharge/create": {"/v1/mobile-recharge/create", `{"phone":"11987654321","amount":20}`, "Mobile recharge created", func(f *fixture) {
		f.recharges.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(routeTx, nil)
	}},
	"GET /mobile-recharge/list":    txList("/v1/mobile-recharge/list", "Mobile recharges"),
	"GET /mobile-recharge/get/:id": txGet("/v1/mobile-recharge/get/tx_1", "Mobile recharge", domain.TypeMobileRecharge),
	"POST /mobile-recharge/cancel/:id": {"/v1/mobile-recharge/cancel/tx_1", "", "Mobile recharge cancelled", func(f *fixture) {
		f.recharges.EXPECT().Cancel(gomock.Any(), gomock.Any(), "tx_1").Return(routeTx, nil)
	}},
	// Crypto.
	"POST /payment-crypto/create": {"/v1/payment-crypto/create", `{"amount":100,"payCurrency":"BTC"}`, "Crypto deposit created", func(f *fixture) {
		f.crypto.EXPECT().CreateDeposit(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(routeTx, nil)
	}},
	"GET /payment-crypto/get/:id": txGet("/v1/payment-crypto/get/tx_1", "Crypto deposit", domain.TypeCryptoIn),
	"GET /payment-crypto/list":    txList("/v1/payment-crypto/list", "Crypto deposits"),
	"POST /transfer-crypto/quote": {"/v1/transfer-crypto/quote", `{"amount":100,"payCurrency":"ETH"}`, "Crypto quote", func(f *fixture) {
		f.crypto.EXPECT().Quote(gomock.Any(), gomock.Any(), gomock.Any()).Return(cryptodom.CryptoQuote{ID: "cq_1", PayCurrency: "ETH"}, nil)
	}},
	"POST /transfer-crypto/create":      cryptoSend("/v1/transfer-crypto/create", false),
	"GET /transfer-crypto/get/:id":      txGet("/v1/transfer-crypto/get/tx_1", "Crypto withdrawal", domain.TypeCryptoOut),
	"GET /transfer-crypto/list":         txList("/v1/transfer-crypto/list", "Crypto withdrawals"),
	"POST /transfer-crypto-auto/create": cryptoSend("/v1/transfer-crypto-auto/create", true),
	// Webhook endpoints of the calling key.
	"POST /webhooks/create": {"/v1/webhooks/create", `{"url":"https://hooks.example.com/j","events":["payment.paid"]}`,
		"Webhook endpoint created; the secret is shown only now", func(f *fixture) {
			f.webhooks.EXPECT().Create(gomock.Any(), testAccountID, ptr(testKeyID), gomock.Any()).Return(routeEndpoint, nil)
		}},
	"GET /webhooks/list": {"/v1/webhooks/list", "", "Webhook endpoints", func(f *fixture) {
		f.webhooks.EXPECT().List(gomock.Any(), keyScopeOf(), 1, 50).Return([]service.WebhookEndpoint{routeEndpoint}, 1, nil)
	}},
	"GET /webhooks/get/:id": {"/v1/webhooks/get/whe_1", "", "Webhook endpoint", func(f *fixture) {
		f.webhooks.EXPECT().Get(gomock.Any(), keyScopeOf(), "whe_1").Return(routeEndpoint, nil)
	}},
	"PATCH /webhooks/update/:id": {"/v1/webhooks/update/whe_1", `{"status":"disabled"}`, "Webhook endpoint updated", func(f *fixture) {
		f.webhooks.EXPECT().Update(gomock.Any(), keyScopeOf(), "whe_1", gomock.Any()).Return(routeEndpoint, nil)
	}},
	"DELETE /webhooks/delete/:id": {"/v1/webhooks/delete/whe_1", "", "Webhook endpoint deleted", func(f *fixture) {
		f.webhooks.EXPECT().Delete(gomock.Any(), keyScopeOf(), "whe_1").Return(nil)
	}},
	// Payment links.
	"POST /payment-links/create": {"/v1/payment-links/create", `{"name":"Curso","fixedAmount":10}`, "Payment link created", func(f *fixture) {
		f.links.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(routeLink, nil)
	}},
	"GET /payment-links/get/:id": {"/v1/payment-links/get/plink_1", "", "Payment link", func(f *fixture) {
		f.links.EXPECT().Get(gomock.Any(), gomock.Any(), "plink_1").Return(routeLink, nil)
	}},
	"GET /payment-links/list": {"/v1/payment-links/list?status=active", "", "Payment links", func(f *fixture) {
		f.links.EXPECT().List(gomock.Any(), gomock.Any(), checkout.LinkActive, "", 1, 50).Return([]service.PaymentLink{routeLink}, 1, nil)
	}},
	"PATCH /payment-links/update/:id": {"/v1/payment-links/update/plink_1", `{"description":"novo"}`, "Payment link updated", func(f *fixture) {
		f.links.EXPECT().Update(gomock.Any(), gomock.Any(), "plink_1", gomock.Any()).Return(routeLink, nil)
	}},
	"PATCH /payment-links/status/:id": {"/v1/payment-links/status/plink_1", `{"status":"INACTIVE"}`, "Payment link status updated", func(f *fixture) {
		f.links.EXPECT().SetStatus(gomock.Any(), gomock.Any(), "plink_1", checkout.LinkInactive).Return(routeLink, nil)
	}},
	"DELETE /payment-links/delete/:id": {"/v1/payment-links/delete/plink_1", "", "Payment link deleted", func(f *fixture) {
		f.links.EXPECT().Delete(gomock.Any(), gomock.Any(), "plink_1").Return(nil)
	}},
	"POST /payment-links/checkout": {"/v1/payment-links/checkout", `{"linkId":"plink_1","method":"PIX"}`, "Checkout session created", func(f *fixture) {
		f.checkouts.EXPECT().Checkout(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(service.CheckoutResult{Session: routeSession}, nil)
	}},
	"GET /payment-links/sessions/get/:sessionId": {"/v1/payment-links/sessions/get/cs_1", "", "Checkout session", func(f *fixture) {
		f.checkouts.EXPECT().Session(gomock.Any(), gomock.Any(), "cs_1").Return(routeSession, nil)
	}},
	// The sandbox's simulations.
	"POST /sandbox/payment-pix/:id/pay": {"/v1/sandbox/payment-pix/tx_1/pay", `{}`, "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().Pay(gomock.Any(), gomock.Any(), "tx_1", gomock.Any()).Return(routeSim, nil)
	}},
	"POST /sandbox/payment-pix/:id/fail": {"/v1/sandbox/payment-pix/tx_1/fail", "", "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().FailCharge(gomock.Any(), gomock.Any(), "tx_1").Return(routeSim, nil)
	}},
	"POST /sandbox/payment-pix/:id/expire": {"/v1/sandbox/payment-pix/tx_1/expire", "", "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().ExpireCharge(gomock.Any(), gomock.Any(), "tx_1").Return(routeSim, nil)
	}},
	"POST /sandbox/transfer-pix/:id/settle": {"/v1/sandbox/transfer-pix/tx_1/settle", "", "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().SettleTransfer(gomock.Any(), gomock.Any(), "tx_1").Return(routeSim, nil)
	}},
	"POST /sandbox/transfer-pix/:id/fail": {"/v1/sandbox/transfer-pix/tx_1/fail", "", "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().FailTransfer(gomock.Any(), gomock.Any(), "tx_1").Return(routeSim, nil)
	}},
	"POST /sandbox/refunds/:id/settle": {"/v1/sandbox/refunds/tx_1/settle", "", "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().SettleRefund(gomock.Any(), gomock.Any(), "tx_1").Return(routeSim, nil)
	}},
	"POST /sandbox/refunds/:id/fail": {"/v1/sandbox/refunds/tx_1/fail", "", "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().FailRefund(gomock.Any(), gomock.Any(), "tx_1").Return(routeSim, nil)
	}},
	// PIX automatic.
	"POST /pix-automatic/authorizations/create": {"/v1/pix-automatic/authorizations/create",
		`{"customerId":"cus_1","description":"Academia","frequency":"MONTHLY","fixedAmount":49.9,"startDate":"2099-01-10"}`,
		"PIX automatic authorization created", func(f *fixture) {
			f.pixauto.EXPECT().CreateAuthorization(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(pixauto.View{ID: "pa_1"}, nil)
		}},
	"GET /pix-automatic/authorizations/list": {"/v1/pix-automatic/authorizations/list?status=active", "", "PIX automatic authorizations", func(f *fixture) {
		f.pixauto.EXPECT().ListAuthorizations(gomock.Any(), gomock.Any(), "ACTIVE", 1, 50).Return([]pixauto.View{{ID: "pa_1"}}, 1, nil)
	}},
	"GET /pix-automatic/authorizations/get/:id": {"/v1/pix-automatic/authorizations/get/pa_1", "", "PIX automatic authorization", func(f *fixture) {
		f.pixauto.EXPECT().GetAuthorization(gomock.Any(), gomock.Any(), "pa_1").Return(pixauto.View{ID: "pa_1"}, nil)
	}},
	"DELETE /pix-automatic/authorizations/cancel/:id": {"/v1/pix-automatic/authorizations/cancel/pa_1", "", "PIX automatic authorization canceled", func(f *fixture) {
		f.pixauto.EXPECT().CancelAuthorization(gomock.Any(), gomock.Any(), "pa_1").Return(pixauto.View{ID: "pa_1"}, nil)
	}},
	"POST /pix-automatic/payment-instructions/create": {"/v1/pix-automatic/payment-instructions/create",
		`{"authorizationId":"pa_1","amount":49.9,"dueDate":"2099-01-10"}`, "Payment instruction scheduled", func(f *fixture) {
			f.pixauto.EXPECT().CreateInstruction(gomock.Any(), gomock.Any(), gomock.Any()).Return(pixauto.Instruction{ID: "pi_1"}, nil)
		}},
	"GET /pix-automatic/payment-instructions/list": {"/v1/pix-automatic/payment-instructions/list?authorizationId=pa_1", "", "Payment instructions", func(f *fixture) {
		f.pixauto.EXPECT().ListInstructions(gomock.Any(), gomock.Any(), "pa_1", "", 1, 50).Return(nil, 0, nil)
	}},
	"GET /pix-automatic/payment-instructions/get/:id": {"/v1/pix-automatic/payment-instructions/get/pi_1", "", "Payment instruction", func(f *fixture) {
		f.pixauto.EXPECT().GetInstruction(gomock.Any(), gomock.Any(), "pi_1").Return(pixauto.Instruction{ID: "pi_1"}, nil)
	}},
	"DELETE /pix-automatic/payment-instructions/cancel/:id": {"/v1/pix-automatic/payment-instructions/cancel/pi_1", "", "Payment instruction canceled", func(f *fixture) {
		f.pixauto.EXPECT().CancelInstruction(gomock.Any(), gomock.Any(), "pi_1").Return(pixauto.Instruction{ID: "pi_1"}, nil)
	}},
	"POST /sandbox/pix-automatic/authorizations/:id/approve": {"/v1/sandbox/pix-automatic/authorizations/pa_1/approve", "", "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().ApproveAuthorization(gomock.Any(), gomock.Any(), "pa_1").Return(service.Simulated{ID: "pa_1", Outcome: "approved"}, nil)
	}},
	"POST /sandbox/pix-automatic/authorizations/:id/reject": {"/v1/sandbox/pix-automatic/authorizations/pa_1/reject", "", "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().RejectAuthorization(gomock.Any(), gomock.Any(), "pa_1").Return(service.Simulated{ID: "pa_1", Outcome: "rejected"}, nil)
	}},
	// Mobile recharge and crypto simulations.
	"POST /sandbox/mobile-recharge/:id/complete": {"/v1/sandbox/mobile-recharge/tx_1/complete", "", "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().CompleteRecharge(gomock.Any(), gomock.Any(), "tx_1").Return(routeSim, nil)
	}},
	"POST /sandbox/payment-crypto/:id/pay": {"/v1/sandbox/payment-crypto/tx_1/pay", "", "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().PayCrypto(gomock.Any(), gomock.Any(), "tx_1").Return(routeSim, nil)
	}},
	"POST /sandbox/transfer-crypto/:id/settle": {"/v1/sandbox/transfer-crypto/tx_1/settle", "", "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().SettleCrypto(gomock.Any(), gomock.Any(), "tx_1").Return(routeSim, nil)
	}},
	"POST /sandbox/transfer-crypto/:id/fail": {"/v1/sandbox/transfer-crypto/tx_1/fail", "", "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().FailCrypto(gomock.Any(), gomock.Any(), "tx_1").Return(routeSim, nil)
	}},
	// MED disputes.
	"GET /meds/list": {"/v1/meds/list?status=open", "", "MED disputes", func(f *fixture) {
		f.meds.EXPECT().List(gomock.Any(), gomock.Any(), service.ListFilter{Page: 1, PageSize: 50, Status: med.MedOpen}).Return([]domain.Transaction{routeMED}, 1, nil)
	}},
	"GET /meds/get/:id": {"/v1/meds/get/MED2025010200001", "", "MED dispute", func(f *fixture) {
		f.meds.EXPECT().Get(gomock.Any(), gomock.Any(), "MED2025010200001").Return(routeMED, nil)
	}},
	"POST /meds/:id/evidence": {"/v1/meds/med_1/evidence", `{"description":"Venda regular, segue nota."}`, "MED evidence sent", func(f *fixture) {
		f.meds.EXPECT().Evidence(gomock.Any(), gomock.Any(), "med_1", med.NewEvidence{Description: "Venda regular, segue nota."}).Return(routeMED, nil)
	}},
	"POST /sandbox/meds": {"/v1/sandbox/meds", `{"transactionId":"tx_1","amount":10,"reason":"golpe"}`, "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().OpenMED(gomock.Any(), gomock.Any(), med.MedOpening{TransactionID: "tx_1", Amount: 1000, Reason: "golpe"}).Return(routeSim, nil)
	}},
	"POST /sandbox/meds/:id/resolve": {"/v1/sandbox/meds/med_1/resolve", `{"status":"accepted"}`, "Notification accepted", func(f *fixture) {
		f.sandbox.EXPECT().ResolveMED(gomock.Any(), gomock.Any(), "med_1", med.MedAccepted).Return(routeSim, nil)
	}},
}

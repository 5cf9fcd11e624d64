package domain

// Billing methods (the spec's `method`; `billingType` is accepted as its alias).
const (
	MethodBoleto      = "BOLETO"
	MethodCardCredit  = "CARD_CREDIT"
	MethodCardDebit   = "CARD_DEBIT"
	MethodCardVoucher = "CARD_VOUCHER"
	MethodPix         = "PIX"
)

// BillingMethods lists the methods a billing may have.
var BillingMethods = []string{MethodBoleto, MethodCardCredit, MethodCardDebit, MethodCardVoucher, MethodPix}

// BillingMethodEnum is BillingMethods as a request reads them: in any case.
var BillingMethodEnum = Folded(BillingMethods...)

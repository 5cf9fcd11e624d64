package domain

import (
	"time"

	"github.com/jangada/jangada/money"
)

// ChargePrice is what a PIX charge of amount costs under fees. Without
// coverFee the amount is the QR value and the fee comes out of it; with
// coverFee the amount is what the merchant nets and the fee is added to the
// QR. A fee that would eat the whole amount is a 400 naming amount.
func (f Fees) ChargePrice(amount money.Cents, coverFee bool) (gross, fee, net money.Cents, err error) {
	if coverFee {
		gross, fee, err = money.GrossForNet(amount, f.PixInFixed, f.PixInPercent)
		if err != nil {
			return 0, 0, 0, Invalidf("the account's fees cannot be covered: %v", err)
		}
		return gross, fee, amount, nil
	}
	fee = f.PixIn(amount)
	if fee >= amount {
		return 0, 0, 0, Invalid("amount", "must be greater than the PIX fee of %s", fee)
	}
	return amount, fee, amount - fee, nil
}

// PixOutPrice is what a PIX out of amount costs under fees: the fee, what
// leaves the merchant's balance (debit) and what reaches the recipient
// (sent). With coverFee the merchant pays the fee on top; without it the
// fee comes out of the amount, which must stay above it.
func (f Fees) PixOutPrice(amount money.Cents, coverFee bool) (fee, debit, sent money.Cents, err error) {
	fee = f.PixOut(amount)
	if coverFee {
		return fee, amount + fee, amount, nil
	}
	if amount-fee <= 0 {
		return 0, 0, 0, Invalid("amount", "must be greater than the PIX fee of %s", fee)
	}
	return fee, amount, amount - fee, nil
}

// ReviewReason is the anti-fraud rule that holds a withdrawal (a PIX out, a
// crypto withdrawal) for an operator:
// an amount at or above the account's securityReviewThreshold ("" when the
// PIX out goes ahead at once).
func (a Account) ReviewReason(amount money.Cents) string {
	if th := a.SecurityReviewThreshold; th != nil && *th > 0 && amount >= *th {
		return "amount at or above the account's security review threshold of " + th.Format()
	}
	return ""
}

// ReviewHold is the security review a withdrawal of amount starts under
// (a PIX out or a crypto withdrawal, the same rule: ReviewReason), or nil
// when it goes ahead at once.
func (a Account) ReviewHold(amount money.Cents) *SecurityReview {
	if r := a.ReviewReason(amount); r != "" {
		return &SecurityReview{Pending: true, Reason: r}
	}
	return nil
}

// BillingPrice is what a billing of amount by method costs under fees: the
// method's fee and the notification fee come out of the amount, which must
// stay above them. A PIX billing is priced as a PIX charge (its charge
// books that fee).
func (f Fees) BillingPrice(method string, amount money.Cents) (fee, notification, net money.Cents, err error) {
	switch method {
	case MethodBoleto:
		fee = money.FeeFor(amount, f.BoletoFixed, f.BoletoPercent)
	case MethodCardCredit:
		fee = money.FeeFor(amount, f.CardCreditFixed, f.CardCreditPercent)
	case MethodCardDebit:
		fee = money.FeeFor(amount, f.CardDebitFixed, f.CardDebitPercent)
	case MethodCardVoucher:
		fee = money.FeeFor(amount, f.CardVoucherFixed, f.CardVoucherPercent)
	case MethodPix:
		fee = f.PixIn(amount)
	default:
		return 0, 0, 0, Invalid("method", "is not a billing method")
	}
	notification = f.BillingNotification
	if fee+notification >= amount {
		return 0, 0, 0, Invalid("amount", "must be greater than the billing's fees of %s", fee+notification)
	}
	return fee, notification, amount - fee - notification, nil
}

// BillingCreditDays is how long a paid billing's money stays locked before
// it can be withdrawn (docs/ledger.md "Billings"): the acquirer pays a
// credit card or voucher sale in 30 days (all installments at once), a debit
// card, a boleto and a PIX the next day.
func BillingCreditDays(method string) int {
	if method == MethodCardCredit || method == MethodCardVoucher {
		return 30
	}
	return 1
}

// BillingCreditAt is when the money of a billing paid at paidAt becomes
// withdrawable (its entries' locked_until), and EstimatedCreditDate its
// date in America/Sao_Paulo.
func BillingCreditAt(method string, paidAt time.Time) time.Time {
	return paidAt.UTC().Add(time.Duration(BillingCreditDays(method)) * 24 * time.Hour)
}

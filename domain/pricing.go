package domain

import "github.com/jangada/jangada/money"

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

// ReviewReason is the anti-fraud rule that holds a PIX out for an operator:
// an amount at or above the account's securityReviewThreshold ("" when the
// PIX out goes ahead at once).
func (a Account) ReviewReason(amount money.Cents) string {
	if th := a.SecurityReviewThreshold; th != nil && *th > 0 && amount >= *th {
		return "amount at or above the account's security review threshold of " + th.Format()
	}
	return ""
}

package domain

import (
	"strconv"
	"strings"

	"github.com/jangada/jangada/money"
)

// Crypto deposits and withdrawals are money movements of the statement,
// stored in transactions (docs/architecture.md, "Where its record lives"):
// CRYPTO_IN is a deposit address waiting for the payer (PENDING), credited
// in BRL at its quote when the processor confirms it (COMPLETED) or closed
// unpaid when its quote expires (CANCELED); CRYPTO_OUT is a withdrawal
// (PENDING, PROCESSING, then COMPLETED or FAILED). Amounts are BRL; the
// crypto side is payCurrency and payAmount at the quote's rate.
const (
	TypeCryptoIn  = "CRYPTO_IN"
	TypeCryptoOut = "CRYPTO_OUT"
)

// CryptoAmount is an amount of a crypto currency in its smallest unit here
// (10^-Decimals); its JSON form is a bare number with Decimals places.
type CryptoAmount struct {
	Units    int64
	Decimals int
}

// String renders the amount with its decimals ("0.00028572").
func (a CryptoAmount) String() string {
	s := strconv.FormatInt(a.Units, 10)
	if a.Decimals == 0 {
		return s
	}
	if len(s) <= a.Decimals {
		s = strings.Repeat("0", a.Decimals-len(s)+1) + s
	}
	return s[:len(s)-a.Decimals] + "." + s[len(s)-a.Decimals:]
}

// MarshalJSON writes the amount as a number, exactly.
func (a CryptoAmount) MarshalJSON() ([]byte, error) { return []byte(a.String()), nil }

// CryptoBlock is a crypto deposit's or withdrawal's part of Details.
type CryptoBlock struct {
	PayCurrency string      `json:"payCurrency"`
	PayUnits    int64       `json:"payUnits"`
	Rate        money.Cents `json:"rate"`
	QuoteID     string      `json:"quoteId,omitempty"`
	Address     string      `json:"address"`
	ExtraID     string      `json:"extraId,omitempty"`
	TxHash      string      `json:"txHash,omitempty"`
	// QuoteExpiresAt is when a withdrawal's quote stops binding: a
	// withdrawal held for security review past it is priced again before
	// it is sent (activities.Crypto.RepriceCryptoWithdrawal).
	QuoteExpiresAt *Time `json:"quoteExpiresAt,omitempty"`
	// RepricedAt is when that second pricing replaced Rate and PayUnits
	// (at most once per withdrawal).
	RepricedAt *Time `json:"repricedAt,omitempty"`
	// LatePayment is set on a deposit whose coins were confirmed after it
	// had expired (CANCELED): it is credited then, not refused, since the
	// payer's coins did arrive (CryptoBlock.LateCredit).
	LatePayment *CryptoLatePayment `json:"latePayment,omitempty"`
}

// CryptoLatePayment is how a deposit paid after its expiry was credited:
// at Rate (the processor's BRL price of a coin when it confirmed them; the
// quote's when it named none), Credited in BRL.
type CryptoLatePayment struct {
	Rate     money.Cents `json:"rate"`
	Credited money.Cents `json:"credited"`
	At       Time        `json:"at"`
}

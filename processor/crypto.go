package processor

import (
	"time"

	"github.com/jangada/jangada/money"
)

// CryptoRate is the price of one coin of Currency in BRL (centavos per
// coin), good for quotes until ValidFor has passed.
type CryptoRate struct {
	Currency string
	Rate     money.Cents
	ValidFor time.Duration
}

// CryptoAddressRequest opens the address of the deposit DepositID.
type CryptoAddressRequest struct {
	DepositID string
	Currency  string
}

// CryptoAddress is a deposit's own address (ExtraID: the memo a payer adds
// for memo currencies, "" otherwise) and the processor's reference.
type CryptoAddress struct {
	Address     string
	ExtraID     string
	ReferenceID string
}

// CryptoOutRequest submits a withdrawal of Units (the currency's units at
// its precision) to Address.
type CryptoOutRequest struct {
	ID       string
	Currency string
	Units    int64
	Address  string
	ExtraID  string
}

// CryptoNotice is what the processor says of a crypto deposit (paid) or
// withdrawal (settled or failed), with the network's transaction hash.
type CryptoNotice struct {
	// ID names the deposit or withdrawal, set by the Inbox; its workflow
	// ignores a notice naming another one.
	ID      string    `json:"id,omitempty"`
	Outcome string    `json:"outcome"`
	TxHash  string    `json:"txHash,omitempty"`
	At      time.Time `json:"at"`
	Reason  string    `json:"reason,omitempty"`
	// Rate is the BRL price of a coin at which the processor converted a
	// deposit's coins, when it names one: it matters for coins confirmed
	// after the deposit expired (domain.CryptoBlock.LateCredit).
	Rate money.Cents `json:"rate,omitempty"`
}

// Final reports whether the notice ends the deposit or withdrawal.
func (n CryptoNotice) Final() bool {
	return n.Outcome == OutcomePaid || n.Outcome == OutcomeSettled || n.Outcome == OutcomeFailed
}

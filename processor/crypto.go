package processor

import (
	"context"
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

//go:generate go tool mockgen -destination=processormock/crypto.go -package=processormock . Crypto

// Crypto is the crypto processor (processor/crypto.go).
type Crypto interface {
	// CryptoRate is the price source: BRL per coin of a currency, and how
	// long a quote at that rate holds.
	CryptoRate(ctx context.Context, currency string) (CryptoRate, error)
	// CryptoDepositAddress opens a deposit's own address; the payment
	// arrives as a CryptoNotice.
	CryptoDepositAddress(ctx context.Context, r CryptoAddressRequest) (CryptoAddress, error)
	// SendCrypto submits a withdrawal; the outcome arrives as a CryptoNotice.
	SendCrypto(ctx context.Context, r CryptoOutRequest) (Submission, error)
}

// CryptoInbox takes a deposit's payment and a withdrawal's outcome.
type CryptoInbox interface {
	CryptoDepositNotice(ctx context.Context, depositID string, n CryptoNotice) error
	CryptoWithdrawalNotice(ctx context.Context, withdrawalID string, n CryptoNotice) error
}

// CryptoSimulator plays the payer and the chain.
type CryptoSimulator interface {
	// PayCrypto notifies that the deposit's address received its payAmount.
	PayCrypto(ctx context.Context, depositID string) error
	// SettleCrypto and FailCrypto notify a withdrawal's outcome.
	SettleCrypto(ctx context.Context, id string) error
	FailCrypto(ctx context.Context, id string) error
}

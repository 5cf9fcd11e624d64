package domain

import (
	"time"

	"github.com/jangada/jangada/money"
)

// Account statuses.
const (
	AccountActive = "ACTIVE"
)

// Features are the operator's switches on an account.
type Features struct {
	Subaccounts    bool `json:"subaccounts"`
	SubaccountPix  bool `json:"subaccountPix"`
	AutoContest    bool `json:"autoContest"`
	FiscalInvoice  bool `json:"fiscalInvoice"`
	PixAutomatic   bool `json:"pixAutomatic"`
	CreditBureau   bool `json:"creditBureau"`
	Crypto         bool `json:"crypto"`
	MobileRecharge bool `json:"mobileRecharge"`
}

// DefaultFeatures is what a new account gets: only auto-contest is on, as the spec says.
func DefaultFeatures() Features { return Features{AutoContest: true} }

// Fees is the account's PADRAO-rail pricing: a fixed part plus a percentage.
type Fees struct {
	PixInFixed    money.Cents   `json:"pixInFixed"`
	PixInPercent  money.Percent `json:"pixInPercent"`
	PixOutFixed   money.Cents   `json:"pixOutFixed"`
	PixOutPercent money.Percent `json:"pixOutPercent"`
}

// DefaultFees is the price list of a new account (documented in the README).
func DefaultFees() Fees {
	return Fees{PixInFixed: 50, PixOutFixed: 50}
}

// PixIn is the fee on a received PIX of the given gross amount.
func (f Fees) PixIn(gross money.Cents) money.Cents {
	return money.FeeFor(gross, f.PixInFixed, f.PixInPercent)
}

// PixOut is the fee on a sent PIX of the given amount.
func (f Fees) PixOut(amount money.Cents) money.Cents {
	return money.FeeFor(amount, f.PixOutFixed, f.PixOutPercent)
}

// Account is a merchant account.
type Account struct {
	ID                      string       `db:"id" json:"id"`
	Name                    string       `db:"name" json:"name"`
	Email                   string       `db:"email" json:"email"`
	Document                string       `db:"document" json:"document"`
	Status                  string       `db:"status" json:"status"`
	Verified                bool         `db:"verified" json:"verified"`
	Features                Features     `db:"-" json:"features"`
	Fees                    Fees         `db:"-" json:"fees"`
	SecurityReviewThreshold *money.Cents `db:"security_review_threshold" json:"securityReviewThreshold"`
	// PixKey is the random key the sandbox processor puts in the account's BR Codes.
	PixKey    string `db:"pix_key" json:"-"`
	CreatedAt Time   `db:"created_at" json:"createdAt"`
}

// ReceivedLock is how long received PIX stays locked before it can be
// withdrawn (docs/ledger.md).
const ReceivedLock = 24 * time.Hour

// AvailableLedger is the ledger account holding the merchant's balance.
func AvailableLedger(accountID string) string { return accountID + ":available" }

// PendingLedger is the ledger account holding money reserved for outgoing payments.
func PendingLedger(accountID string) string { return accountID + ":pending" }

// Platform ledger accounts.
const (
	LedgerPixClearing = "platform:pix_clearing"
	LedgerFees        = "platform:fees"
	LedgerAdjustments = "platform:adjustments"
	LedgerRefundCosts = "platform:refund_costs"
)

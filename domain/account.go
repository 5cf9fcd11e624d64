package domain

import (
	"reflect"
	"slices"
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

// Feature names, as the admin API spells them.
const (
	FeatureSubaccounts    = "subaccounts"
	FeatureSubaccountPix  = "subaccountPix"
	FeatureAutoContest    = "autoContest"
	FeatureFiscalInvoice  = "fiscalInvoice"
	FeaturePixAutomatic   = "pixAutomatic"
	FeatureCreditBureau   = "creditBureau"
	FeatureCrypto         = "crypto"
	FeatureMobileRecharge = "mobileRecharge"
	// FeatureMED names the MED routes' gate. The spec has no switch of its
	// own for disputes: an account can always see and answer the MEDs opened
	// against it, so the gate is always on (Enabled answers true).
	FeatureMED = "med"
)

// featureFields maps each feature's name, its JSON name, to its switch in
// Features, read once from the struct: a product's feature is its field
// and its name, nothing else (features_test.go holds every switch to its
// name).
var featureFields = func() map[string]int {
	t := reflect.TypeFor[Features]()
	m := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		m[t.Field(i).Tag.Get("json")] = i
	}
	return m
}()

// featureRules are the features that read more than their own switch.
var featureRules = map[string]func(Features) bool{
	FeatureSubaccountPix: func(f Features) bool { return f.Subaccounts && f.SubaccountPix },
	FeatureMED:           func(Features) bool { return true },
}

// Enabled reports whether the named feature is on (unknown names are off).
func (f Features) Enabled(name string) bool {
	if rule, ok := featureRules[name]; ok {
		return rule(f)
	}
	i, ok := featureFields[name]
	return ok && reflect.ValueOf(f).Field(i).Bool()
}

// FeatureNames lists the features the table knows, for its tests and the
// admin API's documentation.
func FeatureNames() []string {
	names := make([]string, 0, len(featureFields)+1)
	for n := range featureFields {
		names = append(names, n)
	}
	names = append(names, FeatureMED)
	slices.Sort(names)
	return names
}

// Require refuses a use case of a product the account does not have: the
// route table refuses it first (Route.Feature); the use case checks again
// so that no other caller reaches the product.
func (a Account) Require(feature string) error {
	if !a.Features.Enabled(feature) {
		return Forbidden("the feature %s is not enabled for this account", feature)
	}
	return nil
}

// DefaultFeatures is what a new account gets: only auto-contest is on, as the spec says.
func DefaultFeatures() Features { return Features{AutoContest: true} }

// Fees is the account's PADRAO-rail pricing: a fixed part plus a percentage.
type Fees struct {
	PixInFixed    money.Cents   `json:"pixInFixed"`
	PixInPercent  money.Percent `json:"pixInPercent"`
	PixOutFixed   money.Cents   `json:"pixOutFixed"`
	PixOutPercent money.Percent `json:"pixOutPercent"`

	// Billings (docs/ledger.md "Billings"): a fee per method, fixed plus
	// percent of the billing's amount (a PIX billing is priced as a PIX
	// charge, PixIn), and a fixed notification fee per paid billing.
	BoletoFixed         money.Cents   `json:"boletoFixed"`
	BoletoPercent       money.Percent `json:"boletoPercent"`
	CardCreditFixed     money.Cents   `json:"cardCreditFixed"`
	CardCreditPercent   money.Percent `json:"cardCreditPercent"`
	CardDebitFixed      money.Cents   `json:"cardDebitFixed"`
	CardDebitPercent    money.Percent `json:"cardDebitPercent"`
	CardVoucherFixed    money.Cents   `json:"cardVoucherFixed"`
	CardVoucherPercent  money.Percent `json:"cardVoucherPercent"`
	BillingNotification money.Cents   `json:"billingNotificationFixed"`
}

// DefaultFees is the price list of a new account (documented in the README).
func DefaultFees() Fees {
	return Fees{PixInFixed: 50, PixOutFixed: 50,
		BoletoFixed: 199, CardCreditFixed: 49, CardCreditPercent: 299, CardDebitFixed: 35, CardDebitPercent: 189,
		CardVoucherFixed: 50, CardVoucherPercent: 350}
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

// AccountRequest is the body of POST /admin/v1/accounts.
type AccountRequest struct {
	Name     *string `json:"name" jsonschema:"required,minLength=1,maxLength=120"`
	Email    *string `json:"email" jsonschema:"required,format=email"`
	Document *string `json:"document" jsonschema:"required,description=CPF or CNPJ"`
}

// NewAccount is a validated account request.
type NewAccount struct {
	Name, Email, Document string
}

// Validate checks the request against the rules of an account.
func (b AccountRequest) Validate() (NewAccount, error) {
	var n NewAccount
	var err error
	if n.Name, err = Text("name", b.Name, 1, 120, true); err != nil {
		return n, err
	}
	if n.Email, err = Email("email", b.Email); err != nil {
		return n, err
	}
	n.Document, err = TaxID("document", b.Document)
	return n, err
}

// AdjustmentRequest is the body of POST /admin/v1/accounts/{id}/adjustments.
type AdjustmentRequest struct {
	Amount      *money.Cents `json:"amount" jsonschema:"required,description=BRL; negative takes money out"`
	Description *string      `json:"description" jsonschema:"required,minLength=1,maxLength=180"`
}

// NewAdjustment is a validated adjustment: a non-zero amount, either sign.
type NewAdjustment struct {
	Amount      money.Cents
	Description string
}

// Validate checks the request against the rules of an adjustment.
func (b AdjustmentRequest) Validate() (NewAdjustment, error) {
	var n NewAdjustment
	if b.Amount == nil || *b.Amount == 0 {
		return n, Invalid("amount", "is required and must not be zero")
	}
	n.Amount = *b.Amount
	var err error
	n.Description, err = Text("description", b.Description, 1, 180, true)
	return n, err
}

// Validate checks fees: non-negative, percentages below 100.
func (f Fees) Validate() error {
	if f.PixInFixed < 0 || f.PixOutFixed < 0 || f.PixInPercent < 0 || f.PixOutPercent < 0 ||
		f.PixInPercent >= money.OneHundredPercent || f.PixOutPercent >= money.OneHundredPercent {
		return Invalid("fees", "must be non-negative, with percentages below 100")
	}
	// Billing fees (a block of their own).
	for _, c := range []money.Cents{f.BoletoFixed, f.CardCreditFixed, f.CardDebitFixed, f.CardVoucherFixed, f.BillingNotification} {
		if c < 0 {
			return Invalid("fees", "must be non-negative, with percentages below 100")
		}
	}
	for _, p := range []money.Percent{f.BoletoPercent, f.CardCreditPercent, f.CardDebitPercent, f.CardVoucherPercent} {
		if p < 0 || p >= money.OneHundredPercent {
			return Invalid("fees", "must be non-negative, with percentages below 100")
		}
	}
	return nil
}

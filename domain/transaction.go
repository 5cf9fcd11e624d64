package domain

import (
	"encoding/json"

	"github.com/jangada/jangada/money"
)

// Transaction types.
const (
	TypePixIn       = "PIX_IN"
	TypePixOut      = "PIX_OUT"
	TypeSplitIn     = "SPLIT_IN"
	TypeAdjustment  = "ADJUSTMENT"
	TypeInternalOut = "INTERNAL_TRANSFER_OUT"
	TypeInternalIn  = "INTERNAL_TRANSFER_IN"
	// TypeRefund is the statement line of a refund's debit; the refund
	// itself is shown as the original deposit with its refund block.
	TypeRefund = "PIX_REFUND"
)

// TransactionTypes are the types this package names (the sub-account
// moves and the billings' lines are their packages').
var TransactionTypes = []string{TypePixIn, TypePixOut, TypeSplitIn, TypeAdjustment, TypeInternalOut, TypeInternalIn,
	TypeRefund, TypePixAutomatic, TypeMobileRecharge, TypeCryptoIn, TypeCryptoOut, TypeMED}

// Transaction statuses.
const (
	StatusPending    = "PENDING"
	StatusProcessing = "PROCESSING"
	StatusCompleted  = "COMPLETED"
	StatusFailed     = "FAILED"
	StatusCanceled   = "CANCELED"
	StatusReversed   = "REVERSED"
)

// Statuses lists the statuses a list filter accepts.
var Statuses = []string{StatusPending, StatusProcessing, StatusCompleted, StatusFailed, StatusCanceled, StatusReversed}

// Party is a payer or a recipient.
type Party struct {
	Name     string `json:"name,omitempty"`
	Document string `json:"document,omitempty"`
	Bank     string `json:"bank,omitempty"`
	PixKey   string `json:"pixKey,omitempty"`
}

// Split is the share of a charge's net paid to a partner account.
type Split struct {
	// AccountID is the partner's account: internal, never serialised.
	AccountID string        `json:"accountId"`
	Email     string        `json:"email"`
	Percent   money.Percent `json:"percent"`
	Amount    money.Cents   `json:"amount"`
}

// Details are the type-specific extras of a transaction, stored as JSON.
type Details struct {
	Split           *Split `json:"split,omitempty"`
	FromChargeID    string `json:"fromChargeId,omitempty"`
	CoverFee        bool   `json:"coverFee,omitempty"`
	FiscalInvoice   bool   `json:"emitFiscalInvoice,omitempty"`
	RequestedAmount int64  `json:"requestedAmount,omitempty"`
	// Owner is the product resource a charge was made for (internal).
	Owner *ChargeOwner `json:"owner,omitempty"`
	// LatePayment: a charge whose paid notice arrived after it expired
	// (CANCELED), settled then all the same (activities.Charges.SettleCharge).
	LatePayment bool `json:"latePayment,omitempty"`

	// PIX out.
	PixKey         string          `json:"pixKey,omitempty"`
	PixKeyType     string          `json:"pixKeyType,omitempty"`
	Debit          money.Cents     `json:"debit,omitempty"`
	SecurityReview *SecurityReview `json:"securityReview,omitempty"`

	// Refunds: the block lives on the deposit; DepositID on the statement line.
	Refund    *RefundBlock `json:"refund,omitempty"`
	DepositID string       `json:"depositId,omitempty"`

	// Internal transfers.
	PairID           string `json:"pairId,omitempty"`
	RecipientEmail   string `json:"recipientEmail,omitempty"`
	RecipientName    string `json:"recipientName,omitempty"`
	CounterpartyName string `json:"counterpartyName,omitempty"`
	// CounterpartyID is the other account of an internal transfer: internal.
	CounterpartyID string `json:"counterpartyId,omitempty"`

	// Sub-account transfers: the destination (the source is SubaccountID).
	ToSubaccountID string `json:"toSubaccountId,omitempty"`

	// PIX automatic: a payment instruction's authorization, cycle and due date.
	PixAutomatic *PixAutomaticDetails `json:"pixAutomatic,omitempty"`
	// Mobile recharge: the number and its operator.
	Recharge *RechargeBlock `json:"recharge,omitempty"`
	// Crypto deposits and withdrawals: currency, amount, rate, address.
	Crypto *CryptoBlock `json:"crypto,omitempty"`
	// MED disputes (domain/meds.go).
	Med *MedBlock `json:"med,omitempty"`
}

// SecurityReview is the anti-fraud hold of a withdrawal (PIX out or
// crypto): Account.ReviewHold.
type SecurityReview struct {
	Pending   bool   `json:"pending"`
	Reason    string `json:"reason,omitempty"`
	Decision  string `json:"decision,omitempty"`
	DecidedAt *Time  `json:"decidedAt,omitempty"`
}

// RefundBlock is the refund of a deposit, as the spec shows it.
type RefundBlock struct {
	Status      string      `json:"status"`
	RefundID    string      `json:"refundId,omitempty"`
	RequestedAt Time        `json:"requestedAt"`
	CompletedAt *Time       `json:"completedAt,omitempty"`
	DebitNet    money.Cents `json:"debitNet"`
	DepositNet  money.Cents `json:"depositNet"`
	TransferFee money.Cents `json:"transferFee"`
	Nature      string      `json:"nature"`
	Description string      `json:"description,omitempty"`
	// StatementID is the PIX_REFUND statement line: internal.
	StatementID string `json:"statementId"`
	// The split the partner received is taken back with the refund (from
	// its locked money first, as the merchant's own share): SplitAmount from
	// SplitAccountID, shown on the partner's PIX_REFUND line SplitStatementID.
	SplitAccountID   string      `json:"splitAccountId,omitempty"`
	SplitAmount      money.Cents `json:"splitAmount,omitempty"`
	SplitStatementID string      `json:"splitStatementId,omitempty"`
	// RequestID names the request that asked for the refund (derived from
	// its Idempotency-Key; internal): that request retried answers with
	// this refund instead of "already has a refund".
	RequestID string `json:"requestId,omitempty"`
}

// SameRequest reports whether a refund asked for with the caller's
// refundId and the request id derived from its Idempotency-Key ("" when
// absent) is this one asked again.
func (r RefundBlock) SameRequest(refundID, requestID string) bool {
	return (refundID != "" && r.RefundID == refundID) || (requestID != "" && r.RequestID == requestID)
}

// Lines are the statement lines that move with the refund: the merchant's,
// and the partner's when a split is taken back.
func (r RefundBlock) Lines() []string {
	if r.SplitStatementID == "" {
		return []string{r.StatementID}
	}
	return []string{r.StatementID, r.SplitStatementID}
}

// Transaction is one merchant-visible record (charge, transfer, adjustment…)
// as stored. Its JSON form is never sent out: Public() is.
type Transaction struct {
	ID                string         `db:"id"`
	AccountID         string         `db:"account_id"`
	APIKeyID          *string        `db:"api_key_id"`
	Type              string         `db:"type"`
	Status            string         `db:"status"`
	Amount            money.Cents    `db:"amount"`
	FeeAmount         money.Cents    `db:"fee_amount"`
	NetAmount         money.Cents    `db:"net_amount"`
	Description       string         `db:"description"`
	ExternalReference *string        `db:"external_reference"`
	ReferenceID       *string        `db:"reference_id"`
	EndToEndID        *string        `db:"end_to_end_id"`
	CopyPaste         *string        `db:"copy_paste"`
	SubaccountID      *string        `db:"subaccount_id"`
	Payer             JSONB[Party]   `db:"payer"`
	Recipient         JSONB[Party]   `db:"recipient"`
	Details           JSONB[Details] `db:"details"`
	ExpiresAt         *Time          `db:"expires_at"`
	CompletedAt       *Time          `db:"completed_at"`
	CreatedAt         Time           `db:"created_at"`
	UpdatedAt         Time           `db:"updated_at"`
}

// PublicSplit is the split block merchants see.
type PublicSplit struct {
	SplitUser string        `json:"splitUser"`
	SplitTax  money.Percent `json:"splitTax"`
	Amount    money.Cents   `json:"amount"`
}

// PublicTransaction is the lean record: what API responses, webhooks and the
// WebSocket gateway send. Internal fields (accountId, provider, metadata,
// direction, updatedAt) have no place in it by construction.
type PublicTransaction struct {
	ID                string        `json:"id"`
	Type              string        `json:"type"`
	Status            string        `json:"status"`
	Amount            money.Cents   `json:"amount"`
	FeeAmount         money.Cents   `json:"feeAmount"`
	NetAmount         money.Cents   `json:"netAmount"`
	Currency          string        `json:"currency"`
	Description       string        `json:"description"`
	ExternalReference *string       `json:"externalReference,omitempty"`
	ReferenceID       *string       `json:"referenceId,omitempty"`
	EndToEndID        *string       `json:"endToEndId,omitempty"`
	Payer             *Party        `json:"payer,omitempty"`
	Recipient         *Party        `json:"recipient,omitempty"`
	CopyPaste         *string       `json:"copyPaste,omitempty"`
	QRCodeURL         *string       `json:"qrcodeUrl,omitempty"`
	ExpiresAt         *Time         `json:"expiresAt,omitempty"`
	SubaccountID      *string       `json:"subaccountId,omitempty"`
	ToSubaccountID    string        `json:"toSubaccountId,omitempty"`
	Split             *PublicSplit  `json:"split,omitempty"`
	PixKey            string        `json:"pixKey,omitempty"`
	PixKeyType        string        `json:"pixKeyType,omitempty"`
	SecurityReview    *PublicReview `json:"securityReview,omitempty"`
	Refund            *PublicRefund `json:"refund,omitempty"`
	TransferKind      string        `json:"transferKind,omitempty"`
	RecipientEmail    string        `json:"recipientEmail,omitempty"`
	RecipientName     string        `json:"recipientName,omitempty"`
	CounterpartyName  string        `json:"counterpartyName,omitempty"`
	PairID            string        `json:"pairId,omitempty"`
	CompletedAt       *Time         `json:"completedAt,omitempty"`
	CreatedAt         Time          `json:"createdAt"`

	// Mobile recharge.
	Phone          string `json:"phone,omitempty"`
	Operator       string `json:"operator,omitempty"`
	CanBeCancelled *bool  `json:"canBeCancelled,omitempty"`
	// Crypto deposits and withdrawals.
	PayCurrency string        `json:"payCurrency,omitempty"`
	PayAmount   *CryptoAmount `json:"payAmount,omitempty"`
	Rate        *money.Cents  `json:"rate,omitempty"`
	QuoteID     string        `json:"quoteId,omitempty"`
	Address     string        `json:"address,omitempty"`
	ExtraID     string        `json:"extraId,omitempty"`
	TxHash      string        `json:"txHash,omitempty"`
	// LatePayment: a deposit whose coins were confirmed after it expired,
	// credited then at Credited (the lesser of its quote and their value).
	LatePayment *CryptoLatePayment `json:"latePayment,omitempty"`
	// MED disputes: the protocol, the processor's infraction id and the
	// dispute's block (domain/meds.go).
	Protocol     string     `json:"protocol,omitempty"`
	InfractionID *string    `json:"infractionId,omitempty"`
	Med          *PublicMED `json:"med,omitempty"`
}

// PublicReview is the securityReview block merchants see.
type PublicReview struct {
	Pending  bool   `json:"pending"`
	Decision string `json:"decision,omitempty"`
}

// PublicRefund is the refund block merchants see.
type PublicRefund struct {
	Status      string      `json:"status"`
	RefundID    string      `json:"refundId,omitempty"`
	RequestedAt Time        `json:"requestedAt"`
	CompletedAt *Time       `json:"completedAt,omitempty"`
	DebitNet    money.Cents `json:"debitNet"`
	DepositNet  money.Cents `json:"depositNet"`
	TransferFee money.Cents `json:"transferFee"`
	Nature      string      `json:"nature"`
	Description string      `json:"description,omitempty"`
	// SplitReturned is what the split partner gives back.
	SplitReturned money.Cents `json:"splitReturned,omitempty"`
}

// QRCodeURL is where a charge's QR image is served publicly.
func QRCodeURL(publicURL, id string) string { return publicURL + "/qr/" + id + ".png" }

// Public builds the lean record. QR fields appear only while a charge is
// pending: a paid or expired QR must not be shown for payment again.
func (t Transaction) Public(publicURL string) PublicTransaction {
	p := PublicTransaction{
		ID: t.ID, Type: t.Type, Status: t.Status, Amount: t.Amount, FeeAmount: t.FeeAmount,
		NetAmount: t.NetAmount, Currency: "BRL", Description: t.Description,
		ExternalReference: t.ExternalReference, ReferenceID: t.ReferenceID, EndToEndID: t.EndToEndID,
		Payer: t.Payer.Ptr(), Recipient: t.Recipient.Ptr(), SubaccountID: t.SubaccountID,
		CompletedAt: t.CompletedAt, CreatedAt: t.CreatedAt,
	}
	if (t.Type == TypePixIn || t.Type == TypeCryptoIn) && (t.Status == StatusPending || t.Status == StatusCanceled) {
		p.ExpiresAt = t.ExpiresAt
	}
	if t.Type == TypePixIn && t.Status == StatusPending && t.CopyPaste != nil {
		p.CopyPaste = t.CopyPaste
		u := QRCodeURL(publicURL, t.ID)
		p.QRCodeURL = &u
	}
	d := t.Details.V
	if s := d.Split; s != nil {
		p.Split = &PublicSplit{SplitUser: s.Email, SplitTax: s.Percent, Amount: s.Amount}
	}
	p.PixKey, p.PixKeyType, p.ToSubaccountID = d.PixKey, d.PixKeyType, d.ToSubaccountID
	if r := d.SecurityReview; r != nil {
		p.SecurityReview = &PublicReview{Pending: r.Pending, Decision: r.Decision}
	}
	if r := d.Refund; r != nil {
		p.Refund = &PublicRefund{Status: r.Status, RefundID: r.RefundID, RequestedAt: r.RequestedAt, CompletedAt: r.CompletedAt,
			DebitNet: r.DebitNet, DepositNet: r.DepositNet, TransferFee: r.TransferFee, Nature: r.Nature, Description: r.Description,
			SplitReturned: r.SplitAmount}
	}
	if v := views[t.Type]; v != nil {
		v(t, &p)
	}
	return p
}

// Wallet is the owner of the record's money in the ledger: its sub-account
// when it was created with one (a charge credits it, a PIX out and a refund
// debit it), else the account itself.
func (t Transaction) Wallet() string {
	if t.SubaccountID != nil && *t.SubaccountID != "" {
		return *t.SubaccountID
	}
	return t.AccountID
}

// Referenced is the record as a workflow may carry it: references, never
// a person's data. The payer, the recipient (a name, a document, a bank,
// a PIX key), the PIX key a transfer is sent to, the phone a recharge
// tops up and the description (a merchant's free text, which may name
// anyone: a recharge's names its phone) stay in PostgreSQL, where the
// steps that need them read them.
func (t Transaction) Referenced() Transaction {
	t.Payer, t.Recipient = JSONB[Party]{}, JSONB[Party]{}
	t.Description = ""
	t.Details.V.PixKey = ""
	if r := t.Details.V.Recharge; r != nil {
		c := *r // the caller's record keeps its phone
		c.Phone = ""
		t.Details.V.Recharge = &c
	}
	return t
}

// EventData is the record as events carry it (webhook and WebSocket data):
// the lean record without QR fields, which no event carries (the spec's
// 2026-08-15 change: payment.created has no QR data).
func (t Transaction) EventData(publicURL string) PublicTransaction {
	p := t.Public(publicURL)
	p.CopyPaste, p.QRCodeURL = nil, nil
	return p
}

// Lean is the polling payload of the status routes.
type Lean struct {
	ID          string      `json:"id"`
	Status      string      `json:"status"`
	Amount      money.Cents `json:"amount"`
	EndToEndID  *string     `json:"endToEndId,omitempty"`
	ExpiresAt   *Time       `json:"expiresAt,omitempty"`
	CompletedAt *Time       `json:"completedAt,omitempty"`
}

// Lean builds the status payload.
func (t Transaction) Lean() Lean {
	l := Lean{ID: t.ID, Status: t.Status, Amount: t.Amount, EndToEndID: t.EndToEndID, CompletedAt: t.CompletedAt}
	if t.Status == StatusPending {
		l.ExpiresAt = t.ExpiresAt
	}
	return l
}

// JSONB stores a value as a PostgreSQL jsonb column; Valid is false for SQL NULL.
type JSONB[T any] struct {
	V     T
	Valid bool
}

// SomeJSON wraps a present value.
func SomeJSON[T any](v T) JSONB[T] { return JSONB[T]{V: v, Valid: true} }

// Ptr returns the value or nil when absent.
func (j JSONB[T]) Ptr() *T {
	if !j.Valid {
		return nil
	}
	v := j.V
	return &v
}

// MarshalJSON lets a transaction round-trip through workflow payloads.
func (j JSONB[T]) MarshalJSON() ([]byte, error) {
	if !j.Valid {
		return []byte("null"), nil
	}
	return json.Marshal(j.V)
}

// UnmarshalJSON implements json.Unmarshaler.
func (j *JSONB[T]) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*j = JSONB[T]{}
		return nil
	}
	j.Valid = true
	return json.Unmarshal(b, &j.V)
}

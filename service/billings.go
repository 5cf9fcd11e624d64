package service

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/card"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/qr"
	"github.com/jangada/jangada/workflows"
)

// LaunchBilling is the billing's workflow-start kind (workflow_launches.kind).
const LaunchBilling = "billing"

// The sweeper rebuilds a billing's start from the stored billing.
var _ = registerLaunch(LaunchBilling, func(ctx context.Context, q sqlx.QueryerContext, id string) (launch, error) {
	b, err := db.BillingByID(ctx, q, id)
	return billingLaunch(b), err
})

// billingLaunch is a billing's workflow start, for its create and the sweeper.
func billingLaunch(b billing.Billing) launch {
	return launch{LaunchBilling, b.ID, workflows.BillingStart(b), workflows.BillingWorkflow, workflows.BillingInput{Billing: b.Referenced()}}
}

// BillingFilter is a billing list's query.
type BillingFilter = db.BillingFilter

// Billings creates, reads, refunds and cancels billings. A PIX billing's
// QR is an ordinary charge made through Charges with the billing as its
// owner (activities.OwnerBilling): paying the charge pays the billing.
type Billings struct {
	DB        *sqlx.DB
	Processor processor.Billings
	Charges   *Charges
	// Starts starts each billing's workflow beside the answer.
	Starts    *LaunchPool
	Temporal  Temporal
	TaskQueue string
	PublicURL string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// CreatedBilling is a billing with its PIX QR image when it has one.
type CreatedBilling struct {
	Billing  billing.Billing
	PixImage string
	// Merchant is the account a payer's page names (Page only): the
	// beneficiary of a boleto, the issuer of an invoice.
	Merchant PageMerchant
}

// PageMerchant is the merchant as a payer's page shows it.
type PageMerchant struct{ Name, Document string }

func (s *Billings) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Create makes a billing: it finds an earlier attempt's billing first (by
// the id derived from the Idempotency-Key, or a subscription's cycle key),
// then prices it, resolves its customer in the store, tokenizes a card
// (before anything is written: no number or CVV goes further), registers a
// boleto or makes a PIX billing's charge, commits the row and the intent to
// start its workflow, and answers (the workflow starts beside the answer).
func (s *Billings) Create(ctx context.Context, acct domain.Account, key domain.APIKey, in billing.NewBilling) (CreatedBilling, error) {
	id := newID("bil_", acct.ID, "billing", in.IdempotencyKey)
	if in.IdempotencyKey != "" {
		if b, err := db.GetBilling(ctx, s.DB, acct.ID, id); err == nil {
			return s.view(b), ownsKey(ctx, b.CreatedAt.Time)
		} else if !errors.Is(err, domain.ErrNotFound) {
			return CreatedBilling{}, err
		}
	}
	fee, notification, net, err := acct.Fees.BillingPrice(in.Method, in.Amount)
	if err != nil {
		return CreatedBilling{}, err
	}
	cust, err := s.customer(ctx, acct, in.Customer)
	if err != nil {
		return CreatedBilling{}, err
	}
	now := s.now().UTC()
	b := billing.Billing{
		ID: id, AccountID: acct.ID, APIKeyID: keyID(key), Method: in.Method, Status: billing.BillingPending,
		Amount: in.Amount, FeeAmount: fee, NotificationFee: notification, NetAmount: net, InstallmentCount: in.InstallmentCount,
		Description: in.Description, DueDate: in.DueDate, ExternalReference: in.ExternalReference,
		CustomerID: &cust.ID, Customer: domain.SomeJSON(cust), PageToken: pageToken(), CreatedAt: domain.NewTime(now),
	}
	if in.SubscriptionID != "" {
		b.SubscriptionID = &in.SubscriptionID
	}
	d := billing.BillingDetails{}
	switch in.Method {
	case domain.MethodCardCredit, domain.MethodCardVoucher:
		tok, err := s.cardToken(ctx, acct, in, cust.ID, id)
		if err != nil {
			return CreatedBilling{}, err
		}
		d.CardToken, d.CardBrand, d.CardLast4 = tok.ID, tok.Brand, tok.Last4
	case domain.MethodBoleto:
		slip, err := s.Processor.RegisterBoleto(ctx, processor.BoletoRequest{ID: id, Amount: in.Amount, DueDate: in.DueDate,
			PayerName: cust.Name, PayerTaxID: cust.TaxID})
		if err != nil {
			return CreatedBilling{}, fmt.Errorf("processor: %w", err)
		}
		d.Barcode, d.DigitableLine, b.ExternalID = slip.Barcode, slip.DigitableLine, &slip.ReferenceID
	case domain.MethodPix:
		// The row commits with its charge, in its one statement (Charges.CreateWith).
		pix := func(c domain.Transaction) {
			d.PixCopyPaste, b.ChargeID, b.ExternalID = *c.CopyPaste, &c.ID, c.ReferenceID
			b.Details = domain.SomeJSON(d)
		}
		charge, err := s.pixCharge(ctx, acct, key, b, in.IdempotencyKey == "", now, func(c domain.Transaction) db.OwnerRow {
			pix(c)
			return db.BillingRow(b)
		})
		if err != nil {
			return CreatedBilling{}, err
		}
		if !charge.OwnerRowWritten {
			// The charge of an earlier attempt (stored alone by a create of
			// before CreateWith), or a concurrent attempt's billing.
			pix(charge.Charge)
			if _, err := s.insert(ctx, b, false); err != nil {
				return CreatedBilling{}, err
			}
			return s.storedBilling(ctx, id)
		}
		// A PIX billing's clock is its charge's workflow: it has none of its own.
		return CreatedBilling{Billing: b, PixImage: charge.QRCodeBase64}, nil
	}
	b.Details = domain.SomeJSON(d)

	l := billingLaunch(b)
	fresh, err := s.insert(ctx, b, true)
	if err != nil {
		return CreatedBilling{}, err
	}
	if !fresh {
		return s.storedBilling(ctx, id)
	}
	s.Starts.Go(ctx, l)
	return s.view(b), nil
}

// insert commits the billing's row, with the intent to start its workflow
// when it has one (one statement), and reports whether it is new.
func (s *Billings) insert(ctx context.Context, b billing.Billing, withWorkflow bool) (fresh bool, err error) {
	var intent *db.Intent
	if withWorkflow {
		intent = billingLaunch(b).intent()
	}
	return activities.InsertBilling(ctx, s.DB, b, intent)
}

// storedBilling answers a create whose billing a concurrent attempt stored.
func (s *Billings) storedBilling(ctx context.Context, id string) (CreatedBilling, error) {
	stored, err := db.BillingByID(ctx, s.DB, id)
	if err != nil {
		return CreatedBilling{}, err
	}
	return s.view(stored), nil
}

// pixCharge makes the PIX billing's charge through the charge use case,
// owned by the billing, payable until the end of its due date (its expiry
// makes the billing OVERDUE). Its id derives from the billing's, so a
// retried create finds it; fresh says the billing's id is new (no
// Idempotency-Key), so there is no earlier charge to look for.
func (s *Billings) pixCharge(ctx context.Context, acct domain.Account, key domain.APIKey, b billing.Billing, fresh bool, now time.Time, makeRow OwnerRowOf) (CreatedCharge, error) {
	desc := b.Description
	if len([]rune(desc)) < 3 {
		desc = "Billing " + b.ID
	}
	return s.Charges.CreateWith(ctx, acct, key, domain.NewCharge{
		IdempotencyKey: "billing:" + b.ID, Amount: b.Amount, Description: desc,
		ExpiresIn: billing.DueEnd(b.DueDate).Sub(now),
		Payer:     &domain.Party{Name: b.Customer.V.Name, Document: b.Customer.V.TaxID},
		Owner:     &domain.ChargeOwner{Kind: activities.OwnerBilling, ID: b.ID}, OwnerIsNew: fresh,
	}, makeRow)
}

// customer is the customer a billing is made out to, linked to the store:
// the one sent is the one billed. With only an id, the store's customer as
// it is now (its name and taxId); with a name and a taxId, that name and
// taxId, linked to the store customer the id names or, without an id, to
// the account's store customer with that taxId (made when there is none;
// an existing one is never changed).
func (s *Billings) customer(ctx context.Context, acct domain.Account, c billing.BillingCustomer) (billing.BillingCustomer, error) {
	if c.ID != "" {
		got, err := db.GetCustomer(ctx, s.DB, acct.ID, c.ID)
		if errors.Is(err, domain.ErrNotFound) {
			return c, domain.Invalid("customer.id", "is not a customer of this account")
		}
		if err != nil {
			return c, err
		}
		out := billing.BillingCustomer{ID: got.ID, Name: got.Name, TaxID: got.Document, Email: c.Email, Phone: c.Phone}
		if c.Name != "" {
			out.Name, out.TaxID = c.Name, c.TaxID
		}
		return out, nil
	}
	got, err := db.FindOrCreateCustomer(ctx, s.DB, store.Customer{AccountID: acct.ID, Name: c.Name, Document: c.TaxID, Email: c.Email, Phone: c.Phone})
	if err != nil {
		return c, err
	}
	return billing.BillingCustomer{ID: got.ID, Name: c.Name, TaxID: c.TaxID, Email: c.Email, Phone: c.Phone}, nil
}

// cardToken is the billing's stored card token: the account's token it
// names, or a new one for the card it carries (tokenized here, before
// anything is written; the number and CVV go no further).
func (s *Billings) cardToken(ctx context.Context, acct domain.Account, in billing.NewBilling, customerID, billingID string) (db.CardTokenRow, error) {
	if in.Card == nil {
		tok, err := db.GetCardToken(ctx, s.DB, acct.ID, in.CardToken)
		if errors.Is(err, domain.ErrNotFound) {
			return tok, domain.Invalid("cardToken", "is not a card token of this account")
		}
		if err != nil {
			return tok, err
		}
		if card.Expired(tok.ExpiryMonth, tok.ExpiryYear, s.now().In(domain.SaoPaulo)) {
			return tok, domain.Invalid("cardToken", "names a card that has expired")
		}
		return tok, nil
	}
	return s.tokenize(ctx, acct, billing.NewCardToken{Card: *in.Card, HolderInfo: in.HolderInfo, RemoteIP: in.RemoteIP},
		customerID, domain.DerivedID("ctk_", "billing-card:"+billingID))
}

// tokenize asks the processor's vault for a token of the card and stores
// it (id tokenID) with what may be shown of the card.
func (s *Billings) tokenize(ctx context.Context, acct domain.Account, in billing.NewCardToken, customerID, tokenID string) (db.CardTokenRow, error) {
	vault, err := s.Processor.TokenizeCard(ctx, processor.CardTokenRequest{ID: tokenID, Card: in.Card, HolderInfo: in.HolderInfo, RemoteIP: in.RemoteIP})
	if err != nil {
		return db.CardTokenRow{}, fmt.Errorf("processor: tokenize card: %w", err)
	}
	row := db.CardTokenRow{ID: tokenID, AccountID: acct.ID, ProcessorToken: vault.Token, Brand: in.Card.Brand, Last4: in.Card.Last4,
		ExpiryMonth: in.Card.ExpiryMonth, ExpiryYear: in.Card.ExpiryYear}
	if customerID != "" {
		row.CustomerID = &customerID
	}
	stored, err := db.InsertCardToken(ctx, s.DB, row)
	if err == nil && (stored.Brand != row.Brand || stored.Last4 != row.Last4 ||
		stored.ExpiryMonth != row.ExpiryMonth || stored.ExpiryYear != row.ExpiryYear) {
		// The id is another card's token: never hand it out for this one.
		return db.CardTokenRow{}, domain.KeyReused()
	}
	return stored, err
}

// CardTokenView is the answer of tokenize-card.
type CardTokenView struct {
	CreditCardToken  string `json:"creditCardToken"`
	CreditCardBrand  string `json:"creditCardBrand"`
	CreditCardNumber string `json:"creditCardNumber"`
}

// TokenizeCard keeps a card for later billings of the account (its
// customer resolved as a billing's): a token, its brand and last four
// digits; the number is not stored.
func (s *Billings) TokenizeCard(ctx context.Context, acct domain.Account, in billing.NewCardToken) (CardTokenView, error) {
	cust, err := s.customer(ctx, acct, in.Customer)
	if err != nil {
		return CardTokenView{}, err
	}
	// The token's id names the card (through the request's keyed
	// fingerprint, never the number): one key can never answer another
	// card with this one's token, which later billings would charge.
	tok, err := s.tokenize(ctx, acct, in, cust.ID, newID("ctk_", acct.ID, "card-token", in.IdempotencyKey, requestPrint(ctx)))
	if err != nil {
		return CardTokenView{}, err
	}
	return CardTokenView{CreditCardToken: tok.ID, CreditCardBrand: tok.Brand, CreditCardNumber: tok.Last4}, nil
}

// Get reads one of the account's billings by id or externalId.
func (s *Billings) Get(ctx context.Context, acct domain.Account, idOrExternal string) (CreatedBilling, error) {
	b, err := db.GetBilling(ctx, s.DB, acct.ID, idOrExternal)
	if err != nil {
		return CreatedBilling{}, err
	}
	return s.view(b), nil
}

// List reads one page of the account's billings.
func (s *Billings) List(ctx context.Context, acct domain.Account, f BillingFilter) ([]billing.Billing, int, error) {
	return db.ListBillings(ctx, s.DB, acct.ID, f)
}

// Page is the billing whose public slip or invoice page token is token.
func (s *Billings) Page(ctx context.Context, token string) (CreatedBilling, error) {
	b, err := db.BillingByPageToken(ctx, s.DB, token)
	if err != nil {
		return CreatedBilling{}, err
	}
	acct, err := db.GetAccount(ctx, s.DB, b.AccountID)
	if err != nil {
		return CreatedBilling{}, err
	}
	v := s.view(b)
	v.Merchant = PageMerchant{Name: acct.Name, Document: acct.Document}
	return v, nil
}

// withMerchant adds the merchant a payer's page names to v, when its
// account can be read (a page without it names Jangada).
func (s *Billings) withMerchant(ctx context.Context, v CreatedBilling) CreatedBilling {
	if v.Billing.AccountID == "" {
		return v
	}
	if acct, err := db.GetAccount(ctx, s.DB, v.Billing.AccountID); err == nil {
		v.Merchant = PageMerchant{Name: acct.Name, Document: acct.Document}
	}
	return v
}

// view adds the QR image of a payable PIX billing.
func (s *Billings) view(b billing.Billing) CreatedBilling {
	v := CreatedBilling{Billing: b}
	if b.Method == domain.MethodPix && b.Payable() && b.Details.V.PixCopyPaste != "" {
		img, err := qr.DataURI(b.Details.V.PixCopyPaste)
		if err == nil {
			v.PixImage = img
		}
	}
	return v
}

// Cancel cancels one of the account's billings that is still payable
// (PENDING or OVERDUE) and tells its workflow; a billing paid or closed is
// a 400. A subscription's canceled cycle calls it.
func (s *Billings) Cancel(ctx context.Context, acct domain.Account, id string) (billing.Billing, error) {
	b, err := db.GetBilling(ctx, s.DB, acct.ID, id)
	if err != nil {
		return b, err
	}
	// A card billing's sale went to the acquirer when it was made (its
	// workflow's first step): an approval arriving after a cancel would be
	// refused, the payer charged and the merchant never credited.
	if b.Payable() && (b.Method == domain.MethodCardCredit || b.Method == domain.MethodCardVoucher) {
		return b, domain.Invalidf("billing %s is a card sale sent to the acquirer: it cannot be canceled (refund it once paid)", b.ID)
	}
	b, moved, err := activities.CancelPayableBilling(ctx, s.DB, acct.ID, b.ID)
	if err != nil {
		return b, err
	}
	if !moved {
		return b, domain.Invalidf("billing %s is %s: only a PENDING or OVERDUE billing can be canceled", b.ID, b.Status)
	}
	if b.Method == domain.MethodPix { // no workflow of its own
		return b, nil
	}
	// The row is canceled; the workflow voids the boleto at the registrar
	// now: Signal-With-Start ends a deferred workflow's delay and starts
	// one whose launch has not happened yet. If Temporal is away, the
	// workflow reads the cancel at its due date.
	if err := signalWithStart(ctx, s.Temporal, s.TaskQueue, billingLaunch(b), workflows.BillingCancelSignal, b.ID, "ended"); err != nil {
		slog.Warn("billing canceled; its workflow was not told", "billing", b.ID, "error", err)
	}
	return b, nil
}

// pageToken names a billing's public slip or invoice page: 128 random bits.
func pageToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// keyID is the API key's id, or nil for a billing no key made.
func keyID(key domain.APIKey) *string {
	if key.ID == "" {
		return nil
	}
	return &key.ID
}

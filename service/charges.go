package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/qr"
	"github.com/jangada/jangada/workflows"
)

// LaunchCharge is the charge's workflow-start kind (workflow_launches.kind).
const LaunchCharge = "charge"

// The sweeper rebuilds a charge's start from the stored charge.
var _ = registerLaunch(LaunchCharge, func(ctx context.Context, q sqlx.QueryerContext, id string) (launch, error) {
	t, err := db.TransactionByID(ctx, q, id, domain.TypePixIn)
	return chargeLaunch(t), err
})

// chargeLaunch is a charge's workflow start, for its create and the sweeper.
func chargeLaunch(t domain.Transaction) launch {
	return launch{LaunchCharge, t.ID, workflows.ChargeStart(t), workflows.ChargeWorkflow, workflows.ChargeInput{Charge: t.Referenced()}}
}

// Charges creates PIX charges (their processor notices arrive through
// Inbox, service/inbox.go).
type Charges struct {
	DB        *sqlx.DB
	Processor processor.Pix
	// Starts starts each charge's workflow once its records are committed,
	// beside the answer.
	Starts    *LaunchPool
	PublicURL string
}

// CreatedCharge is a new charge with its QR image, returned only at creation.
type CreatedCharge struct {
	Charge       domain.Transaction
	QRCodeBase64 string
	// OwnerRowWritten says CreateWith wrote its alongside row with the charge.
	OwnerRowWritten bool
}

// Create prices the charge, asks the processor for its BR Code, commits the
// row, its payment.created event and the intent to start its workflow in
// one database statement, and answers: the workflow starts beside the
// answer (LaunchPool). A charge's workflow does nothing before its first
// processor notice or its expiry, and every notice is a Signal-With-Start,
// so no caller needs it to exist when the create answers; a Temporal that
// is away delays the workflow, not the answer, and the sweeper starts it.
func (s *Charges) Create(ctx context.Context, acct domain.Account, key domain.APIKey, in domain.NewCharge) (CreatedCharge, error) {
	return s.CreateWith(ctx, acct, key, in, nil)
}

// OwnerRowOf is a caller's own row written in the one statement that
// commits a charge (Charges.CreateWith, db.FirstRecordsWithOwner), made
// knowing the charge (its id and BR Code): written only with the charge.
type OwnerRowOf func(charge domain.Transaction) db.OwnerRow

// CreateWith is Create whose charge commits in one statement with the row
// makeRow makes (a checkout's session, a PIX billing's row): one round
// trip and one commit, the parent rows their foreign keys lock (the
// account, the key) locked once, and no moment where one exists without
// the other. Nil makeRow is Create. A charge an earlier attempt stored
// is answered as Create does, without makeRow's row; the answer's
// OwnerRowWritten says whether that row was written.
func (s *Charges) CreateWith(ctx context.Context, acct domain.Account, key domain.APIKey, in domain.NewCharge, makeRow OwnerRowOf) (CreatedCharge, error) {
	id := ownedID("", acct.ID, "charge", in.IdempotencyKey, in.Owner)
	// A retry answers with the charge its first attempt stored, before any
	// check a new charge needs (the sub-account may be locked by now) and
	// with the BR Code it stored, not a new one.
	if in.IdempotencyKey != "" && !in.OwnerIsNew {
		t, found, err := earlierMove(ctx, s.DB, acct.ID, id, in.IdempotencyKey, nil, domain.TypePixIn,
			func(t domain.Transaction) bool {
				return t.Details.V.RequestedAmount == int64(in.Amount) && ptrEq(t.SubaccountID, in.SubaccountID)
			})
		if found || err != nil {
			return s.stored(t, err)
		}
	}
	fees := acct.Fees
	if in.SubaccountID != "" {
		sa, err := pixSubaccount(ctx, s.DB, acct, in.SubaccountID)
		if err != nil {
			return CreatedCharge{}, err
		}
		if err := sa.Permit(subaccount.OpCharge); err != nil {
			return CreatedCharge{}, err
		}
		if in.SplitUser != "" {
			return CreatedCharge{}, domain.Invalid("splitUser", "cannot be combined with subaccountId")
		}
		fees = subaccount.Combined(acct.Fees, sa.Pricing.V)
	}
	if in.EmitFiscalInvoice && !acct.Features.FiscalInvoice {
		return CreatedCharge{}, domain.Forbidden("emitFiscalInvoice needs automatic fiscal invoice emission enabled on the account")
	}
	gross, fee, net, err := fees.ChargePrice(in.Amount, in.CoverFee)
	if err != nil {
		return CreatedCharge{}, err
	}
	split, err := s.split(ctx, acct, in, net)
	if err != nil {
		return CreatedCharge{}, err
	}

	now := time.Now().UTC()
	expires := now.Add(in.ExpiresIn)
	code, err := s.Processor.NewCharge(ctx, processor.ChargeRequest{
		ID: id, Amount: gross, Description: in.Description, MerchantName: acct.Name, MerchantKey: acct.PixKey, ExpiresAt: expires,
	})
	if err != nil {
		return CreatedCharge{}, fmt.Errorf("processor: %w", err)
	}
	img, err := qr.DataURI(code.CopyPaste)
	if err != nil {
		return CreatedCharge{}, err
	}
	t := domain.Transaction{
		ID: id, AccountID: acct.ID, APIKeyID: &key.ID, Type: domain.TypePixIn, Status: domain.StatusPending,
		Amount: gross, FeeAmount: fee, NetAmount: net, Description: in.Description,
		ExternalReference: in.ExternalReference, ReferenceID: &code.ReferenceID, CopyPaste: &code.CopyPaste,
		ExpiresAt: domain.TimePtr(expires), CreatedAt: domain.NewTime(now),
		Details: domain.SomeJSON(domain.Details{Split: split, CoverFee: in.CoverFee, FiscalInvoice: in.EmitFiscalInvoice, RequestedAmount: int64(in.Amount), Owner: in.Owner}),
	}
	if in.Payer != nil {
		t.Payer = domain.SomeJSON(*in.Payer)
	}
	if in.SubaccountID != "" {
		t.SubaccountID = &in.SubaccountID
	}
	l := chargeLaunch(t)
	var ownerRow *db.OwnerRow
	if makeRow != nil {
		row := makeRow(t)
		ownerRow = &row
	}
	// One statement, atomic on its own: the row, its event, the intent
	// and the owner's row.
	ev, written, err := activities.InsertChargeWithOwner(ctx, s.DB, t, s.PublicURL, l.intent(), ownerRow)
	if err != nil {
		return CreatedCharge{}, err
	}
	s.Starts.Go(ctx, l)
	if ev == nil { // an earlier attempt stored it: answer with what it stored
		return s.stored(db.TransactionByID(ctx, s.DB, t.ID, domain.TypePixIn))
	}
	return CreatedCharge{Charge: t, QRCodeBase64: img, OwnerRowWritten: written}, nil
}

// stored answers a create with a charge an earlier attempt stored: its own
// BR Code and the QR of that code.
func (s *Charges) stored(t domain.Transaction, err error) (CreatedCharge, error) {
	if err != nil {
		return CreatedCharge{}, err
	}
	if t.CopyPaste == nil {
		return CreatedCharge{}, fmt.Errorf("charge %s has no BR Code", t.ID)
	}
	img, err := qr.DataURI(*t.CopyPaste)
	if err != nil {
		return CreatedCharge{}, err
	}
	return CreatedCharge{Charge: t, QRCodeBase64: img}, nil
}

// split resolves splitUser to a partner account and its share of the net.
func (s *Charges) split(ctx context.Context, acct domain.Account, in domain.NewCharge, net money.Cents) (*domain.Split, error) {
	if asked, err := domain.SplitAsked(in.SplitUser, in.SplitTax); !asked || err != nil {
		return nil, err
	}
	partner, err := db.GetAccountByEmail(ctx, s.DB, in.SplitUser)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, domain.Invalid("splitUser", "is not the e-mail of a Jangada account")
	}
	if err != nil {
		return nil, err
	}
	return domain.SplitTo(acct, partner, in.SplitTax, net)
}

// Package service holds Jangada's use cases: the steps between a validated
// request and the durable workflow that carries it (database rows, processor
// calls, workflow starts), shared by the HTTP API and the tests.
package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"go.temporal.io/sdk/client"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/qr"
	"github.com/jangada/jangada/workflows"
)

// Charges creates PIX charges and forwards processor notices to them.
type Charges struct {
	DB        *sqlx.DB
	Temporal  client.Client
	Processor processor.Processor
	TaskQueue string
	PublicURL string
	// Published learns of committed events at once (see activities.Charges).
	Published func(domain.Event)
}

// NewCharge is a validated create request.
type NewCharge struct {
	Amount            money.Cents
	Description       string
	CoverFee          bool
	EmitFiscalInvoice bool
	ExpiresIn         time.Duration
	Payer             *domain.Party
	ExternalReference *string
	SplitUser         string
	SplitTax          money.Percent
	SubaccountID      string
}

// CreatedCharge is a new charge with its QR image, returned only at creation.
type CreatedCharge struct {
	Charge       domain.Transaction
	QRCodeBase64 string
}

// Create prices the charge, asks the processor for its BR Code, and stores the
// row and its payment.created event in the same database transaction that
// starts the charge workflow: if the start fails nothing is stored, and if
// the process dies after the start the workflow stores the row itself.
func (s *Charges) Create(ctx context.Context, acct domain.Account, key domain.APIKey, in NewCharge) (CreatedCharge, error) {
	if in.SubaccountID != "" && !(acct.Features.Subaccounts && acct.Features.SubaccountPix) {
		return CreatedCharge{}, domain.Forbidden("subaccountId needs sub-accounts with PIX enabled on the account")
	}
	if in.SubaccountID != "" {
		return CreatedCharge{}, domain.Forbidden("sub-accounts are not available yet")
	}
	if in.EmitFiscalInvoice && !acct.Features.FiscalInvoice {
		return CreatedCharge{}, domain.Forbidden("emitFiscalInvoice needs automatic fiscal invoice emission enabled on the account")
	}
	gross, fee, net, err := price(acct.Fees, in.Amount, in.CoverFee)
	if err != nil {
		return CreatedCharge{}, err
	}
	split, err := s.split(ctx, acct, in, net)
	if err != nil {
		return CreatedCharge{}, err
	}

	now := time.Now().UTC()
	id := uuid.Must(uuid.NewV7()).String()
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
		Details: domain.SomeJSON(domain.Details{Split: split, CoverFee: in.CoverFee, FiscalInvoice: in.EmitFiscalInvoice, RequestedAmount: int64(in.Amount)}),
	}
	if in.Payer != nil {
		t.Payer = domain.SomeJSON(*in.Payer)
	}
	var ev domain.Event
	err = db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		if _, err := db.InsertTransaction(ctx, tx, t); err != nil {
			return err
		}
		if ev, err = db.InsertEvent(ctx, tx, t.AccountID, t.APIKeyID, domain.EventPaymentCreated, t.ID, t.EventData(s.PublicURL)); err != nil {
			return err
		}
		_, err := s.Temporal.ExecuteWorkflow(ctx, workflows.ChargeStartOptions(t, s.TaskQueue), workflows.ChargeWorkflow, workflows.ChargeInput{Charge: t})
		if err != nil {
			return fmt.Errorf("%w: start charge workflow: %v", domain.ErrUnavailable, err)
		}
		return nil
	})
	if err != nil {
		return CreatedCharge{}, err
	}
	if s.Published != nil {
		s.Published(ev)
	}
	return CreatedCharge{Charge: t, QRCodeBase64: img}, nil
}

// price applies the account's PIX-in fee. Without coverFee the amount is the
// QR value and the fee comes out of it; with coverFee the amount is what the
// merchant nets and the fee is added to the QR.
func price(f domain.Fees, amount money.Cents, coverFee bool) (gross, fee, net money.Cents, err error) {
	if coverFee {
		gross, fee, err = money.GrossForNet(amount, f.PixInFixed, f.PixInPercent)
		if err != nil {
			return 0, 0, 0, domain.Invalidf("the account's fees cannot be covered: %v", err)
		}
		return gross, fee, amount, nil
	}
	fee = f.PixIn(amount)
	if fee >= amount {
		return 0, 0, 0, domain.Invalid("amount", "must be greater than the PIX fee of %s", fee)
	}
	return amount, fee, amount - fee, nil
}

// split resolves splitUser to a partner account and its share of the net.
func (s *Charges) split(ctx context.Context, acct domain.Account, in NewCharge, net money.Cents) (*domain.Split, error) {
	if in.SplitUser == "" {
		if in.SplitTax != 0 {
			return nil, domain.Invalid("splitUser", "is required with splitTax")
		}
		return nil, nil
	}
	if in.SplitTax == 0 {
		return nil, domain.Invalid("splitTax", "is required with splitUser")
	}
	partner, err := db.GetAccountByEmail(ctx, s.DB, in.SplitUser)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, domain.Invalid("splitUser", "is not the e-mail of a Jangada account")
	}
	if err != nil {
		return nil, err
	}
	if partner.ID == acct.ID {
		return nil, domain.Invalid("splitUser", "must be another account than the charge's")
	}
	return &domain.Split{AccountID: partner.ID, Email: partner.Email, Percent: in.SplitTax, Amount: net.MulPercent(in.SplitTax)}, nil
}

// Notify forwards a processor notice to the charge's workflow. A charge that
// has left PENDING refuses it with a 400.
func (s *Charges) Notify(ctx context.Context, t domain.Transaction, n processor.ChargeNotice) error {
	if t.Status != domain.StatusPending {
		return domain.Invalidf("charge %s is %s, not PENDING", t.ID, t.Status)
	}
	return signal(ctx, s.Temporal, workflows.ChargeWorkflowID(t.ID), workflows.ChargeSignal, n,
		fmt.Sprintf("charge %s is no longer PENDING", t.ID))
}

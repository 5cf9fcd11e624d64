package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/workflows"
)

// Why an invoice page's payment was refused without using the card: the
// billing is no longer payable (paid, failed, canceled), or it holds a card
// already (a payment under way or done; never charged twice).
var (
	ErrInvoiceClosed  = activities.ErrBillingNotPayable
	ErrInvoiceHasCard = activities.ErrDebitCardTaken
)

// PayInvoice pays the debit card billing whose invoice page token is token
// with the card its payer typed: it finds what an earlier payment did first
// (a billing closed or holding a card answers ErrInvoiceClosed or
// ErrInvoiceHasCard with the billing, and the card is not tokenized), then
// tokenizes the card (the number and CVV go no further than the
// processor's vault), keeps the token on the billing under its row lock
// (the first card wins: activities.AttachDebitCard), and signals the
// billing's workflow with the token's id, which charges it. A billing that
// holds a card and is still payable has its workflow signalled again (a
// signal lost with its process is sent again by the payer's retry; the
// workflow charges once, the acquirer is idempotent on the billing id).
func (s *Billings) PayInvoice(ctx context.Context, token string, in billing.NewInvoicePayment) (CreatedBilling, error) {
	v, err := s.payInvoice(ctx, token, in)
	return s.withMerchant(ctx, v), err
}

func (s *Billings) payInvoice(ctx context.Context, token string, in billing.NewInvoicePayment) (CreatedBilling, error) {
	b, err := db.BillingByPageToken(ctx, s.DB, token)
	if err != nil {
		return CreatedBilling{}, err
	}
	if b.Method != domain.MethodCardDebit {
		return CreatedBilling{}, domain.ErrNotFound
	}
	if !b.Payable() {
		return s.view(b), ErrInvoiceClosed
	}
	if b.Details.V.CardToken != "" {
		return s.view(b), s.wakeDebit(ctx, b, ErrInvoiceHasCard)
	}
	customerID := ""
	if b.CustomerID != nil {
		customerID = *b.CustomerID
	}
	// A token of its own per attempt: two payers' cards are never one row;
	// the billing keeps the first (AttachDebitCard).
	tok, err := s.tokenize(ctx, domain.Account{ID: b.AccountID}, billing.NewCardToken{Card: in.Card, RemoteIP: in.RemoteIP},
		customerID, domain.NewID("ctk_"))
	if err != nil {
		return CreatedBilling{}, err
	}
	b, err = activities.AttachDebitCard(ctx, s.DB, b.ID, tok)
	switch {
	case errors.Is(err, ErrInvoiceHasCard):
		return s.view(b), s.wakeDebit(ctx, b, ErrInvoiceHasCard)
	case err != nil:
		return s.view(b), err
	}
	return s.view(b), s.wakeDebit(ctx, b, nil)
}

// wakeDebit signals the billing's workflow with the card the billing holds
// (Signal-With-Start: a deferred workflow runs now) and answers answer; a
// workflow that ended answers answer too, Temporal away is a 503 (the
// payer's retry signals again).
func (s *Billings) wakeDebit(ctx context.Context, b billing.Billing, answer error) error {
	in := activities.DebitCardInput{BillingID: b.ID, CardToken: b.Details.V.CardToken}
	err := signalWithStart(ctx, s.Temporal, s.TaskQueue, billingLaunch(b), workflows.BillingDebitCardSignal, in,
		fmt.Sprintf("billing %s is no longer payable", b.ID))
	if errors.Is(err, domain.ErrUnavailable) {
		slog.Warn("debit card billing: its workflow was not told of the card", "billing", b.ID, "error", err)
		return err
	}
	return answer
}

package activities

import (
	"context"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/processor"
)

// A debit card billing is paid by its payer on its hosted invoice page
// (api/billing_invoice.go): the page's use case tokenizes the card, keeps
// the token on the billing (AttachDebitCard, under the billing's row lock:
// the first card wins) and signals the billing's workflow with the token's
// id only; the workflow charges it (ChargeDebitCard), and the acquirer's
// answer arrives as a BillingNotice that moves the billing as a credit
// card's (PayBilling: CONFIRMED, FailBilling: FAILED).

// DebitCardInput names the card token (ours, a card_tokens row) a debit
// card billing's payer gave on its invoice page. It is the debit signal's
// payload: no number, no CVV, not even the vault's token.
type DebitCardInput struct {
	BillingID string `json:"billingId"`
	CardToken string `json:"cardToken"`
}

// ErrDebitCardTaken is AttachDebitCard's answer when the billing already
// holds a card (a payment is under way or done): the new card is not used.
var ErrDebitCardTaken = errors.New("billing already has a card payment")

// AttachDebitCard keeps the card token tok on the debit card billing id,
// if it is still payable and holds no card yet; it answers the billing as
// stored. A billing no longer payable is ErrBillingNotPayable; one that
// holds a card already (the same token: a retry; another: a second
// payment) is ErrDebitCardTaken, with the billing, so that the caller may
// wake its workflow again and never charges twice.
func AttachDebitCard(ctx context.Context, d *sqlx.DB, id string, tok db.CardTokenRow) (billing.Billing, error) {
	b, _, err := runStep(ctx, d, id, billingRecords, func(_ *sqlx.Tx, b *billing.Billing) (change, error) {
		switch {
		case b.Method != domain.MethodCardDebit:
			return change{}, domain.ErrNotFound
		case !b.Payable():
			return change{}, ErrBillingNotPayable
		case b.Details.V.CardToken != "":
			return change{}, ErrDebitCardTaken
		}
		dt := b.Details.V
		dt.CardToken, dt.CardBrand, dt.CardLast4 = tok.ID, tok.Brand, tok.Last4
		b.Details = domain.SomeJSON(dt)
		return emit(), nil
	})
	return b, err
}

// ChargeDebitCard submits the sale of a debit card billing to the acquirer
// on the card its payer gave (AttachDebitCard); the answer arrives as a
// BillingNotice. It finds what an earlier attempt did first: a billing no
// longer payable (the answer came) or whose sale was accepted (its
// ExternalID, the acquirer's reference, recorded below) submits nothing;
// the acquirer is idempotent on the billing id for an attempt that died
// between its call and the record. A signal naming another token than the
// billing's (a payer's second card, refused by AttachDebitCard) charges
// nothing.
func (a *Billings) ChargeDebitCard(ctx context.Context, in DebitCardInput) error {
	b, err := db.BillingByID(ctx, a.DB, in.BillingID)
	if err != nil {
		return err
	}
	if b.Method != domain.MethodCardDebit || !b.Payable() || b.ExternalID != nil || b.Details.V.CardToken != in.CardToken {
		return nil
	}
	tok, err := db.GetCardToken(ctx, a.DB, b.AccountID, b.Details.V.CardToken)
	if err != nil {
		return fmt.Errorf("billing %s: card token: %w", b.ID, err)
	}
	sub, err := a.Processor.ChargeCard(ctx, processor.CardChargeRequest{
		ID: b.ID, Token: tok.ProcessorToken, Method: b.Method, Amount: b.Amount, Installments: 1,
	})
	if err != nil {
		return fmt.Errorf("processor: charge debit card: %w", err)
	}
	if sub.ReferenceID == "" {
		return nil
	}
	_, _, err = runStep(ctx, a.DB, b.ID, billingRecords, func(_ *sqlx.Tx, b *billing.Billing) (change, error) {
		if b.ExternalID != nil {
			return change{}, nil
		}
		b.ExternalID = &sub.ReferenceID
		return emit(), nil
	})
	return err
}

package activities

import (
	"cmp"
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/processor"
)

// Crypto are the activities of crypto deposits (CRYPTO_IN) and withdrawals
// (CRYPTO_OUT). A deposit is credited in BRL at its quote when the
// processor confirms it: its amount enters through the crypto clearing
// account, available at once (no 24 h lock: it is not PIX). A withdrawal
// reserves its amount from withdrawable money, as a PIX out does, and
// leaves through the clearing account when the network confirms it.
// Crypto events are not active in the public API (the spec's rule): these
// steps write no events.
type Crypto struct {
	Base
	Processor processor.Crypto
}

// CryptoNoticeInput books a processor's notice about a deposit or a
// withdrawal.
type CryptoNoticeInput struct {
	ID     string
	Notice processor.CryptoNotice
}

func noticeTime(n processor.CryptoNotice) *domain.Time {
	if n.At.IsZero() {
		return domain.TimePtr(time.Now())
	}
	return domain.TimePtr(n.At)
}

// InsertCryptoDeposit writes a new deposit (PENDING, nothing posted: no
// money has arrived); an existing row writes nothing. The use case calls
// it in its transaction, EnsureCryptoDeposit finds it written.
func InsertCryptoDeposit(ctx context.Context, tx *sqlx.Tx, t domain.Transaction) error {
	_, err := db.InsertTransaction(ctx, tx, t)
	return err
}

// EnsureCryptoDeposit is the deposit workflow's guard; it returns the
// stored status.
func (a *Crypto) EnsureCryptoDeposit(ctx context.Context, t domain.Transaction) (string, error) {
	if err := db.InTx(ctx, a.DB, func(tx *sqlx.Tx) error { return InsertCryptoDeposit(ctx, tx, t) }); err != nil {
		return "", err
	}
	stored, err := db.TransactionByID(ctx, a.DB, t.ID, domain.TypeCryptoIn)
	return stored.Status, err
}

// CreditCryptoDeposit books a confirmed deposit (BookCryptoDeposit).
func (a *Crypto) CreditCryptoDeposit(ctx context.Context, in CryptoNoticeInput) (string, error) {
	return BookCryptoDeposit(ctx, a.Base, in)
}

// BookCryptoDeposit books a confirmed deposit: its BRL amount, at the rate
// it was quoted, from the crypto clearing account to the merchant's
// available money; a deposit made for another product (Details.Owner)
// tells its owner in the same transaction, as a charge does. Coins
// confirmed after the deposit expired (CANCELED) are credited too, never
// refused: the payer's coins arrived (at LateCredit, marked
// latePayment), under the same posting key, so a deposit is credited once
// whichever of its workflow and the Inbox books it. Any other status is
// left as it is; it returns the stored status.
func BookCryptoDeposit(ctx context.Context, b Base, in CryptoNoticeInput) (string, error) {
	t, err := b.transition(ctx, in.ID, func(tx *sqlx.Tx, t *domain.Transaction) (change, error) {
		late := t.Status == domain.StatusCanceled
		if t.Status != domain.StatusPending && !late {
			return change{}, nil
		}
		c := t.Details.V.Crypto
		at := noticeTime(in.Notice)
		if late {
			rate := cmp.Or(in.Notice.Rate, c.Rate)
			c.LatePayment = &domain.CryptoLatePayment{Rate: rate, Credited: crypto.LateCredit(*c, t.Amount, rate), At: *at}
			t.NetAmount = c.LatePayment.Credited
		}
		if t.NetAmount > 0 { // late coins that fell to nothing bring nothing to post
			if _, err := db.Post(ctx, tx, cryptoCreditPosting(*t)); err != nil {
				return change{}, err
			}
		}
		c.TxHash = in.Notice.TxHash
		t.Status, t.CompletedAt = domain.StatusCompleted, at
		return emit(), tellOwner(ctx, tx, *t, b.PublicURL)
	})
	return t.Status, err
}

// ExpireCryptoDeposit closes a deposit whose quote expired unpaid
// (CANCELED); it returns the stored status.
func (a *Crypto) ExpireCryptoDeposit(ctx context.Context, id string) (string, error) {
	t, err := a.transition(ctx, id, func(tx *sqlx.Tx, t *domain.Transaction) (change, error) {
		if t.Status != domain.StatusPending {
			return change{}, nil
		}
		t.Status = domain.StatusCanceled
		return emit(), tellOwner(ctx, tx, *t, a.PublicURL)
	})
	return t.Status, err
}

// ReserveCryptoWithdrawal writes a new withdrawal and the reserve of its
// amount from withdrawable money (checked under the balance lock by
// db.Post, as a PIX out's); an existing row writes nothing.
func ReserveCryptoWithdrawal(ctx context.Context, tx *sqlx.Tx, t domain.Transaction) error {
	return insertWithdrawal(ctx, tx, t, cryptoReservePosting(t))
}

// EnsureCryptoWithdrawal is the withdrawal workflow's guard; short of
// money, a withdrawal written here is stored FAILED with nothing debited.
// It returns the stored status.
func (a *Crypto) EnsureCryptoWithdrawal(ctx context.Context, t domain.Transaction) (string, error) {
	return a.ensureWithdrawal(ctx, t, ReserveCryptoWithdrawal)
}

// SubmitCryptoWithdrawal hands the withdrawal to the processor (idempotent
// on our id) and marks it PROCESSING with the processor's reference. A
// withdrawal held for security review is sent only once approved
// (Base.sendable), at the units stored (re-priced after a long hold).
func (a *Crypto) SubmitCryptoWithdrawal(ctx context.Context, id string) error {
	t, send, err := a.sendable(ctx, id)
	if err != nil || !send {
		return err
	}
	c := t.Details.V.Crypto
	sub, err := a.Processor.SendCrypto(ctx, processor.CryptoOutRequest{ID: t.ID, Currency: c.PayCurrency, Units: c.PayUnits,
		Address: c.Address, ExtraID: c.ExtraID})
	if err != nil {
		return err
	}
	_, err = a.transition(ctx, id, func(_ *sqlx.Tx, t *domain.Transaction) (change, error) {
		if t.Status != domain.StatusPending {
			return change{}, nil
		}
		t.Status, t.ReferenceID = domain.StatusProcessing, &sub.ReferenceID
		return emit(), nil
	})
	return err
}

// RepriceCryptoWithdrawal prices again, once, a withdrawal whose quote
// expired before it was sent: held for security review (up to 72 h), or
// started late (the sweeper after an outage). Sent at its
// old quote after the coin rose, it would pay out more than the BRL
// reserved. While the withdrawal is PENDING and not yet re-priced, the
// processor's rate buys units for its amount, rounded down as a quote's
// (never more than was paid for); the rate, the units and repricedAt are
// stored under the row lock, then SubmitCryptoWithdrawal sends those
// units. A retry finds repricedAt set and prices nothing again. An amount
// that no longer buys one unit fails the withdrawal, its reserve returned.
// It returns the stored status.
func (a *Crypto) RepriceCryptoWithdrawal(ctx context.Context, id string) (string, error) {
	t, err := db.TransactionByID(ctx, a.DB, id, domain.TypeCryptoOut)
	if err != nil || !needsReprice(t, time.Now()) {
		return t.Status, err
	}
	rate, err := a.Processor.CryptoRate(ctx, t.Details.V.Crypto.PayCurrency)
	if err != nil {
		return "", err
	}
	now := time.Now()
	t, err = a.transition(ctx, id, func(tx *sqlx.Tx, t *domain.Transaction) (change, error) {
		if !needsReprice(*t, now) {
			return change{}, nil
		}
		c := t.Details.V.Crypto
		units := crypto.CryptoCurrencies[c.PayCurrency].PayUnits(t.Amount, rate.Rate, false)
		if units <= 0 {
			return failWithdrawal(ctx, tx, t)
		}
		c.Rate, c.PayUnits, c.RepricedAt = rate.Rate, units, domain.TimePtr(now)
		return emit(), nil
	})
	return t.Status, err
}

// needsReprice: a PENDING withdrawal not re-priced yet whose quote expired.
func needsReprice(t domain.Transaction, now time.Time) bool {
	c := t.Details.V.Crypto
	return t.Status == domain.StatusPending && c != nil && c.RepricedAt == nil && !now.Before(crypto.QuoteExpiry(*c, t.CreatedAt.Time))
}

// CompleteCryptoWithdrawal books a confirmed withdrawal: the reserve
// leaves through the crypto clearing account.
func (a *Crypto) CompleteCryptoWithdrawal(ctx context.Context, in CryptoNoticeInput) error {
	_, err := a.transition(ctx, in.ID, func(tx *sqlx.Tx, t *domain.Transaction) (change, error) {
		if t.Status == domain.StatusCompleted || t.Status == domain.StatusFailed {
			return change{}, nil
		}
		if _, err := db.Post(ctx, tx, cryptoSettlePosting(*t)); err != nil {
			return change{}, err
		}
		t.Details.V.Crypto.TxHash = in.Notice.TxHash
		t.Status, t.CompletedAt = domain.StatusCompleted, noticeTime(in.Notice)
		return emit(), nil
	})
	return err
}

// FailCryptoWithdrawal returns the reserve exactly and marks the
// withdrawal FAILED (the network failed it, or security review rejected it).
func (a *Crypto) FailCryptoWithdrawal(ctx context.Context, in CryptoNoticeInput) error {
	_, err := a.transition(ctx, in.ID, func(tx *sqlx.Tx, t *domain.Transaction) (change, error) {
		if t.Status == domain.StatusCompleted || t.Status == domain.StatusFailed {
			return change{}, nil
		}
		return failWithdrawal(ctx, tx, t)
	})
	return err
}

// failWithdrawal returns a withdrawal's reserve exactly and marks it FAILED.
func failWithdrawal(ctx context.Context, tx *sqlx.Tx, t *domain.Transaction) (change, error) {
	if _, err := db.Post(ctx, tx, cryptoReleasePosting(*t)); err != nil {
		return change{}, err
	}
	t.Status = domain.StatusFailed
	if r := t.Details.V.SecurityReview; r != nil && r.Pending { // nothing left to review
		r.Pending = false
	}
	return emit(), nil
}

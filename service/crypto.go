package service

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/workflows"
)

// Workflow-start kinds of crypto deposits and withdrawals (workflow_launches.kind).
const (
	LaunchCryptoDeposit    = "crypto-deposit"
	LaunchCryptoWithdrawal = "crypto-withdrawal"
)

// The sweeper rebuilds a deposit's or a withdrawal's start from the record.
var (
	_ = registerLaunch(LaunchCryptoDeposit, func(ctx context.Context, q sqlx.QueryerContext, id string) (launch, error) {
		t, err := db.TransactionByID(ctx, q, id, domain.TypeCryptoIn)
		return cryptoLaunch(t), err
	})
	_ = registerLaunch(LaunchCryptoWithdrawal, func(ctx context.Context, q sqlx.QueryerContext, id string) (launch, error) {
		t, err := db.TransactionByID(ctx, q, id, domain.TypeCryptoOut)
		return cryptoLaunch(t), err
	})
)

// cryptoLaunch is a deposit's or a withdrawal's workflow start.
func cryptoLaunch(t domain.Transaction) launch {
	in := workflows.CryptoInput{Record: t}
	if t.Type == domain.TypeCryptoOut {
		return launch{LaunchCryptoWithdrawal, t.ID, workflows.CryptoStart(t), workflows.CryptoWithdrawalWorkflow, in}
	}
	return launch{LaunchCryptoDeposit, t.ID, workflows.CryptoStart(t), workflows.CryptoDepositWorkflow, in}
}

// Crypto receives and sends crypto: deposit addresses (one per deposit,
// credited in BRL at their quote), withdrawal quotes, withdrawals (from
// withdrawable money, as a PIX out) and quote-and-send. Rates come from the
// processor (processor.Crypto.CryptoRate). Reads go through
// Transactions (types CRYPTO_IN and CRYPTO_OUT).
//
// CreateDeposit is also the use case another product calls to take a
// payment in crypto (a checkout session's CRYPTO method), naming itself
// as the deposit's owner (domain.NewCryptoDeposit.Owner): the deposit's
// payment or expiry then runs the owner's hook in its transaction, as a
// charge's does (activities.RegisterChargeOwner).
type Crypto struct {
	DB        *sqlx.DB
	Temporal  Temporal
	TaskQueue string
	Processor processor.Crypto
	// Now is the clock (tests move it); nil is time.Now.
	Now func() time.Time
}

// now is the clock at PostgreSQL's precision (microseconds), so that a
// quote's expiry answered is the one stored.
func (s *Crypto) now() time.Time {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	return now().UTC().Truncate(time.Microsecond)
}

// CreateDeposit opens a deposit: the processor's rate quotes payAmount
// (rounded up: the payer covers the amount), the processor opens the
// deposit's own address, and the record (PENDING until paid, expiring
// with its quote) and its workflow intent commit before the workflow
// starts. A retry (the same Idempotency-Key or externalReference) answers
// with the first deposit.
func (s *Crypto) CreateDeposit(ctx context.Context, acct domain.Account, key domain.APIKey, in crypto.NewCryptoDeposit) (domain.Transaction, error) {
	if err := acct.Require(domain.FeatureCrypto); err != nil {
		return domain.Transaction{}, err
	}
	id := ownedID("", acct.ID, "crypto-deposit", in.IdempotencyKey, in.Owner)
	if t, found, err := earlierMove(ctx, s.DB, acct.ID, id, in.IdempotencyKey, in.ExternalReference, domain.TypeCryptoIn,
		func(t domain.Transaction) bool {
			return t.Amount == in.Amount && t.Details.V.Crypto != nil && t.Details.V.Crypto.PayCurrency == in.Currency.Code
		}); found || err != nil {
		return t, err
	}
	rate, err := s.Processor.CryptoRate(ctx, in.Currency.Code)
	if err != nil {
		return domain.Transaction{}, err
	}
	addr, err := s.Processor.CryptoDepositAddress(ctx, processor.CryptoAddressRequest{DepositID: id, Currency: in.Currency.Code})
	if err != nil {
		return domain.Transaction{}, err
	}
	now := s.now()
	expires := crypto.DepositExpiry(now, in.ExpiresAt)
	desc := in.Description
	if desc == "" {
		desc = "Depósito " + in.Currency.Code
	}
	var keyID *string
	if key.ID != "" {
		keyID = &key.ID
	}
	t := domain.Transaction{
		ID: id, AccountID: acct.ID, APIKeyID: keyID, Type: domain.TypeCryptoIn, Status: domain.StatusPending,
		Amount: in.Amount, NetAmount: in.Amount, Description: desc, ExternalReference: in.ExternalReference,
		ReferenceID: &addr.ReferenceID, ExpiresAt: domain.TimePtr(expires), CreatedAt: domain.NewTime(now),
		Details: domain.SomeJSON(domain.Details{Owner: in.Owner, Crypto: &domain.CryptoBlock{PayCurrency: in.Currency.Code, Rate: rate.Rate,
			PayUnits: in.Currency.PayUnits(in.Amount, rate.Rate, true), Address: addr.Address, ExtraID: addr.ExtraID}}),
	}
	l := cryptoLaunch(t)
	err = db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		if err := activities.InsertCryptoDeposit(ctx, tx, t); err != nil {
			return err
		}
		return recordIntent(ctx, tx, l)
	})
	if err != nil {
		return domain.Transaction{}, err
	}
	launchCommitted(ctx, s.DB, s.Temporal, s.TaskQueue, l)
	return db.GetTransaction(ctx, s.DB, acct.ID, t.ID, domain.TypeCryptoIn)
}

// Quote prices a withdrawal at the processor's rate (rounded down: never
// more than was paid for) and stores the quote, usable once until it
// expires.
func (s *Crypto) Quote(ctx context.Context, acct domain.Account, in crypto.NewCryptoQuote) (crypto.CryptoQuote, error) {
	if err := acct.Require(domain.FeatureCrypto); err != nil {
		return crypto.CryptoQuote{}, err
	}
	rate, err := s.Processor.CryptoRate(ctx, in.Currency.Code)
	if err != nil {
		return crypto.CryptoQuote{}, err
	}
	units := in.Currency.PayUnits(in.Amount, rate.Rate, false)
	if units <= 0 {
		return crypto.CryptoQuote{}, domain.Invalid("amount", "buys less than the smallest unit of %s", in.Currency.Code)
	}
	now := s.now()
	q := crypto.CryptoQuote{ID: domain.NewID("cq_"), AccountID: acct.ID, Amount: in.Amount, PayCurrency: in.Currency.Code,
		PayUnits: units, Rate: rate.Rate, ExpiresAt: domain.NewTime(now.Add(rate.ValidFor)), CreatedAt: domain.NewTime(now)}
	return q, db.InsertCryptoQuote(ctx, s.DB, q)
}

// CreateWithdrawal sends crypto at a quote: quoteId's, or the account's
// latest unused quote of that amount and currency. A retry answers with
// the first withdrawal before anything is checked; then, in one database
// transaction, the quote is locked and checked (same amount and currency,
// unused, not expired: 400 naming quoteId), marked used, and the
// withdrawal, the reserve of its amount from withdrawable money (checked
// under the balance lock, as a PIX out's) and its workflow intent are
// written; the workflow starts after the commit. An amount at or above the
// account's securityReviewThreshold is held for an operator as a PIX out is
// (Account.ReviewHold; decided through Transfers.Review, rejected after
// workflows.ReviewTimeout).
func (s *Crypto) CreateWithdrawal(ctx context.Context, acct domain.Account, key domain.APIKey, in crypto.NewCryptoWithdrawal) (domain.Transaction, error) {
	if err := acct.Require(domain.FeatureCrypto); err != nil {
		return domain.Transaction{}, err
	}
	id := newID("", acct.ID, "crypto-withdrawal", in.IdempotencyKey)
	if t, found, err := s.earlierWithdrawal(ctx, acct, id, in); found || err != nil {
		return t, err
	}
	now := s.now()
	var t domain.Transaction
	var l launch
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		q, err := db.LockCryptoQuote(ctx, tx, acct.ID, in.QuoteID, in.Amount, in.Currency.Code)
		if err != nil {
			return err
		}
		if err := q.Usable(in.Amount, in.Currency.Code, now); err != nil {
			return err
		}
		desc := in.Description
		if desc == "" {
			desc = "Saque " + in.Currency.Code
		}
		t = domain.Transaction{
			ID: id, AccountID: acct.ID, APIKeyID: &key.ID, Type: domain.TypeCryptoOut, Status: domain.StatusPending,
			Amount: in.Amount, NetAmount: in.Amount, Description: desc, ExternalReference: in.ExternalReference, CreatedAt: domain.NewTime(now),
			Details: domain.SomeJSON(domain.Details{Crypto: &domain.CryptoBlock{PayCurrency: q.PayCurrency, PayUnits: q.PayUnits, Rate: q.Rate,
				QuoteID: q.ID, QuoteExpiresAt: domain.TimePtr(q.ExpiresAt.Time), Address: in.Address, ExtraID: in.ExtraID},
				SecurityReview: acct.ReviewHold(in.Amount)}),
		}
		if err := db.UseCryptoQuote(ctx, tx, q.ID, id); err != nil {
			return err
		}
		if err := activities.ReserveCryptoWithdrawal(ctx, tx, t); err != nil {
			return err
		}
		l = cryptoLaunch(t)
		return recordIntent(ctx, tx, l)
	})
	if err != nil {
		return domain.Transaction{}, err
	}
	launchCommitted(ctx, s.DB, s.Temporal, s.TaskQueue, l)
	return db.GetTransaction(ctx, s.DB, acct.ID, t.ID, domain.TypeCryptoOut)
}

// SendAuto quotes and sends in one call: a retry answers with the first
// withdrawal; otherwise a fresh quote is made and used at once.
func (s *Crypto) SendAuto(ctx context.Context, acct domain.Account, key domain.APIKey, in crypto.NewCryptoWithdrawal) (domain.Transaction, error) {
	if err := acct.Require(domain.FeatureCrypto); err != nil {
		return domain.Transaction{}, err
	}
	if t, found, err := s.earlierWithdrawal(ctx, acct, newID("", acct.ID, "crypto-withdrawal", in.IdempotencyKey), in); found || err != nil {
		return t, err
	}
	q, err := s.Quote(ctx, acct, crypto.NewCryptoQuote{Amount: in.Amount, Currency: in.Currency})
	if err != nil {
		return domain.Transaction{}, err
	}
	in.QuoteID = q.ID
	return s.CreateWithdrawal(ctx, acct, key, in)
}

// earlierWithdrawal finds what an earlier attempt of the withdrawal made.
func (s *Crypto) earlierWithdrawal(ctx context.Context, acct domain.Account, id string, in crypto.NewCryptoWithdrawal) (domain.Transaction, bool, error) {
	return earlierMove(ctx, s.DB, acct.ID, id, in.IdempotencyKey, in.ExternalReference, domain.TypeCryptoOut,
		func(t domain.Transaction) bool {
			c := t.Details.V.Crypto
			return t.Amount == in.Amount && c != nil && c.PayCurrency == in.Currency.Code && c.Address == in.Address
		})
}

package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/store"
	"github.com/jangada/jangada/workflows"
)

// LaunchSubscription is a subscription's workflow-start kind
// (workflow_launches.kind).
const LaunchSubscription = "subscription"

// The sweeper rebuilds a subscription's start from the stored row.
var _ = registerLaunch(LaunchSubscription, func(ctx context.Context, q sqlx.QueryerContext, id string) (launch, error) {
	s, err := db.GetSubscription(ctx, q, "", id)
	return subscriptionLaunch(s), err
})

// subscriptionLaunch is a subscription's workflow start, for its create and
// the sweeper.
func subscriptionLaunch(s billing.Subscription) launch {
	return launch{LaunchSubscription, s.ID, workflows.SubscriptionStart(s), workflows.SubscriptionWorkflow,
		workflows.SubscriptionInput{Subscription: s.Referenced()}}
}

// Subscriptions runs recurring billings: each subscription is a durable
// workflow (subscription/<id>) that bills one cycle after another through
// Billings, the use case of POST /billings/create; this service creates
// them, reads them, forwards cancels to their workflows, and is the
// workflow's activities.SubscriptionBiller.
type Subscriptions struct {
	DB        *sqlx.DB
	Temporal  Temporal
	TaskQueue string
	Billings  *Billings
	// Now is the clock (time.Now when nil): a cycle due before today bills
	// with today's due date.
	Now func() time.Time
}

func (s *Subscriptions) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Create stores the subscription and its workflow intent in one database
// transaction, then starts the workflow (launchCommitted). A retry under
// the same Idempotency-Key answers with the first attempt's subscription
// before any other check.
func (s *Subscriptions) Create(ctx context.Context, acct domain.Account, key domain.APIKey, in billing.NewSubscription) (billing.SubscriptionRecord, error) {
	id := newID("sub_", acct.ID, "subscription", in.IdempotencyKey)
	if in.IdempotencyKey != "" {
		sub, err := db.GetSubscription(ctx, s.DB, acct.ID, id)
		if err == nil {
			return sub.Public(), ownsKey(ctx, sub.CreatedAt.Time)
		}
		if !errors.Is(err, domain.ErrNotFound) {
			return billing.SubscriptionRecord{}, err
		}
	}
	b := in.Billing
	// A customer named by its id must be the store's now, not at the first
	// cycle's billing.
	if b.Customer.ID != "" {
		if _, err := db.GetCustomer(ctx, s.DB, acct.ID, b.Customer.ID); errors.Is(err, domain.ErrNotFound) {
			return billing.SubscriptionRecord{}, domain.Invalid("customer.id", "is not a customer of this account")
		} else if err != nil {
			return billing.SubscriptionRecord{}, err
		}
	} else {
		// A customer sent by name and taxId is linked to the store's
		// customer with that taxId (made when there is none), as a
		// billing's is; each cycle bills the name sent.
		got, err := db.FindOrCreateCustomer(ctx, s.DB, store.Customer{AccountID: acct.ID, Name: b.Customer.Name,
			Document: b.Customer.TaxID, Email: b.Customer.Email, Phone: b.Customer.Phone})
		if err != nil {
			return billing.SubscriptionRecord{}, err
		}
		b.Customer.ID = got.ID
	}
	first := b.DueDate.Format(time.DateOnly)
	sub := billing.Subscription{
		ID: id, AccountID: acct.ID, APIKeyID: key.ID, ExternalID: domain.DerivedID("psub_", "subscription:"+id),
		Status: billing.SubscriptionActive, Method: b.Method, Amount: b.Amount, Cycle: in.Cycle, Description: b.Description,
		Customer: b.Customer, CustomerEmail: b.Customer.Email, CustomerPhone: b.Customer.Phone, RemoteIP: b.RemoteIP,
		ExternalReference: b.ExternalReference, Anchor: first, NextCycle: 1, NextDueDate: first,
		CreatedAt: domain.NewTime(s.now().Truncate(time.Millisecond)),
	}
	if b.Method == domain.MethodCardCredit {
		if err := s.card(ctx, acct, in, &sub); err != nil {
			return billing.SubscriptionRecord{}, err
		}
	}
	l := subscriptionLaunch(sub)
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		if err := db.InsertSubscription(ctx, tx, sub); err != nil {
			return err
		}
		return recordIntent(ctx, tx, l)
	})
	if err != nil {
		return billing.SubscriptionRecord{}, err
	}
	launchCommitted(ctx, s.DB, s.Temporal, s.TaskQueue, l)
	return sub.Public(), nil
}

// Get returns one of the account's subscriptions by subscriptionId or
// externalId; another account's is not found.
func (s *Subscriptions) Get(ctx context.Context, acct domain.Account, idOrExternal string) (billing.SubscriptionRecord, error) {
	sub, err := db.GetSubscription(ctx, s.DB, acct.ID, idOrExternal)
	if err != nil {
		return billing.SubscriptionRecord{}, err
	}
	return sub.Public(), nil
}

// List returns a page of the account's subscriptions (of one status when
// status is not empty), newest first, and how many there are.
func (s *Subscriptions) List(ctx context.Context, acct domain.Account, status string, page, pageSize int) ([]billing.Subscription, int, error) {
	return db.ListSubscriptions(ctx, s.DB, acct.ID, status, page, pageSize)
}

// Cancel ends the subscription (found by subscriptionId or externalId):
// its workflow, the row's only writer, marks it CANCELED, cancels the
// pending billing of its last cycle and stops; the answer is the record it
// left. A subscription canceled already is a 400.
func (s *Subscriptions) Cancel(ctx context.Context, acct domain.Account, idOrExternal string) (billing.SubscriptionRecord, error) {
	sub, err := db.GetSubscription(ctx, s.DB, acct.ID, idOrExternal)
	if err != nil {
		return billing.SubscriptionRecord{}, err
	}
	if sub.Status == billing.SubscriptionCanceled {
		return billing.SubscriptionRecord{}, domain.Invalidf("subscription %s is canceled already", sub.ID)
	}
	// A workflow not running yet (its start is still owed: the sweeper
	// makes it shortly) is a 503 (update).
	// The workflow answers once the cancel is stored; the record is read
	// here (the workflow carries no customer data to answer with).
	var rec billing.SubscriptionRecord
	err = update(ctx, s.Temporal, workflows.SubscriptionWorkflowID(sub.ID), workflows.SubscriptionCancel, &rec,
		workflows.SubscriptionTarget{SubscriptionID: sub.ID})
	if err != nil {
		return rec, err
	}
	if sub, err = db.GetSubscription(ctx, s.DB, acct.ID, sub.ID); err != nil {
		return billing.SubscriptionRecord{}, err
	}
	return sub.Public(), nil
}

// card sets the card a CARD_CREDIT subscription charges every cycle: the
// account's token it names, or a token of the card it carries, made by the
// billing use case's tokenize-card (the number and CVV go no further: only
// the token, brand and last four digits are stored).
func (s *Subscriptions) card(ctx context.Context, acct domain.Account, in billing.NewSubscription, sub *billing.Subscription) error {
	b := in.Billing
	if b.Card == nil {
		tok, err := db.GetCardToken(ctx, s.DB, acct.ID, b.CardToken)
		if errors.Is(err, domain.ErrNotFound) {
			return domain.Invalid("cardToken", "is not a card token of this account")
		}
		if err != nil {
			return err
		}
		sub.CardToken, sub.CardBrand, sub.CardLast4 = tok.ID, tok.Brand, tok.Last4
		return nil
	}
	v, err := s.Billings.TokenizeCard(ctx, acct, billing.NewCardToken{IdempotencyKey: "subscription:" + sub.ID + ":card",
		Customer: b.Customer, Card: *b.Card, HolderInfo: b.HolderInfo, RemoteIP: b.RemoteIP})
	if err != nil {
		return err
	}
	sub.CardToken, sub.CardBrand, sub.CardLast4 = v.CreditCardToken, v.CreditCardBrand, v.CreditCardNumber
	return nil
}

// Bill makes cycle n's billing through the billing use case, under the key
// that created the subscription, with the idempotency key
// subscription:<id>:<n> (Billings.Create derives the billing's id from it
// and finds the billing a first attempt made). A cycle due before today
// (its workers were down on the due day) bills due today, so the payer gets
// a billing that can still be paid.
func (s *Subscriptions) Bill(ctx context.Context, sub billing.Subscription, n int) (string, error) {
	acct, err := db.GetAccount(ctx, s.DB, sub.AccountID)
	if err != nil {
		return "", err
	}
	key, err := db.KeyByID(ctx, s.DB, sub.APIKeyID)
	if err != nil {
		return "", err
	}
	due := sub.DueOf(n)
	if today := domain.Today(s.now()); due.Before(today) {
		due = today
	}
	cust := sub.Customer
	cust.Email, cust.Phone = sub.CustomerEmail, sub.CustomerPhone
	desc := sub.Description
	if desc == "" {
		desc = fmt.Sprintf("Assinatura %s, ciclo %d", sub.ID, n)
	}
	b, err := s.Billings.Create(ctx, acct, key, billing.NewBilling{
		IdempotencyKey: fmt.Sprintf("subscription:%s:%d", sub.ID, n), Method: sub.Method, Amount: sub.Amount,
		Customer: cust, Description: desc, DueDate: due, InstallmentCount: 1, CardToken: sub.CardToken,
		RemoteIP: sub.RemoteIP, SubscriptionID: sub.ID,
	})
	if err != nil {
		return "", err
	}
	return b.Billing.ID, nil
}

// CancelBilling cancels the subscription's billing if it is still
// PENDING; one paid, overdue (a debt the merchant may still collect) or
// closed stays as it is.
func (s *Subscriptions) CancelBilling(ctx context.Context, sub billing.Subscription, billingID string) error {
	b, err := db.GetBilling(ctx, s.DB, sub.AccountID, billingID)
	if err != nil {
		return err
	}
	if b.Status != billing.BillingPending {
		return nil
	}
	acct, err := db.GetAccount(ctx, s.DB, sub.AccountID)
	if err != nil {
		return err
	}
	_, err = s.Billings.Cancel(ctx, acct, billingID)
	return err
}

package service

import (
	"context"
	"sort"
	"strconv"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/dashboard"
	"github.com/jangada/jangada/domain/subaccount"
)

// What every dashboard user reads: the balance, the statement, each
// payment's whole life and the sub-accounts.

// Balance is the account's balance now.
func (s *Dashboard) Balance(ctx context.Context, u DashboardUser) (Balance, error) {
	if err := may(u, dashboard.ReadMoney); err != nil {
		return Balance{}, err
	}
	return db.GetBalance(ctx, s.DB, u.Account.ID)
}

// Statement is one page of the account's records that f selects.
func (s *Dashboard) Statement(ctx context.Context, u DashboardUser, f ListFilter) ([]domain.Transaction, int, error) {
	if err := may(u, dashboard.ReadMoney); err != nil {
		return nil, 0, err
	}
	return db.ListTransactions(ctx, s.DB, u.Account.ID, f)
}

// Step is one moment of a payment's life as the dashboard shows it.
type Step struct {
	At domain.Time
	// Kind is "record" (the record's own times), "event" or "attempt" (a
	// webhook delivery's HTTP attempt).
	Kind, Title, Detail string
	// Failed marks an attempt that was not answered 2xx.
	Failed bool
	// DeliveryID names the delivery an attempt belongs to (resend).
	DeliveryID string
}

// Timeline is a payment's record and its life, oldest first.
type Timeline struct {
	Record domain.Transaction
	Steps  []Step
}

// responseShown is how much of an endpoint's answer the timeline shows.
const responseShown = 200

// Payment is one of the account's records with its whole life: created,
// its events (paid, expired, settled, refund asked and answered) and each
// webhook delivery's attempts, in order, from the project's own records
// (the events as the merchant receives them, never a workflow's sealed
// payloads).
func (s *Dashboard) Payment(ctx context.Context, u DashboardUser, id string) (Timeline, error) {
	if err := may(u, dashboard.ReadMoney); err != nil {
		return Timeline{}, err
	}
	t, err := db.AccountTransaction(ctx, s.DB, u.Account.ID, id)
	if err != nil {
		return Timeline{}, err
	}
	ids := []string{t.ID}
	if t.Details.Valid && t.Details.V.Refund != nil && t.Details.V.Refund.RefundID != "" {
		ids = append(ids, t.Details.V.Refund.RefundID)
	}
	evs, err := db.AccountEvents(ctx, s.DB, u.Account.ID, ids)
	if err != nil {
		return Timeline{}, err
	}
	steps := []Step{{At: t.CreatedAt, Kind: "record", Title: "created", Detail: t.Type}}
	eventIDs := make([]string, len(evs))
	for i, ev := range evs {
		eventIDs[i] = ev.ID
		steps = append(steps, Step{At: ev.CreatedAt, Kind: "event", Title: ev.Type, Detail: ev.ID})
	}
	ds, err := db.DeliveriesOfEvents(ctx, s.DB, eventIDs)
	if err != nil {
		return Timeline{}, err
	}
	for _, d := range ds {
		for _, a := range d.History {
			steps = append(steps, attemptStep(d, a))
		}
	}
	if t.CompletedAt != nil {
		steps = append(steps, Step{At: *t.CompletedAt, Kind: "record", Title: "completed", Detail: t.Status})
	}
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].At.Before(steps[j].At.Time) })
	return Timeline{Record: t, Steps: steps}, nil
}

// attemptStep is one HTTP attempt of a delivery: when, the status, the
// latency and the first bytes of the answer (or the error).
func attemptStep(d db.Delivery, a db.Attempt) Step {
	st := Step{At: a.StartedAt, Kind: "attempt", Title: d.EventType, DeliveryID: d.ID, Failed: true}
	detail := "sem resposta"
	if a.StatusCode != nil {
		detail = "HTTP " + strconv.Itoa(*a.StatusCode)
		st.Failed = *a.StatusCode < 200 || *a.StatusCode > 299
	}
	detail += " · " + strconv.Itoa(a.LatencyMS) + " ms"
	if a.Error != nil && *a.Error != "" {
		detail += " · " + truncate(*a.Error, responseShown)
	} else if a.ResponseBody != nil && *a.ResponseBody != "" {
		detail += " · " + truncate(*a.ResponseBody, responseShown)
	}
	st.Detail = detail
	return st
}

// SubaccountRow is a sub-account as the dashboard lists it.
type SubaccountRow struct {
	Subaccount subaccount.Subaccount
	Balance    subaccount.Balance
}

// Subaccounts is a page of the account's sub-accounts with their balances
// and portal status.
func (s *Dashboard) Subaccounts(ctx context.Context, u DashboardUser, page int) ([]SubaccountRow, int, error) {
	if err := may(u, dashboard.ReadMoney); err != nil {
		return nil, 0, err
	}
	subs, total, err := db.ListSubaccounts(ctx, s.DB, u.Account.ID, "", page, 50)
	if err != nil {
		return nil, 0, err
	}
	ids := make([]string, len(subs))
	for i, sa := range subs {
		ids[i] = sa.ID
	}
	bs, err := db.SubaccountBalances(ctx, s.DB, ids...)
	if err != nil {
		return nil, 0, err
	}
	rows := make([]SubaccountRow, len(subs))
	for i, sa := range subs {
		sa.PortalPasswordHash = nil
		rows[i] = SubaccountRow{Subaccount: sa, Balance: bs[sa.ID]}
	}
	return rows, total, nil
}

package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/workflows"
)

// LaunchSchedule is a schedule's workflow-start kind (workflow_launches.kind).
const LaunchSchedule = "schedule"

// The sweeper rebuilds a schedule's start from the stored schedule.
var _ = registerLaunch(LaunchSchedule, func(ctx context.Context, q sqlx.QueryerContext, id string) (launch, error) {
	sc, err := db.GetSchedule(ctx, q, "", id)
	return scheduleLaunch(sc), err
})

// scheduleLaunch is a schedule's workflow start, for its create and the sweeper.
func scheduleLaunch(sc schedule.Schedule) launch {
	return launch{LaunchSchedule, sc.ID, workflows.ScheduleStart(sc), workflows.ScheduleWorkflow,
		workflows.ScheduleInput{Schedule: sc, Below: true}}
}

// Schedules runs scheduled transfers: each one is a durable workflow
// (schedule/<id>) that owns its row; this service creates them, forwards
// edits, run-now and cancel to them as updates, makes their runs, and tells
// threshold schedules when their account's balance changed.
type Schedules struct {
	DB        *sqlx.DB
	Temporal  Temporal
	TaskQueue string
	PublicURL string
	// Transfers, Internal and Crypto make a run's transfer, through the
	// API's own code path.
	Transfers *Transfers
	Internal  *Internal
	Crypto    *Crypto
}

// Create stores the schedule and starts its workflow in one database
// transaction (see Charges.Create), under a per-account lock so that the
// limit of active schedules holds under concurrent requests.
func (s *Schedules) Create(ctx context.Context, acct domain.Account, key domain.APIKey, in schedule.NewSchedule) (schedule.Record, error) {
	id := newID("", acct.ID, "schedule", in.IdempotencyKey)
	// A retry answers with the schedule its first attempt stored, before the
	// checks a new one needs (that schedule holds one of the slots now).
	if in.IdempotencyKey != "" {
		sc, err := db.GetSchedule(ctx, s.DB, acct.ID, id)
		if err == nil {
			return sc.Public(), ownsKey(ctx, sc.CreatedAt)
		}
		if !errors.Is(err, domain.ErrNotFound) {
			return schedule.Record{}, err
		}
	}
	// A schedule may only do what its account and key could do by hand.
	if f := in.Payload.Feature(); f != "" {
		if err := acct.Require(f); err != nil {
			return schedule.Record{}, err
		}
	}
	if err := schedule.ActsFor(key, in.Payload, in.CreatedFrom); err != nil {
		return schedule.Record{}, err
	}
	if id := in.Payload.SubaccountID; id != "" {
		if _, err := pixSubaccount(ctx, s.DB, acct, id); err != nil {
			return schedule.Record{}, err
		}
	}
	if in.Payload.Method == schedule.MethodInternal {
		if err := s.checkRecipient(ctx, acct, in.Payload.RecipientEmail); err != nil {
			return schedule.Record{}, err
		}
	}
	now := time.Now().UTC()
	sc := schedule.Schedule{
		ID: id, AccountID: acct.ID, APIKeyID: key.ID, Label: in.Label, Trigger: in.Trigger,
		At: in.At, Rule: in.Rule, Threshold: in.Threshold, MaxRuns: in.MaxRuns, Payload: in.Payload,
		Status: schedule.StatusActive, CreatedAt: now, CreatedFrom: in.CreatedFrom,
	}
	// The first run is planned here so that the answer shows it; the
	// workflow takes it from its input.
	sc.NextRunAt = sc.Next(now)
	err := db.InTx(ctx, s.DB, func(tx *sqlx.Tx) error {
		if err := activities.RequireScheduleSlot(ctx, tx, acct.ID, ""); err != nil {
			return err
		}
		if err := db.InsertSchedule(ctx, tx, sc); err != nil {
			return err
		}
		return recordIntent(ctx, tx, scheduleLaunch(sc))
	})
	if err != nil {
		return schedule.Record{}, err
	}
	launchCommitted(ctx, s.DB, s.Temporal, s.TaskQueue, scheduleLaunch(sc))
	return sc.Public(), nil
}

func (s *Schedules) checkRecipient(ctx context.Context, acct domain.Account, email string) error {
	to, err := db.GetAccountByEmail(ctx, s.DB, email)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Invalid("payload.recipientEmail", "is not the e-mail of a Jangada account")
	}
	if err != nil {
		return err
	}
	if to.ID == acct.ID {
		return domain.Invalid("payload.recipientEmail", "is this account's own e-mail: transfers to yourself are not allowed")
	}
	return nil
}

// Get returns one of the account's schedules.
func (s *Schedules) Get(ctx context.Context, acct domain.Account, id string) (schedule.Record, error) {
	sc, err := db.GetSchedule(ctx, s.DB, acct.ID, id)
	if err != nil {
		return schedule.Record{}, err
	}
	return sc.Public(), nil
}

// List returns a page of the account's schedules, newest first, and how
// many there are.
func (s *Schedules) List(ctx context.Context, acct domain.Account, page, pageSize int) ([]schedule.Schedule, int, error) {
	return db.ListSchedules(ctx, s.DB, acct.ID, page, pageSize)
}

// Update checks the patch against the schedule's trigger and hands it to
// the workflow. Resuming counts against the limit of active schedules
// (activities.Schedules.SaveSchedule).
func (s *Schedules) Update(ctx context.Context, acct domain.Account, id string, p schedule.Patch) (schedule.Record, error) {
	sc, err := s.open(ctx, acct, id)
	if err != nil {
		return schedule.Record{}, err
	}
	if err := sc.CheckPatch(p); err != nil {
		return schedule.Record{}, err
	}
	// A resume's quota check happens in the workflow's save, under the
	// quota lock, so nothing is held here while the update runs.
	return s.update(ctx, id, workflows.ScheduleUpdate, p)
}

// RunNow runs the schedule's transfer at once and answers with the run.
func (s *Schedules) RunNow(ctx context.Context, acct domain.Account, id string) (schedule.Record, error) {
	if _, err := s.open(ctx, acct, id); err != nil {
		return schedule.Record{}, err
	}
	return s.update(ctx, id, workflows.ScheduleRunNow)
}

// Cancel closes the schedule for good (status completed).
func (s *Schedules) Cancel(ctx context.Context, acct domain.Account, id string) (schedule.Record, error) {
	if _, err := s.open(ctx, acct, id); err != nil {
		return schedule.Record{}, err
	}
	return s.update(ctx, id, workflows.ScheduleCancel)
}

// open loads the account's schedule and refuses a closed one.
func (s *Schedules) open(ctx context.Context, acct domain.Account, id string) (schedule.Schedule, error) {
	sc, err := db.GetSchedule(ctx, s.DB, acct.ID, id)
	if err != nil {
		return sc, err
	}
	if sc.Closed() {
		return sc, domain.Invalidf("scheduled transfer %s is %s and can no longer change", sc.ID, sc.Status)
	}
	return sc, nil
}

// update sends an update to the schedule's workflow and waits for the
// record it answers (the service's update). The target last: the workflow
// rejects an update naming another schedule, or none
// (workflows.ScheduleTarget).
func (s *Schedules) update(ctx context.Context, id, name string, args ...any) (schedule.Record, error) {
	var rec schedule.Record
	args = append(args, workflows.ScheduleTarget{ScheduleID: id})
	err := update(ctx, s.Temporal, workflows.ScheduleWorkflowID(id), name, &rec, args...)
	return rec, err
}

// Run makes run number n of a schedule: a real PIX out, internal
// transfer or crypto withdrawal (quoted and sent at once, as
// /transfer-crypto-auto/create does) through the API's code path, under the key that created the
// schedule with its permissions and allowlist as they stand at run time. Its externalReference sched-<id>-<n> makes a retried run find
// the transfer it created instead of sending twice.
func (s *Schedules) Run(ctx context.Context, id string, n int) (schedule.RunResult, error) {
	sc, err := db.GetSchedule(ctx, s.DB, "", id)
	if err != nil {
		return schedule.RunResult{}, err
	}
	acct, err := db.GetAccount(ctx, s.DB, sc.AccountID)
	if err != nil {
		return schedule.RunResult{}, err
	}
	ref := fmt.Sprintf("sched-%s-%d", sc.ID, n)
	// A retried run finds the transfer its first attempt made before it
	// checks the key: the money may have gone out under a key revoked or
	// narrowed since, and a refusal now would record a run that paid as
	// failed (and the next run would take this number's transfer as its own).
	prev, found, err := earlierRun(ctx, s.DB, sc, ref)
	if err != nil {
		return schedule.RunResult{}, err
	}
	if found {
		return runResult(n, prev), nil
	}
	key, err := db.KeyByID(ctx, s.DB, sc.APIKeyID)
	if err != nil {
		return schedule.RunResult{}, err
	}
	// Each new run acts for the key as it stands now: revoked or narrowed,
	// the run fails with the reason recorded.
	if err := schedule.ActsFor(key, sc.Payload, sc.CreatedFrom); err != nil {
		return schedule.RunResult{}, err
	}
	desc := sc.Payload.Description
	if desc == "" {
		desc = truncate("Transferência agendada "+sc.Label, 140)
	}
	p := sc.Payload
	var t domain.Transaction
	switch p.Method {
	case schedule.MethodPix:
		t, err = s.Transfers.Create(ctx, acct, key, domain.NewTransfer{Amount: p.Amount, Description: desc, PixKey: p.PixKey,
			PixKeyType: p.PixKeyType, CoverFee: p.CoverFee, ExternalReference: &ref, SubaccountID: p.SubaccountID})
	case schedule.MethodInternal:
		t, err = s.Internal.Create(ctx, acct, key, domain.NewInternal{Amount: p.Amount, RecipientEmail: p.RecipientEmail,
			Description: desc, ExternalReference: &ref})
	case schedule.MethodCrypto:
		t, err = s.runCrypto(ctx, acct, key, p, desc, ref)
	default:
		err = domain.Invalidf("payload method %s cannot run", p.Method)
	}
	if err != nil {
		return schedule.RunResult{}, err
	}
	return runResult(n, t), nil
}

// earlierRun finds the transfer an earlier attempt of a run made: the
// payload's kind of move whose externalReference is the run's ref.
func earlierRun(ctx context.Context, q sqlx.QueryerContext, sc schedule.Schedule, ref string) (domain.Transaction, bool, error) {
	typ := domain.TypePixOut
	switch sc.Payload.Method {
	case schedule.MethodInternal:
		typ = domain.TypeInternalOut
	case schedule.MethodCrypto:
		typ = domain.TypeCryptoOut
	}
	t, err := db.GetTransaction(ctx, q, sc.AccountID, ref, typ)
	if errors.Is(err, domain.ErrNotFound) {
		return t, false, nil
	}
	return t, err == nil, err
}

// runCrypto makes a cripto run's withdrawal: a quote at the rate of the
// moment, used at once (Crypto.SendAuto), so each run sends the payload's
// BRL amount in the currency it buys then. The account's crypto feature is
// checked again by the crypto use case: switched off since the schedule
// was made, the run fails with that reason recorded.
func (s *Schedules) runCrypto(ctx context.Context, acct domain.Account, key domain.APIKey, p schedule.Payload, desc, ref string) (domain.Transaction, error) {
	if s.Crypto == nil {
		return domain.Transaction{}, domain.Invalidf("crypto withdrawals are not available in this process")
	}
	cur, err := crypto.ParseCryptoCurrency("payload.payCurrency", &p.PayCurrency)
	if err != nil {
		return domain.Transaction{}, err
	}
	return s.Crypto.SendAuto(ctx, acct, key, crypto.NewCryptoWithdrawal{Address: p.Address, Currency: cur, Amount: p.Amount,
		ExtraID: p.ExtraID, Description: desc, ExternalReference: &ref})
}

// runResult is what a run answers for the transfer it made.
func runResult(n int, t domain.Transaction) schedule.RunResult {
	return schedule.RunResult{RunNumber: n, TransactionID: t.ID, Type: t.Type, Status: t.Status, Amount: t.Amount}
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}

// BalanceChanged tells the account's open threshold schedules that its
// available balance changed; each then reads it. An empty accountID tells
// every threshold schedule (after a listener reconnects, when notices may
// have been missed). Call it after the change committed.
func (s *Schedules) BalanceChanged(ctx context.Context, accountID string) error {
	ids, err := db.ThresholdScheduleIDs(ctx, s.DB, accountID)
	if err != nil {
		return err
	}
	var first error
	for _, id := range ids {
		// A schedule whose workflow has ended (or not started yet) has
		// nothing to look at: no error.
		err := signal(ctx, s.Temporal, workflows.ScheduleWorkflowID(id), workflows.BalanceSignal, accountID, "schedule "+id+" has no running workflow")
		if err != nil && !errors.Is(err, domain.ErrInvalid) && first == nil {
			first = err
		}
	}
	return first
}

// WatchBalances listens on the NOTIFY channel that the ledger's trigger
// feeds and signals the threshold schedules of each account named there,
// until ctx ends. NOTIFY is lost while no one listens, so at start and on
// every reconnection every threshold schedule re-reads its balance: the
// balance itself is the durable state, the notice only says "look now".
func (s *Schedules) WatchBalances(ctx context.Context, dsn string) {
	db.Listen(ctx, dsn, []string{db.ScheduleBalanceChannel}, nil, 0, nil, func(_, accountID string) {
		if err := s.BalanceChanged(ctx, accountID); err != nil && ctx.Err() == nil {
			slog.Warn("signal threshold schedules", "account", accountID, "error", err)
		}
	})
}

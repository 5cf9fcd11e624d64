package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
)

// Intent asks FirstRecords to record, with the records, that the resource's
// workflow must be started (workflow_launches; see InsertLaunch).
type Intent struct {
	Kind  string
	Grace time.Duration
}

// FirstRecords writes a new resource's first records in ONE statement: its
// transaction row, its first event and, when intent is set, its workflow
// intent. One statement is atomic on its own, so run on a *sqlx.DB it needs
// no BEGIN and no COMMIT round trips: a create's commit is one round trip
// (and one fsync) instead of five. Run on a *sqlx.Tx it joins that
// transaction. It writes nothing and returns no event when a row with the
// same id exists (a retried create, or a workflow's guard finding the row).
//
// A record with a sub-account (a charge that will credit it) is written only
// if, in that same statement, the sub-account is live, ACTIVE and in a lock
// mode that allows a charge (insertIntoLiveSubaccountSQL): its row is read
// FOR SHARE, so a concurrent delete (service.Subaccounts.Delete, which takes
// the row FOR UPDATE and then counts the open charges) either waits for this
// statement and then sees the charge, or commits first and the guard, which
// re-reads the row it waited for, finds it deleted. Refused, it returns the
// reason as a 4xx error (refusedBySubaccount).
func FirstRecords(ctx context.Context, q sqlx.ExtContext, t domain.Transaction, ev NewEvent, intent *Intent) (*domain.Event, error) {
	out, _, err := FirstRecordsWithOwner(ctx, q, t, ev, intent, nil)
	return out, err
}

// OwnerRow is one more row of another product written in FirstRecords'
// statement (a PIX billing's row, a checkout's session): an INSERT whose
// parameters are $1…$n of Args, made by BillingRow or SessionRow. It is
// written only with the transaction row (its values are selected FROM the
// row's insert): a charge that exists already or is refused writes none.
type OwnerRow struct {
	SQL  string
	Args []any
}

// ownerRowParam is a parameter of an OwnerRow's SQL.
var ownerRowParam = regexp.MustCompile(`\$(\d+)`)

// FirstRecordsWithOwner is FirstRecords with ownerRow (when set), the row
// of the product the charge is made for, written in the same statement:
// one round trip commits both, with no BEGIN and no COMMIT.
// It also reports whether ownerRow was written (false: its id exists).
func FirstRecordsWithOwner(ctx context.Context, q sqlx.ExtContext, t domain.Transaction, ev NewEvent, intent *Intent, ownerRow *OwnerRow) (*domain.Event, bool, error) {
	if !t.Details.Valid {
		t.Details = domain.SomeJSON(domain.Details{})
	}
	sub := t.SubaccountID != nil && *t.SubaccountID != ""
	var insert string
	var args []any
	var err error
	if sub {
		insert, args, err = insertIntoLiveSubaccount(t)
	} else {
		insert, args, err = sqlx.Named(insertTransactionSQL+` RETURNING id, account_id`, t)
	}
	if err != nil {
		return nil, false, fmt.Errorf("db: insert transaction: %w", err)
	}
	data, err := json.Marshal(ev.Data)
	if err != nil {
		return nil, false, fmt.Errorf("db: event data: %w", err)
	}
	n := len(args)
	p := func(i int) string { return "$" + strconv.Itoa(n+i) }
	args = append(args, domain.NewID("evt_"), ev.APIKeyID, ev.Type, string(data))
	query := `WITH t AS (` + sqlx.Rebind(sqlx.DOLLAR, insert) + `),
		e AS (INSERT INTO events (id, account_id, api_key_id, type, resource_id, data)
		      SELECT ` + p(1) + `, t.account_id, ` + p(2) + `, ` + p(3) + `, t.id, ` + p(4) + `::jsonb FROM t
		      RETURNING id, seq, account_id, api_key_id, type, resource_id, data, created_at)`
	if intent != nil {
		args = append(args, intent.Kind, intent.Grace.Seconds())
		query += `,
		l AS (INSERT INTO workflow_launches (kind, resource_id, due_at)
		      SELECT ` + p(5) + `, t.id, now() + make_interval(secs => ` + p(6) + `) FROM t ON CONFLICT DO NOTHING)`
	}
	written := `0`
	if ownerRow != nil {
		off := len(args)
		query += `,
		b AS (` + ownerRowParam.ReplaceAllStringFunc(ownerRow.SQL, func(m string) string {
			i, _ := strconv.Atoi(m[1:])
			return "$" + strconv.Itoa(off+i)
		}) + `)`
		args = append(args, ownerRow.Args...)
		written = `(SELECT count(*) FROM b)`
	}
	var out struct {
		domain.Event
		OwnerRow int `db:"beside_written"`
	}
	err = hotGet(ctx, q, &out, query+` SELECT e.*, `+written+` AS beside_written FROM e`, args...)
	switch {
	case errors.Is(err, sql.ErrNoRows) && sub:
		return nil, false, refusedBySubaccount(ctx, q, t)
	case errors.Is(err, sql.ErrNoRows):
		return nil, false, nil
	case isUniqueViolation(err):
		return nil, false, domain.Invalid("externalReference", "is already used by another %s of this account", t.Type)
	case err != nil:
		return nil, false, fmt.Errorf("db: insert first records: %w", err)
	}
	if tx, ok := q.(*sqlx.Tx); ok {
		noteEvent(tx, out.Event)
	} else {
		pool, _ := q.(*sqlx.DB)
		eventsCommitted(pool, []domain.Event{out.Event})
	}
	return &out.Event, out.OwnerRow == 1, nil
}

// besideSQL turns an INSERT … VALUES (…) ON CONFLICT … into its OwnerRow
// form: the same values selected FROM the transaction row's insert (t).
func besideSQL(insert string) string {
	head, rest, ok := strings.Cut(insert, "VALUES (")
	c := strings.Index(rest, "ON CONFLICT")
	if !ok || c < 0 {
		panic("db: besideSQL: not an INSERT … VALUES (…) ON CONFLICT …")
	}
	i := strings.LastIndex(rest[:c], ")")
	return head + "SELECT " + rest[:i] + " FROM t\n\t" + rest[c:] + " RETURNING 1"
}

// insertSelectSQL is insertTransactionSQL's INSERT with its VALUES as a
// SELECT list, to which a WHERE can be added; INSERT … SELECT takes the
// parameter types from the target columns, as VALUES does.
var insertSelectSQL = func() string {
	head, rest, ok := strings.Cut(insertTransactionSQL, "VALUES (")
	values, _, ok2 := strings.Cut(rest, ")\n\tON CONFLICT")
	if !ok || !ok2 {
		panic("db: insertTransactionSQL changed shape")
	}
	return head + "SELECT " + values
}()

// insertIntoLiveSubaccount is the insert of t written only when its
// sub-account is the account's, not deleted, ACTIVE and in a lock mode that
// allows a charge (the lock table as data: subaccount.ModesAllowing), the
// row read FOR SHARE (see FirstRecords).
func insertIntoLiveSubaccount(t domain.Transaction) (string, []any, error) {
	q, args, err := sqlx.Named(insertSelectSQL, t)
	if err != nil {
		return "", nil, err
	}
	n := len(args)
	p := func(i int) string { return "$" + strconv.Itoa(n+i) }
	args = append(args, *t.SubaccountID, t.AccountID, subaccount.StatusActive, stringArray(subaccount.ModesAllowing(subaccount.OpCharge)))
	return sqlx.Rebind(sqlx.DOLLAR, q) + `
	WHERE EXISTS (SELECT 1 FROM subaccounts WHERE id = ` + p(1) + ` AND account_id = ` + p(2) + `
		AND deleted_at IS NULL AND status = ` + p(3) + ` AND lock_mode = ANY(` + p(4) + `) FOR SHARE)
	ON CONFLICT (id) DO NOTHING RETURNING id, account_id`, args, nil
}

// refusedBySubaccount explains a guarded insert that wrote nothing: the
// record exists (a retry: no error), or its sub-account is gone (404), or
// its status or lock mode refuses a charge (400 naming them). A sub-account
// that allows it again by the time of this read changed under the insert:
// 409, the create may be sent again.
func refusedBySubaccount(ctx context.Context, q sqlx.ExtContext, t domain.Transaction) error {
	var n int
	if err := sqlx.GetContext(ctx, q, &n, `SELECT count(*) FROM transactions WHERE id = $1`, t.ID); err != nil {
		return fmt.Errorf("db: insert first records: %w", err)
	}
	if n > 0 {
		return nil
	}
	s, err := GetSubaccount(ctx, q, t.AccountID, *t.SubaccountID)
	if errors.Is(err, domain.ErrNotFound) {
		return &domain.Error{Kind: domain.ErrNotFound, Message: "subaccountId: sub-account not found (deleted?)"}
	}
	if err != nil {
		return err
	}
	if err := s.Permit(subaccount.OpCharge); err != nil {
		return err
	}
	return &domain.Error{Kind: domain.ErrConflict, Message: "subaccountId: the sub-account changed while the charge was created: send it again"}
}

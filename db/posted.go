package db

import (
	"context"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
)

// insertPostedSQL is InsertPosted's statement around records, the records'
// insert, whose nargs parameters come first; the events' six arrays and
// ledger_post's ten parameters follow. Its text depends only on the number
// of records, so it is prepared once per number.
func insertPostedSQL(records string, nargs int) string {
	next := nargs + 1
	ps := make([]string, 10)
	for i := range ps {
		ps[i] = "$" + strconv.Itoa(next+6+i)
	}
	// The posting runs only when events were written (so the records were
	// new), and after them: the count is a one-time filter PostgreSQL
	// evaluates, writing the records and the events, before it calls
	// ledger_post. The balance locks are taken last and held only for the
	// posting and the commit.
	return `WITH t AS (` + records + ` RETURNING id),
		e AS (` + insertEventsSQL(next, `(SELECT count(*) FROM t) > 0`) + ` RETURNING ` + eventColumns + `),
		p AS (SELECT * FROM ledger_post(` + strings.Join(ps, ", ") + `) WHERE (SELECT count(*) FROM e) > 0)
		SELECT (SELECT count(*) FROM t) AS new, ` + prefixed("p", postColumns) + `, ` + prefixed("e", eventColumns) + `
		FROM p, e ORDER BY e.seq`
}

// InsertPosted stores records made together (the two sides of an internal
// transfer), their events and their posting in one statement that commits
// on its own: one round trip, and the balance locks the posting takes are
// held by PostgreSQL alone, never across a round trip to this process. It
// reports how many records were new; when none is (an attempt of the same
// move stored them), no event is written and ledger_post is not called, so
// nothing moves. The posting follows Post's rules.
func InsertPosted(ctx context.Context, d *sqlx.DB, ts []domain.Transaction, p Posting, evs ...NewEvent) (int, error) {
	records, args, err := insertTransactionsArgs(ts)
	if err != nil {
		return 0, err
	}
	more, err := eventArgs(evs)
	if err != nil {
		return 0, err
	}
	post, accounts, err := postArgs(&p)
	if err != nil {
		return 0, err
	}
	query := insertPostedSQL(records, len(args))
	args = append(append(args, more...), post...)
	var rows []struct {
		New int          `db:"new"`
		P   postResult   `db:"p"`
		E   domain.Event `db:"e"`
	}
	err = hotSelect(ctx, d, &rows, query, args...)
	if isUniqueViolation(err) {
		return 0, domain.Invalid("externalReference", "is already used by another %s of this account", ts[0].Type)
	}
	if err == nil && len(rows) == 0 {
		return 0, nil // no record new: no event written, and no posting made
	}
	var r postResult
	if len(rows) > 0 {
		r = rows[0].P
	}
	if _, err := checkPost(p, accounts, r, err); err != nil {
		return 0, err
	}
	var out []domain.Event
	for _, row := range rows {
		out = append(out, row.E)
	}
	eventsCommitted(d, out)
	return rows[0].New, nil
}

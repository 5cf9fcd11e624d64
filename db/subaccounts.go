package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/money"
)

const subColumns = `id, account_id, name, external_reference, person_type, cpf, birth_date, postal_code, cnpj,
	company_name, site, document_info, status, lock_mode, limit_daily, limit_monthly, limit_per_transaction,
	pricing, portal_state, portal_email, portal_password_hash, portal_email_verified, portal_two_factor,
	portal_last_login_at, portal_session_epoch, created_at, updated_at`

// subConflict names the field a unique violation of the subaccounts table is about.
func subConflict(err error, emailField string) error {
	var pqErr *pq.Error
	if !errors.As(err, &pqErr) || pqErr.Code != "23505" {
		return nil
	}
	if pqErr.Constraint == "subaccounts_portal_email_key" {
		return domain.Invalid(emailField, "is already used by another sub-account portal")
	}
	return domain.Invalid("externalReference", "is already used by another sub-account of this account")
}

// InsertSubaccount stores a new sub-account with its proof document (PJ)
// and opens its ledger accounts, all inside tx.
func InsertSubaccount(ctx context.Context, tx *sqlx.Tx, s subaccount.Subaccount, file []byte) error {
	_, err := tx.ExecContext(ctx, `
		INSERT INTO subaccounts (id, account_id, name, external_reference, person_type, cpf, birth_date, postal_code,
			cnpj, company_name, site, document_info, document_file, pricing, portal_state, portal_email,
			portal_password_hash, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18)`,
		s.ID, s.AccountID, s.Name, s.ExternalReference, s.PersonType, s.CPF, s.BirthDate, s.PostalCode,
		s.CNPJ, s.CompanyName, s.Site, s.Document, file, s.Pricing, s.PortalState, s.PortalEmail,
		s.PortalPasswordHash, s.CreatedAt)
	if c := subConflict(err, "portalEmail"); c != nil {
		return c
	}
	if err != nil {
		return fmt.Errorf("db: insert sub-account: %w", err)
	}
	_, err = tx.ExecContext(ctx, `
		INSERT INTO ledger_accounts (id, account_id, kind) VALUES
			($1, $4, 'sub_available'), ($2, $4, 'sub_pending'), ($3, $4, 'sub_locked')`,
		domain.AvailableLedger(s.ID), domain.PendingLedger(s.ID), subaccount.LockedLedger(s.ID), s.AccountID)
	if err != nil {
		return fmt.Errorf("db: open sub-account ledger accounts: %w", err)
	}
	return nil
}

// GetSubaccount loads one of the account's live sub-accounts by id or by
// externalReference. Another account's sub-account is simply not found.
func GetSubaccount(ctx context.Context, q sqlx.QueryerContext, accountID, idOrRef string) (subaccount.Subaccount, error) {
	var s subaccount.Subaccount
	err := sqlx.GetContext(ctx, q, &s, `
		SELECT `+subColumns+` FROM subaccounts
		WHERE account_id = $1 AND deleted_at IS NULL AND (id = $2 OR external_reference = $2)
		ORDER BY (id = $2) DESC LIMIT 1`, accountID, idOrRef)
	if errors.Is(err, sql.ErrNoRows) {
		return s, domain.NotFound("sub-account")
	}
	if err != nil {
		return s, fmt.Errorf("db: get sub-account: %w", err)
	}
	return s, nil
}

// LockSubaccounts loads the account's live sub-accounts with the given ids
// FOR UPDATE, in id order (so that two moves over the same pair cannot
// deadlock), and returns them in the order asked. A missing one is a 404
// naming field. This row lock serialises every debit of a sub-account, which
// is what makes the limit check atomic with the debit.
func LockSubaccounts(ctx context.Context, tx *sqlx.Tx, accountID string, fields []string, ids ...string) ([]subaccount.Subaccount, error) {
	var rows []subaccount.Subaccount
	if err := tx.SelectContext(ctx, &rows, `
		SELECT `+subColumns+` FROM subaccounts
		WHERE account_id = $1 AND deleted_at IS NULL AND id = ANY($2) ORDER BY id FOR UPDATE`,
		accountID, stringArray(ids)); err != nil {
		return nil, fmt.Errorf("db: lock sub-accounts: %w", err)
	}
	out := make([]subaccount.Subaccount, len(ids))
	for i, id := range ids {
		found := false
		for _, r := range rows {
			if r.ID == id {
				out[i], found = r, true
			}
		}
		if !found {
			return nil, &domain.Error{Kind: domain.ErrNotFound, Message: fields[i] + ": sub-account not found"}
		}
	}
	return out, nil
}

// ListSubaccounts returns one page of the account's live sub-accounts,
// newest first, optionally of one status, and the total.
func ListSubaccounts(ctx context.Context, q sqlx.QueryerContext, accountID, status string, page, pageSize int) ([]subaccount.Subaccount, int, error) {
	return listPage[subaccount.Subaccount](ctx, q, "sub-accounts", subColumns, "subaccounts",
		"account_id = $1 AND deleted_at IS NULL AND ($2 = '' OR status = $2)", []any{accountID, status}, page, pageSize)
}

// SaveSubaccount writes the mutable fields of s (name, status, lock, limits,
// pricing, portal) inside tx; the caller holds its row lock.
func SaveSubaccount(ctx context.Context, tx *sqlx.Tx, s subaccount.Subaccount) error {
	_, err := tx.ExecContext(ctx, `
		UPDATE subaccounts SET name = $2, status = $3, lock_mode = $4, limit_daily = $5, limit_monthly = $6,
			limit_per_transaction = $7, pricing = $8, portal_state = $9, portal_email = $10,
			portal_password_hash = $11, portal_email_verified = $12, portal_two_factor = $13,
			portal_session_epoch = $14, updated_at = now(),
			-- A second factor turned off takes its secret and recovery codes with it.
			portal_totp_secret = CASE WHEN $13 THEN portal_totp_secret END,
			portal_recovery_hashes = CASE WHEN $13 THEN portal_recovery_hashes ELSE '{}' END
		WHERE id = $1`, s.ID, s.Name, s.Status, s.LockMode, s.LimitDaily, s.LimitMonthly, s.LimitPerTransaction,
		s.Pricing, s.PortalState, s.PortalEmail, s.PortalPasswordHash, s.PortalEmailVerified, s.PortalTwoFactor,
		s.PortalEpoch)
	if c := subConflict(err, "email"); c != nil {
		return c
	}
	if err != nil {
		return fmt.Errorf("db: save sub-account: %w", err)
	}
	return nil
}

// DeleteSubaccount marks the sub-account deleted; its ledger accounts stay
// (the ledger is immutable) and hold zero.
func DeleteSubaccount(ctx context.Context, tx *sqlx.Tx, id string) error {
	// Its portal's sessions end with it (the epoch moves).
	_, err := tx.ExecContext(ctx, `UPDATE subaccounts SET deleted_at = now(), updated_at = now(),
		portal_session_epoch = portal_session_epoch + 1 WHERE id = $1`, id)
	if err != nil {
		return fmt.Errorf("db: delete sub-account: %w", err)
	}
	return nil
}

// SubaccountBalance computes a sub-account's balance (docs/ledger.md):
// spendable is the withdrawable money of its available ledger account.
func SubaccountBalance(ctx context.Context, q sqlx.QueryerContext, id string) (subaccount.Balance, error) {
	bs, err := SubaccountBalances(ctx, q, id)
	if err != nil {
		return subaccount.Balance{}, err
	}
	b, ok := bs[id]
	if !ok {
		return subaccount.Balance{}, fmt.Errorf("db: balance of sub-account %s: no ledger accounts", id)
	}
	return b, nil
}

// SubaccountBalances computes the balances of several sub-accounts in two
// queries (a list page reads its balances at once).
func SubaccountBalances(ctx context.Context, q sqlx.QueryerContext, ids ...string) (map[string]subaccount.Balance, error) {
	bs, err := GetBalances(ctx, q, ids...)
	if err != nil {
		return nil, err
	}
	lockedIDs := make([]string, len(ids))
	for i, id := range ids {
		lockedIDs[i] = subaccount.LockedLedger(id)
	}
	var held []struct {
		ID      string      `db:"id"`
		Balance money.Cents `db:"balance"`
	}
	if err := sqlx.SelectContext(ctx, q, &held, `SELECT id, balance FROM ledger_accounts WHERE id = ANY($1)`, stringArray(lockedIDs)); err != nil {
		return nil, fmt.Errorf("db: locked balances: %w", err)
	}
	locked := make(map[string]money.Cents, len(held))
	for _, h := range held {
		locked[h.ID] = h.Balance
	}
	out := make(map[string]subaccount.Balance, len(bs))
	for _, id := range ids {
		b, ok := bs[id]
		l, held := locked[subaccount.LockedLedger(id)]
		if !ok || !held {
			continue
		}
		out[id] = subaccount.Balance{SpendablePadrao: b.Withdrawable, AvailablePadrao: b.Available,
			LockedPadrao: l, PendingPadrao: b.Pending}
	}
	return out, nil
}

// OpenCharges counts the sub-account's charges still waiting to be paid:
// each would credit it when paid.
func OpenCharges(ctx context.Context, q sqlx.QueryerContext, subID string) (int, error) {
	var n int
	err := sqlx.GetContext(ctx, q, &n, `
		SELECT count(*) FROM transactions WHERE subaccount_id = $1 AND type = $2 AND status = $3`,
		subID, domain.TypePixIn, domain.StatusPending)
	if err != nil {
		return 0, fmt.Errorf("db: open charges of %s: %w", subID, err)
	}
	return n, nil
}

// SubaccountDebitTypes are the record types that debit the sub-account named
// in their subaccount_id: what the limits count. A refund's PIX_REFUND
// statement line carries the sub-account its deposit credited
// (activities.RequestRefund), so refunds count as the debits they are.
var SubaccountDebitTypes = []string{subaccount.TypeRemoveBalance, subaccount.TypeTransfer, domain.TypePixOut, domain.TypeRefund}

// reservedStatuses are the states in which a debit holds money: reserved
// (PENDING, PROCESSING: a PIX out in its settlement window or held for
// security review) or gone (COMPLETED). A FAILED debit gave its money back,
// so it gives its room under the limits back too.
var reservedStatuses = []string{domain.StatusPending, domain.StatusProcessing, domain.StatusCompleted}

// SpentBetween sums the debits of a sub-account reserved in [from, to):
// every debit counts from the moment it is reserved (its created_at), in the
// period of that moment, for as long as it is not FAILED. The caller holds
// the sub-account's row lock (LockSubaccounts), which every debit takes
// before it reserves, so the sum cannot miss a concurrent debit. The index
// transactions_subaccount_debits_idx (00010) serves the query.
func SpentBetween(ctx context.Context, q sqlx.QueryerContext, subID string, from, to time.Time) (money.Cents, error) {
	var spent money.Cents
	err := sqlx.GetContext(ctx, q, &spent, `
		SELECT COALESCE(sum(amount), 0) FROM transactions
		WHERE subaccount_id = $1 AND type = ANY($2) AND status = ANY($3) AND created_at >= $4 AND created_at < $5`,
		subID, stringArray(SubaccountDebitTypes), stringArray(reservedStatuses), from, to)
	if err != nil {
		return 0, fmt.Errorf("db: spent by %s: %w", subID, err)
	}
	return spent, nil
}

// ShareSubaccount reports whether the account's sub-account id is live
// (not deleted), holding a share lock on its row until tx ends: a charge's
// settlement takes it before it credits the sub-account, so a delete (which
// takes the row FOR UPDATE) cannot slip between the check and the credit.
func ShareSubaccount(ctx context.Context, tx *sqlx.Tx, accountID, id string) (bool, error) {
	var ids []string
	err := tx.SelectContext(ctx, &ids, `
		SELECT id FROM subaccounts WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL FOR SHARE`, id, accountID)
	if err != nil {
		return false, fmt.Errorf("db: share sub-account %s: %w", id, err)
	}
	return len(ids) == 1, nil
}

// CreditMainInstead moves a charge whose sub-account was deleted before it
// was paid to the main account (subaccount_id cleared, so that its
// settlement and any later refund follow the main account's wallet) and
// appends note, saying why, to its description: the statement line tells
// the merchant where the money went. Inside the settlement's transaction.
// It returns the description as stored.
func CreditMainInstead(ctx context.Context, tx *sqlx.Tx, chargeID, note string) (string, error) {
	var desc string
	err := tx.GetContext(ctx, &desc, `
		UPDATE transactions SET subaccount_id = NULL,
			description = CASE WHEN description = '' THEN $2 ELSE description || ' — ' || $2 END
		WHERE id = $1 RETURNING description`, chargeID, note)
	if err != nil {
		return "", fmt.Errorf("db: credit %s to the main account: %w", chargeID, err)
	}
	return desc, nil
}

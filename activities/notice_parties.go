package activities

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// noticeParty is the party a processor's notice names for the record id:
// the one the Inbox kept in PostgreSQL (it signals without it), or the one
// a notice of an older history still carries (sent).
func noticeParty(ctx context.Context, tx *sqlx.Tx, id string, sent *domain.Party) (*domain.Party, error) {
	if sent != nil {
		return sent, nil
	}
	return db.NoticeParty(ctx, tx, id)
}

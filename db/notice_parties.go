package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
)

// SaveNoticeParty keeps the party a processor's notice names for the
// resource id (a charge's payer), the latest notice's winning.
func SaveNoticeParty(ctx context.Context, q sqlx.ExecerContext, id string, p domain.Party) error {
	_, err := q.ExecContext(ctx, `INSERT INTO notice_parties (resource_id, party) VALUES ($1, $2)
		ON CONFLICT (resource_id) DO UPDATE SET party = EXCLUDED.party`, id, domain.SomeJSON(p))
	if err != nil {
		return fmt.Errorf("db: save notice party: %w", err)
	}
	return nil
}

// NoticeParty is the party kept for the resource id; nil when none is.
func NoticeParty(ctx context.Context, q sqlx.QueryerContext, id string) (*domain.Party, error) {
	var p domain.JSONB[domain.Party]
	err := sqlx.GetContext(ctx, q, &p, `SELECT party FROM notice_parties WHERE resource_id = $1`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("db: notice party: %w", err)
	}
	return p.Ptr(), nil
}

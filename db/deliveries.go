package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/domain"
)

// Webhook delivery statuses.
const (
	DeliveryPending   = "PENDING"
	DeliveryDelivered = "DELIVERED"
	DeliveryFailed    = "FAILED"
	DeliveryCanceled  = "CANCELED"
)

// Delivery is one (event, endpoint) delivery and its current state.
type Delivery struct {
	ID             string       `db:"id" json:"id"`
	EventID        string       `db:"event_id" json:"eventId"`
	EndpointID     string       `db:"endpoint_id" json:"endpointId"`
	AccountID      string       `db:"account_id" json:"-"`
	EventType      string       `db:"event_type" json:"event"`
	Status         string       `db:"status" json:"status"`
	Attempts       int          `db:"attempts" json:"attempts"`
	Redeliveries   int          `db:"redeliveries" json:"redeliveries"`
	LastStatusCode *int         `db:"last_status_code" json:"lastStatusCode,omitempty"`
	LastError      *string      `db:"last_error" json:"lastError,omitempty"`
	NextAttemptAt  *domain.Time `db:"next_attempt_at" json:"nextAttemptAt,omitempty"`
	DeliveredAt    *domain.Time `db:"delivered_at" json:"deliveredAt,omitempty"`
	CreatedAt      domain.Time  `db:"created_at" json:"createdAt"`
	// History is filled by ListDeliveries.
	History []Attempt `db:"-" json:"history"`
}

// Attempt is one recorded HTTP attempt of a delivery.
type Attempt struct {
	DeliveryID   string      `db:"delivery_id" json:"-"`
	Run          int         `db:"run" json:"run"`
	Attempt      int         `db:"attempt" json:"attempt"`
	StartedAt    domain.Time `db:"started_at" json:"at"`
	StatusCode   *int        `db:"status_code" json:"statusCode"`
	LatencyMS    int         `db:"latency_ms" json:"latencyMs"`
	Error        *string     `db:"error" json:"error,omitempty"`
	ResponseBody *string     `db:"response_body" json:"responseBody,omitempty"`
}

const deliveryColumns = `id, event_id, endpoint_id, account_id, event_type, status, attempts, redeliveries,
	last_status_code, last_error, next_attempt_at, delivered_at, created_at`

// InsertDeliveries creates the deliveries that do not exist yet (a
// re-dispatched event finds its deliveries already there).
func InsertDeliveries(ctx context.Context, tx *sqlx.Tx, ds []Delivery) error {
	for _, d := range ds {
		_, err := tx.ExecContext(ctx, `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, account_id, event_type)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, d.ID, d.EventID, d.EndpointID, d.AccountID, d.EventType)
		if err != nil {
			return fmt.Errorf("db: insert delivery: %w", err)
		}
	}
	return nil
}

// PendingDeliveries lists the still pending deliveries of the events: those
// whose workflow a dispatch must (re)start.
func PendingDeliveries(ctx context.Context, q sqlx.QueryerContext, eventIDs []string) ([]Delivery, error) {
	var out []Delivery
	err := hotSelect(ctx, q, &out, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE event_id = ANY($1) AND status = 'PENDING' AND attempts = 0 AND redeliveries = 0 ORDER BY id`, pq.StringArray(eventIDs))
	if err != nil {
		return nil, fmt.Errorf("db: pending deliveries: %w", err)
	}
	return out, nil
}

// DeliveryTarget is what an attempt needs: the delivery, its endpoint as it
// is now (URL and secret may have changed since the event) and the event.
type DeliveryTarget struct {
	Delivery        Delivery
	URL             string
	Secret          string
	EndpointStatus  string
	EndpointDeleted bool
	Event           domain.Event
}

// GetDeliveryTarget loads a delivery with its endpoint and event.
func GetDeliveryTarget(ctx context.Context, q sqlx.QueryerContext, id string) (DeliveryTarget, error) {
	var row struct {
		Delivery
		URL       string          `db:"url"`
		Secret    string          `db:"secret"`
		EpStatus  string          `db:"ep_status"`
		Deleted   bool            `db:"ep_deleted"`
		EvSeq     int64           `db:"ev_seq"`
		EvKey     *string         `db:"ev_key"`
		EvRes     string          `db:"ev_resource"`
		EvData    json.RawMessage `db:"ev_data"`
		EvCreated domain.Time     `db:"ev_created"`
	}
	err := hotGet(ctx, q, &row, `
		SELECT d.id, d.event_id, d.endpoint_id, d.account_id, d.event_type, d.status, d.attempts, d.redeliveries,
			d.last_status_code, d.last_error, d.next_attempt_at, d.delivered_at, d.created_at,
			w.url, w.secret, w.status AS ep_status, w.deleted_at IS NOT NULL AS ep_deleted,
			e.seq AS ev_seq, e.api_key_id AS ev_key, e.resource_id AS ev_resource, e.data AS ev_data, e.created_at AS ev_created
		FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN events e ON e.id = d.event_id
		WHERE d.id = $1`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return DeliveryTarget{}, domain.NotFound("delivery")
	}
	if err != nil {
		return DeliveryTarget{}, fmt.Errorf("db: delivery target: %w", err)
	}
	return DeliveryTarget{
		Delivery: row.Delivery, URL: row.URL, Secret: row.Secret, EndpointStatus: row.EpStatus, EndpointDeleted: row.Deleted,
		Event: domain.Event{ID: row.EventID, Seq: row.EvSeq, AccountID: row.AccountID, APIKeyID: row.EvKey, Type: row.EventType,
			ResourceID: row.EvRes, Data: row.EvData, CreatedAt: row.EvCreated},
	}, nil
}

// AttemptRecord is one finished attempt and the delivery state it leads to.
type AttemptRecord struct {
	Attempt
	// Status is the delivery's status after this attempt ("" leaves it, as
	// a failed manual attempt does); a DELIVERED delivery stays so.
	Status        string
	NextAttemptAt *time.Time
}

// RecordAttempt stores an attempt and moves its delivery, once: replaying
// the same (run, attempt) changes nothing.
func RecordAttempt(ctx context.Context, d *sqlx.DB, r AttemptRecord) error {
	return InTx(ctx, d, func(tx *sqlx.Tx) error {
		res, err := hotExec(ctx, tx, `INSERT INTO webhook_attempts
			(delivery_id, run, attempt, started_at, status_code, latency_ms, error, response_body)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
			r.DeliveryID, r.Run, r.Attempt.Attempt, r.StartedAt, r.StatusCode, r.LatencyMS, r.Error, r.ResponseBody)
		if err != nil {
			return fmt.Errorf("db: insert attempt: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		_, err = hotExec(ctx, tx, `UPDATE webhook_deliveries SET
				attempts = attempts + 1,
				status = CASE WHEN status = 'DELIVERED' OR $2 = '' THEN status ELSE $2 END,
				delivered_at = CASE WHEN $2 = 'DELIVERED' THEN COALESCE(delivered_at, $3) ELSE delivered_at END,
				last_status_code = $4, last_error = $5,
				next_attempt_at = CASE WHEN $2 = 'PENDING' THEN $6 WHEN $2 = '' THEN next_attempt_at END,
				updated_at = now()
			WHERE id = $1`,
			r.DeliveryID, r.Status, r.StartedAt, r.StatusCode, r.Error, r.NextAttemptAt)
		if err != nil {
			return fmt.Errorf("db: update delivery: %w", err)
		}
		return nil
	})
}

// BeginRedelivery counts a manual redelivery and returns the delivery with
// the number of its run and the attempts made so far.
func BeginRedelivery(ctx context.Context, d *sqlx.DB, id string) (Delivery, error) {
	var out Delivery
	err := d.GetContext(ctx, &out, `UPDATE webhook_deliveries SET redeliveries = redeliveries + 1, updated_at = now()
		WHERE id = $1 RETURNING `+deliveryColumns, id)
	if errors.Is(err, sql.ErrNoRows) {
		return out, domain.NotFound("delivery")
	}
	if err != nil {
		return out, fmt.Errorf("db: redeliver: %w", err)
	}
	return out, nil
}

// GetDelivery reads one delivery with its attempts.
func GetDelivery(ctx context.Context, q sqlx.QueryerContext, id string) (Delivery, error) {
	var out Delivery
	err := hotGet(ctx, q, &out, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE id = $1`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return out, domain.NotFound("delivery")
	}
	if err != nil {
		return out, fmt.Errorf("db: get delivery: %w", err)
	}
	ds := []Delivery{out}
	if err := attachAttempts(ctx, q, ds); err != nil {
		return out, err
	}
	return ds[0], nil
}

// ListDeliveries returns one page of an endpoint's deliveries, newest
// first, each with its attempts; status "" means any.
func ListDeliveries(ctx context.Context, q sqlx.QueryerContext, endpointID, status string, page, pageSize int) ([]Delivery, int, error) {
	items, total, err := listPage[Delivery](ctx, q, "deliveries", deliveryColumns, "webhook_deliveries",
		"endpoint_id = $1 AND ($2 = '' OR status = $2)", []any{endpointID, status}, page, pageSize)
	if err != nil {
		return nil, 0, err
	}
	return items, total, attachAttempts(ctx, q, items)
}

// EndpointExists reports whether an endpoint was ever created (deleted ones
// keep their history).
func EndpointExists(ctx context.Context, q sqlx.QueryerContext, id string) (bool, error) {
	var ok bool
	err := sqlx.GetContext(ctx, q, &ok, `SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = $1)`, id)
	return ok, err
}

func attachAttempts(ctx context.Context, q sqlx.QueryerContext, ds []Delivery) error {
	if len(ds) == 0 {
		return nil
	}
	ids := make([]string, len(ds))
	for i, d := range ds {
		ids[i] = d.ID
		ds[i].History = []Attempt{}
	}
	var as []Attempt
	if err := sqlx.SelectContext(ctx, q, &as, `SELECT delivery_id, run, attempt, started_at, status_code, latency_ms, error, response_body
		FROM webhook_attempts WHERE delivery_id = ANY($1) ORDER BY started_at, run, attempt`, pq.StringArray(ids)); err != nil {
		return fmt.Errorf("db: attempts: %w", err)
	}
	at := map[string]int{}
	for i, d := range ds {
		at[d.ID] = i
	}
	for _, a := range as {
		i := at[a.DeliveryID]
		ds[i].History = append(ds[i].History, a)
	}
	return nil
}

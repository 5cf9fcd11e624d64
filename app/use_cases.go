package app

import (
	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/service"
)

// useCases builds each product's use case on the process's database,
// Temporal client and processor adapter; a product's use case that
// another's needs (a billing's charge, a subscription's billing) is built
// first. It answers the internal transfers' use case, which only the API
// and the schedules use.
func (a *App) useCases(proc processor.Processor) *service.Internal {
	cfg, d := a.Cfg, a.DB
	a.Starts = &service.LaunchPool{DB: d, Temporal: a.Temporal, TaskQueue: cfg.TaskQueue}
	a.Charges = &service.Charges{DB: d, Processor: proc, Starts: a.Starts, PublicURL: cfg.PublicURL}
	a.Transfers = &service.Transfers{DB: d, Temporal: a.Temporal, TaskQueue: cfg.TaskQueue, PublicURL: cfg.PublicURL}
	a.Refunds = &service.Refunds{DB: d, Temporal: a.Temporal, TaskQueue: cfg.TaskQueue, PublicURL: cfg.PublicURL}
	internal := &service.Internal{DB: d, PublicURL: cfg.PublicURL, RecipientTTL: cfg.KeyCacheTTL, Ledger: ledgerGroup(d, cfg.LedgerBatch)}
	a.Subaccounts = &service.Subaccounts{DB: d, Moves: subaccountGroup(d, cfg.LedgerBatch)}
	if internal.Ledger != nil {
		a.lanes = append(a.lanes, internal.Ledger.Warm)
	}
	if a.Subaccounts.Moves != nil {
		a.lanes = append(a.lanes, a.Subaccounts.Moves.Warm)
	}
	// Store: customers, products, coupons.
	a.Customers = &service.Customers{DB: d}
	a.Products = &service.Products{DB: d}
	a.Coupons = &service.Coupons{DB: d}
	// PIX automatic: authorizations and their instructions (one workflow per authorization).
	a.PixAutomatic = &service.PixAutomatic{DB: d, Temporal: a.Temporal, TaskQueue: cfg.TaskQueue, Processor: proc}
	// Billings.
	a.Billings = &service.Billings{DB: d, Processor: proc, Charges: a.Charges, Starts: a.Starts, Temporal: a.Temporal, TaskQueue: cfg.TaskQueue, PublicURL: cfg.PublicURL}
	// Mobile recharge and crypto.
	a.Recharges = &service.Recharges{DB: d, Temporal: a.Temporal, TaskQueue: cfg.TaskQueue, Processor: proc}
	a.Crypto = &service.Crypto{DB: d, Temporal: a.Temporal, TaskQueue: cfg.TaskQueue, Processor: proc}
	// Scheduled transfers: each run through the PIX, internal or crypto use case.
	a.Schedules = &service.Schedules{DB: d, Temporal: a.Temporal, TaskQueue: cfg.TaskQueue, PublicURL: cfg.PublicURL,
		Transfers: a.Transfers, Internal: internal, Crypto: a.Crypto}
	// Subscriptions: each cycle's billing through the billing use case.
	a.Subscriptions = &service.Subscriptions{DB: d, Temporal: a.Temporal, TaskQueue: cfg.TaskQueue, Billings: a.Billings}
	// Credit bureau.
	a.Bureau = &service.Bureau{DB: d, Temporal: a.Temporal, TaskQueue: cfg.TaskQueue, Processor: proc}
	return internal
}

// ledgerGroup is the internal transfers' group commit, or none when a batch
// may carry only one move (each then commits alone, db.InsertPosted).
func ledgerGroup(d *sqlx.DB, maxBatch int) *db.GroupCommit {
	if maxBatch <= 1 {
		return nil
	}
	return &db.GroupCommit{DB: d, MaxBatch: min(maxBatch, db.DefaultMaxBatch), Sent: ledgerBatches.sent}
}

// subaccountGroup is the sub-account moves' group commit, under the same
// bound as the ledger's (JANGADA_LEDGER_BATCH), or none when it is 1. It
// sends one batch at a time: the moves of a busy sub-account all wait for
// its row lock, so a second batch in flight would only wait behind the
// first, and split the queue into smaller batches (measured: 7 moves a
// batch with one lane, 4.6 with two, and about 10 % more moves a second).
func subaccountGroup(d *sqlx.DB, maxBatch int) *db.SubaccountGroup {
	if maxBatch <= 1 {
		return nil
	}
	return &db.SubaccountGroup{DB: d, MaxBatch: min(maxBatch, db.DefaultMaxBatch), Lanes: 1, Sent: subaccountBatches.sent}
}

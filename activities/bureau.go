package activities

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain/bureau"
	"github.com/jangada/jangada/processor"
)

// BureauFeeKind is the ledger kind of credit bureau fees.
const BureauFeeKind = "BUREAU_FEE"

// Bureau are the credit bureau's activities: a dunning's submission to the
// bureau and its conclusion.
type Bureau struct {
	Base
	Processor processor.Bureau
}

// InsertDunning writes a dunning's first records in tx: its row (with the
// documents file) and the fee's debit from withdrawable money (posting
// dunning:<id>:fee). It reports false, writing nothing, when the dunning
// exists; a fee the withdrawable balance cannot pay fails with
// domain.ErrInsufficientBalance and the caller rolls back.
func InsertDunning(ctx context.Context, tx *sqlx.Tx, d bureau.Dunning, document []byte) (bool, error) {
	fresh, err := db.InsertDunning(ctx, tx, d, document)
	if err != nil || !fresh {
		return fresh, err
	}
	_, err = db.Post(ctx, tx, dunningFeePosting(d))
	return true, err
}

// InsertReport writes a credit report and its fee's debit (posting
// report:<id>:fee) in tx; false when it exists.
func InsertReport(ctx context.Context, tx *sqlx.Tx, r bureau.Report) (bool, error) {
	fresh, err := db.InsertReport(ctx, tx, r)
	if err != nil || !fresh {
		return fresh, err
	}
	_, err = db.Post(ctx, tx, reportFeePosting(r))
	return true, err
}

// SubmitDunning sends a PENDING dunning, with its documents file, to the
// bureau (idempotent there on the dunning id) and moves it to
// AWAITING_APPROVAL with the bureau's reference. A dunning past PENDING
// is returned as it is.
func (a *Bureau) SubmitDunning(ctx context.Context, id string) (bureau.Dunning, error) {
	d, err := db.GetDunning(ctx, a.DB, "", id)
	if err != nil || d.Status != bureau.DunningPending {
		return d, err
	}
	doc, err := db.DunningDocument(ctx, a.DB, id)
	if err != nil {
		return d, err
	}
	sub, err := a.Processor.RequestDunning(ctx, processor.DunningRequest{ID: d.ID, BillingID: d.Payment, Value: d.Value,
		Debtor: d.Debtor.V, Document: doc, DocumentType: d.DocumentType})
	if err != nil {
		return d, fmt.Errorf("processor: request dunning: %w", err)
	}
	d, _, err = runStep(ctx, a.DB, id, dunningRecords, func(_ *sqlx.Tx, d *bureau.Dunning) (change, error) {
		if d.Status != bureau.DunningPending {
			return change{}, nil
		}
		d.Status, d.ReferenceID = bureau.DunningAwaitingApproval, &sub.ReferenceID
		return emit(), nil
	})
	return d, err
}

// ConcludeDunning applies the bureau's answer: PROCESSED, or DENIED with
// its reason and the fee given back (posting dunning:<id>:fee-returned).
// A dunning concluded already is returned as it is.
func (a *Bureau) ConcludeDunning(ctx context.Context, n processor.DunningNotice) (bureau.Dunning, error) {
	d, _, err := runStep(ctx, a.DB, n.DunningID, dunningRecords, func(tx *sqlx.Tx, d *bureau.Dunning) (change, error) {
		if d.Status != bureau.DunningPending && d.Status != bureau.DunningAwaitingApproval {
			return change{}, nil
		}
		if n.Outcome != processor.OutcomeDenied {
			d.Status = bureau.DunningProcessed
			return emit(), nil
		}
		d.Status, d.Reason = bureau.DunningDenied, &n.Reason
		_, err := db.Post(ctx, tx, dunningFeeReturnPosting(*d))
		return emit(), err
	})
	return d, err
}

// dunningRecords are the dunnings' rows for a step: a dunning has no
// events.
var dunningRecords = ownTable(db.LockDunning, db.UpdateDunning, nil)

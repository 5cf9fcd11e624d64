package activities

import (
	"context"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	meddom "github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
)

// MEDs are the MED dispute workflow's activities. A dispute is a
// transactions row of type MED; opening it blocks the disputed value in
// the wallet the deposit credited (the account, or its sub-account), and
// its outcome returns the block to the payer or releases it
// (docs/ledger.md, "MED disputes").
type MEDs struct {
	Base
	Processor processor.MED
}

// DisputeHold is a MED block: up to Amount of Wallet's available money
// moved to its locked ledger account, once per Key. Own is the part of the
// disputed money that is the deposit's own locked money (what its wallet
// received locked for it: depositHold), posted with the deposit's lock
// date (LockedUntil) so that blocking a deposit still within its 24 h
// takes its locked money, not the wallet's free money (as a refund does),
// nor another deposit's locked money.
type DisputeHold struct {
	AccountID     string
	Wallet        string
	Key           string
	TransactionID string
	Amount        money.Cents
	Own           money.Cents
	LockedUntil   *time.Time
}

// isSub reports whether the hold's wallet is a sub-account.
func (h DisputeHold) isSub() bool { return h.Wallet != h.AccountID }

// HoldDisputed blocks what it can of h.Amount inside tx and returns what it
// moved (min of the amount and the wallet's available money; the rest is
// the dispute's shortfall). A sub-account's row is locked first (the order
// every sub-account debit takes), then the ledger rows; a sub-account that
// is not the account's live one is not found. The MED hook is never
// refused by a lock mode: it holds a payer's money where it is. A key
// already posted moves nothing (0).
func HoldDisputed(ctx context.Context, tx *sqlx.Tx, h DisputeHold) (money.Cents, error) {
	locked := subaccount.LockedLedger(h.Wallet)
	if h.isSub() {
		if _, err := db.LockSubaccounts(ctx, tx, h.AccountID, []string{"subaccountId"}, h.Wallet); err != nil {
			return 0, err
		}
	} else if err := db.EnsureLockedLedger(ctx, tx, locked, h.AccountID); err != nil {
		return 0, err
	}
	if err := db.LockLedgerAccounts(ctx, tx, domain.AvailableLedger(h.Wallet), locked); err != nil {
		return 0, err
	}
	b, err := db.GetBalance(ctx, tx, h.Wallet)
	if err != nil {
		return 0, err
	}
	moved := max(min(h.Amount, b.Available), 0)
	if moved == 0 {
		return 0, nil
	}
	posted, err := db.Post(ctx, tx, medHoldPosting(h, moved))
	if err != nil || !posted {
		return 0, err
	}
	return moved, nil
}

// ReleaseDisputed moves a hold back from locked to available (a dispute
// decided in the receiver's favour), once per key, inside tx; the
// deposit's own part gets its lock date back.
func ReleaseDisputed(ctx context.Context, tx *sqlx.Tx, h DisputeHold) error {
	if h.Amount <= 0 {
		return nil
	}
	_, err := db.Post(ctx, tx, medReleasePosting(h))
	return err
}

// depositHold is the hold of dispute m against deposit d (amount: the
// disputed value). Own is what d's own postings left locked in its wallet
// (db.LockedFor): its net less the split credited to its partner and any
// fee its owner took from it under its lock date (a PIX billing's
// notification fee). Read from the ledger rather than priced again, it is
// what the wallet really holds locked for d, so the block takes d's locked
// money and never another deposit's still within its 24 h.
func depositHold(ctx context.Context, q sqlx.QueryerContext, m, d domain.Transaction, amount money.Cents) (DisputeHold, error) {
	h := DisputeHold{AccountID: m.AccountID, Wallet: m.Wallet(), Key: m.ID, TransactionID: m.ID, Amount: amount}
	if d.CompletedAt == nil {
		return h, nil
	}
	t := d.CompletedAt.Add(domain.ReceivedLock)
	h.LockedUntil = &t
	own, until, err := db.LockedFor(ctx, q, domain.AvailableLedger(h.Wallet), d.ID, t)
	if until != nil { // the deposit's entries' own date: the block nets against them exactly
		h.LockedUntil = until
	}
	h.Own = max(own, 0)
	return h, err
}

// blockedHold is the hold of dispute m to release (amount: the blocked
// value). Own is what its hold took with the deposit's lock date
// (db.LockedPosted), so the release locks again exactly what the hold
// unlocked, under the date it took it with, whatever rule priced the
// hold's own part when it was posted.
func blockedHold(ctx context.Context, q sqlx.QueryerContext, m, d domain.Transaction, amount money.Cents) (DisputeHold, error) {
	h := DisputeHold{AccountID: m.AccountID, Wallet: m.Wallet(), Key: m.ID, TransactionID: m.ID, Amount: amount}
	if d.CompletedAt != nil {
		t := d.CompletedAt.Add(domain.ReceivedLock)
		h.LockedUntil = &t
	}
	took, until, err := db.LockedPosted(ctx, q, domain.AvailableLedger(h.Wallet), medHoldKey(m.ID))
	if until != nil {
		h.LockedUntil = until
	}
	h.Own = max(-took, 0)
	return h, err
}

// NewMED is the dispute record an infraction report opens against the
// deposit d: OPEN, its deadlines from the BCB MED rules, the automatic
// contest decided from the account's autoContest (domain.AutoContests).
func NewMED(d domain.Transaction, n processor.MEDOpening, features domain.Features) domain.Transaction {
	id := meddom.MedID(d.ID)
	at := n.At.UTC()
	protocol := meddom.MedProtocol(id, at)
	infraction := n.InfractionID
	paid := at
	if d.CompletedAt != nil {
		paid = d.CompletedAt.Time
	}
	return domain.Transaction{
		ID: id, AccountID: d.AccountID, APIKeyID: d.APIKeyID, Type: domain.TypeMED, Status: meddom.MedOpen,
		Amount: n.Amount, Description: "MED: " + n.Reason, ExternalReference: &protocol, ReferenceID: &infraction,
		EndToEndID: d.EndToEndID, SubaccountID: d.SubaccountID, CreatedAt: domain.NewTime(at),
		Details: domain.SomeJSON(domain.Details{Med: &domain.MedBlock{
			DepositID: d.ID, Reason: n.Reason, AutoContest: meddom.AutoContests(features, n.Amount),
			DefenceDeadline: domain.NewTime(at.Add(meddom.MedDefenceWindow)), ExpiresAt: domain.NewTime(paid.Add(meddom.MedReturnLimit)),
		}}),
	}
}

// OpenMED is a dispute's first step, shared by the Inbox (inside its
// transaction, the deposit row locked) and the workflow's guard: it blocks
// what it can of the disputed value, stores the record with what it
// blocked and its shortfall, and writes med.created. A dispute already
// stored is answered as it is (nothing written).
func OpenMED(ctx context.Context, tx *sqlx.Tx, d, m domain.Transaction, publicURL string) (domain.Transaction, error) {
	if existing, err := db.LockTransaction(ctx, tx, m.ID); err == nil {
		return existing, nil
	} else if !errors.Is(err, domain.ErrNotFound) {
		return m, err
	}
	h, err := depositHold(ctx, tx, m, d, m.Amount)
	if err != nil {
		return m, err
	}
	// A sub-account deleted since the deposit holds nothing: nothing to block.
	held, err := HoldDisputed(ctx, tx, h)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return m, err
	}
	med := m.Details.V.Med
	med.Blocked, med.Shortfall = held, m.Amount-held
	if _, err := db.InsertTransaction(ctx, tx, m); err != nil {
		return m, err
	}
	_, err = db.InsertEvent(ctx, tx, m.AccountID, m.APIKeyID, domain.EventMedCreated, m.ID, m.EventData(publicURL))
	return m, err
}

// EnsureMED is the dispute workflow's guard: it opens the dispute if no
// Inbox committed it (a no-op on a stored one) and returns its status.
func (a *MEDs) EnsureMED(ctx context.Context, want domain.Transaction) (string, error) {
	var status string
	err := db.InTx(ctx, a.DB, func(tx *sqlx.Tx) error {
		d, err := db.LockTransaction(ctx, tx, want.Details.V.Med.DepositID)
		if err != nil {
			return err
		}
		m, err := OpenMED(ctx, tx, d, want, a.PublicURL)
		status = m.Status
		return err
	})
	return status, err
}

// EvidenceInput is a defence to record on an OPEN dispute.
type EvidenceInput struct {
	ID          string
	Description string
	Files       []meddom.EvidenceContent
	Automatic   bool
	At          time.Time
}

// RecordEvidence stores a defence on a dispute that is still OPEN and
// within its defence deadline: the files (by content hash), the evidence
// block, UNDER_REVIEW, and med.evidence_sent, in one transaction. A
// dispute past either is refused with a 400 that says which; the
// automatic contest (Automatic) finding it no longer OPEN writes nothing.
func RecordEvidence(ctx context.Context, b *Base, in EvidenceInput) (domain.Transaction, error) {
	return b.transition(ctx, in.ID, func(tx *sqlx.Tx, m *domain.Transaction) (change, error) {
		med := m.Details.V.Med
		if m.Type != domain.TypeMED || med == nil {
			return change{}, domain.NotFound("MED")
		}
		if m.Status != meddom.MedOpen {
			if in.Automatic {
				return change{}, nil
			}
			return change{}, domain.Invalidf("MED %s is %s: evidence is accepted only while it is OPEN", m.ID, m.Status)
		}
		if !in.At.Before(med.DefenceDeadline.Time) {
			return change{}, domain.Invalidf("MED %s: the defence deadline passed at %s", m.ID, med.DefenceDeadline.ISO())
		}
		if err := db.InsertEvidenceFiles(ctx, tx, m.ID, in.Files); err != nil {
			return change{}, err
		}
		files := make([]domain.EvidenceFile, len(in.Files))
		for i, f := range in.Files {
			files[i] = f.EvidenceFile
		}
		med.Evidence = &domain.MedEvidence{Description: in.Description, Files: files, Automatic: in.Automatic, SentAt: domain.NewTime(in.At)}
		m.Status = meddom.MedUnderReview
		return emit(domain.EventMedEvidenceSent), nil
	})
}

// AutoContestText is the automatic contest's defence.
const AutoContestText = "Contestação automática: a transação foi recebida por venda regular do estabelecimento; " +
	"o recebedor contesta a notificação de infração."

// AutoContestMED is the automatic contest: the service defends the
// dispute on its own as soon as it opens (domain.AutoContests).
func (a *MEDs) AutoContestMED(ctx context.Context, id string) error {
	_, err := RecordEvidence(ctx, &a.Base, EvidenceInput{ID: id, Description: AutoContestText, Automatic: true, At: time.Now().UTC()})
	return err
}

// SendMEDDefence forwards a recorded defence, files included, to the
// processor, once: a dispute without a defence, or whose defence was
// forwarded, sends nothing. A retry sends again (the processor is
// idempotent on the dispute) until the forward is recorded.
func (a *MEDs) SendMEDDefence(ctx context.Context, id string) error {
	m, err := db.TransactionByID(ctx, a.DB, id, domain.TypeMED)
	if err != nil {
		return err
	}
	ev := m.Details.V.Med.Evidence
	if ev == nil || ev.ForwardedAt != nil {
		return nil
	}
	stored, err := db.EvidenceFiles(ctx, a.DB, id)
	if err != nil {
		return err
	}
	files := make([]processor.MEDFile, len(stored))
	for i, f := range stored {
		files[i] = processor.MEDFile{Name: f.Name, ContentType: f.ContentType, SHA256: f.SHA256, Content: f.Bytes}
	}
	if _, err := a.Processor.ContestMED(ctx, processor.MEDDefence{MEDID: id, InfractionID: deref(m.ReferenceID),
		Description: ev.Description, Automatic: ev.Automatic, Files: files}); err != nil {
		return err
	}
	_, err = a.transition(ctx, id, func(_ *sqlx.Tx, m *domain.Transaction) (change, error) {
		ev := m.Details.V.Med.Evidence
		if ev == nil || ev.ForwardedAt != nil {
			return change{}, nil
		}
		ev.ForwardedAt = domain.TimePtr(time.Now())
		return emit(), nil // internal: no event
	})
	return err
}

// CloseMEDDefence runs at the defence deadline: a dispute still OPEN goes
// UNDER_REVIEW without a defence (med.updated); evidence is refused from
// then on.
func (a *MEDs) CloseMEDDefence(ctx context.Context, id string) error {
	_, err := a.transition(ctx, id, func(_ *sqlx.Tx, m *domain.Transaction) (change, error) {
		if m.Status != meddom.MedOpen {
			return change{}, nil
		}
		m.Status = meddom.MedUnderReview
		return emit(domain.EventMedUpdated), nil
	})
	return err
}

// ResolveMEDInput is a dispute's outcome: the processor's decision, or
// EXPIRED at the return limit.
type ResolveMEDInput struct {
	ID     string
	Status string
	At     time.Time
}

// ResolveMED books a dispute's outcome (med.updated). ACCEPTED returns the
// block to the payer through PIX clearing, topped up with what the wallet
// holds now of the shortfall (a devolução may be made in parts); REJECTED,
// CANCELED and EXPIRED release the block to available. A closed dispute
// is left as it is.
func (a *MEDs) ResolveMED(ctx context.Context, in ResolveMEDInput) error {
	at := in.At
	if at.IsZero() {
		at = time.Now().UTC()
	}
	_, err := a.transition(ctx, in.ID, func(tx *sqlx.Tx, m *domain.Transaction) (change, error) {
		med := m.Details.V.Med
		if m.Type != domain.TypeMED || med == nil || meddom.MedClosed(m.Status) {
			return change{}, nil
		}
		d, err := db.TransactionByID(ctx, tx, med.DepositID, domain.TypePixIn)
		if err != nil {
			return change{}, err
		}
		if in.Status == meddom.MedAccepted {
			err = a.returnToPayer(ctx, tx, m, d)
		} else {
			var h DisputeHold
			if h, err = blockedHold(ctx, tx, *m, d, med.Blocked); err == nil {
				err = ReleaseDisputed(ctx, tx, h)
			}
		}
		if err != nil {
			return change{}, err
		}
		m.Status, med.ResolvedAt = in.Status, domain.TimePtr(at)
		m.CompletedAt = med.ResolvedAt
		return emit(domain.EventMedUpdated), nil
	})
	return err
}

// returnToPayer sends the block back to the payer, plus what the wallet
// holds now of the shortfall, and records what went back.
func (a *MEDs) returnToPayer(ctx context.Context, tx *sqlx.Tx, m *domain.Transaction, d domain.Transaction) error {
	med := m.Details.V.Med
	w := m.Wallet()
	topUp := money.Cents(0)
	if med.Shortfall > 0 {
		if w != m.AccountID {
			if _, err := db.LockSubaccounts(ctx, tx, m.AccountID, []string{"subaccountId"}, w); err != nil && !errors.Is(err, domain.ErrNotFound) {
				return err
			}
		}
		if err := db.LockLedgerAccounts(ctx, tx, domain.AvailableLedger(w)); err != nil {
			return err
		}
		b, err := db.GetBalance(ctx, tx, w)
		if err != nil {
			return err
		}
		topUp = max(min(med.Shortfall, b.Available), 0)
	}
	back := med.Blocked + topUp
	if back > 0 {
		if _, err := db.Post(ctx, tx, medReturnPosting(*m, topUp)); err != nil {
			return err
		}
	}
	med.Returned, med.Shortfall = back, m.Amount-back
	return nil
}

// deref is s, or "" when nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

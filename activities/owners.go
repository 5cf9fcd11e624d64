package activities

import (
	"context"
	"fmt"
	"sync"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/domain"
)

// ChargeOwnerHook is what a product that owns ordinary PIX charges (its
// use case made them through service.Charges with domain.NewCharge.Owner)
// learns when one of them leaves PENDING: paid (COMPLETED), failed or
// expired (CANCELED).
type ChargeOwnerHook struct {
	// Moved runs inside the charge's transition transaction, after the
	// charge's own change and its ledger posting and before the charge row
	// and its event are written: what it writes (the owner's row, its
	// ledger, its events) commits with the charge's transition or not at
	// all. charge is the charge as it will be stored (its new status). A
	// retried transition that finds the charge already moved does not call
	// it again. An error rolls the whole transition back (it is retried).
	Moved func(ctx context.Context, tx *sqlx.Tx, charge domain.Transaction, publicURL string) error
	// Wake, when set, names the owner's workflow and the signal it takes:
	// the charge's workflow sends it a ChargeMoved after the transition has
	// committed (a signal recorded in the charge's history, sent once). It
	// must be a pure function of the owner's id: the workflow calls it.
	Wake func(ownerID string) (workflowID, signal string)
}

// ChargeMoved is the signal an owner's workflow receives after one of its
// charges moved (ChargeOwnerHook.Wake).
type ChargeMoved struct {
	OwnerKind string `json:"ownerKind"`
	OwnerID   string `json:"ownerId"`
	ChargeID  string `json:"chargeId"`
	// Status is the charge's status after the transition.
	Status string `json:"status"`
}

var (
	ownersMu     sync.RWMutex
	chargeOwners = map[string]ChargeOwnerHook{}
)

// RegisterChargeOwner adds a product's hook for the charges it owns, under
// its owner kind (the one registry of charge owners: one entry per kind,
// declared in the product's own activities file as
// `var _ = RegisterChargeOwner(OwnerThing, …)`). A kind registered twice
// panics at start.
func RegisterChargeOwner(kind string, h ChargeOwnerHook) bool {
	ownersMu.Lock()
	defer ownersMu.Unlock()
	if _, dup := chargeOwners[kind]; dup || kind == "" || h.Moved == nil {
		panic("activities: charge owner " + kind + " registered twice or without Moved")
	}
	chargeOwners[kind] = h
	return true
}

func chargeOwner(kind string) (ChargeOwnerHook, bool) {
	ownersMu.RLock()
	defer ownersMu.RUnlock()
	h, ok := chargeOwners[kind]
	return h, ok
}

// tellOwner runs the owner's hook of a charge that has one, in the
// charge's transition transaction. A kind nobody registered is an error
// (retried): a binary without the owner's product must not move its charges
// silently.
func tellOwner(ctx context.Context, tx *sqlx.Tx, charge domain.Transaction, publicURL string) error {
	o := charge.Details.V.Owner
	if o == nil {
		return nil
	}
	h, ok := chargeOwner(o.Kind)
	if !ok {
		return fmt.Errorf("charge %s: no charge owner registered for kind %q", charge.ID, o.Kind)
	}
	return h.Moved(ctx, tx, charge, publicURL)
}

// ChargeOwnerWake is the signal the charge's workflow sends after the
// charge moved to status, if its owner asked for one (ok false: none).
func ChargeOwnerWake(charge domain.Transaction, status string) (workflowID, signal string, moved ChargeMoved, ok bool) {
	o := charge.Details.V.Owner
	if o == nil {
		return "", "", ChargeMoved{}, false
	}
	h, found := chargeOwner(o.Kind)
	if !found || h.Wake == nil {
		return "", "", ChargeMoved{}, false
	}
	workflowID, signal = h.Wake(o.ID)
	return workflowID, signal, ChargeMoved{OwnerKind: o.Kind, OwnerID: o.ID, ChargeID: charge.ID, Status: status}, true
}

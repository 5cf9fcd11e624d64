// Package workflows holds Jangada's Temporal workflows: one durable workflow
// per charge (and, in later issues, per transfer, refund, schedule and
// webhook delivery). Workflows decide; activities (package activities) do the
// I/O and are idempotent.
package workflows

import (
	"go.temporal.io/api/common/v1"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
)

// Custom search attributes: ops find any payment's workflow in the Temporal
// UI with queries such as `JangadaAccountId = "…" AND JangadaStatus = "PENDING"`.
var (
	AccountIDKey    = temporal.NewSearchAttributeKeyKeyword("JangadaAccountId")
	ResourceIDKey   = temporal.NewSearchAttributeKeyKeyword("JangadaResourceId")
	ResourceTypeKey = temporal.NewSearchAttributeKeyKeyword("JangadaResourceType")
	StatusKey       = temporal.NewSearchAttributeKeyKeyword("JangadaStatus")
	AmountKey       = temporal.NewSearchAttributeKeyFloat64("JangadaAmount")
	// OwnerIDKey is the resource a workflow's resource acts on (the billing
	// a billing refund returns): ops find a billing's refunds by it, and a
	// start that finds its id taken checks the owner too (Identity).
	OwnerIDKey = temporal.NewSearchAttributeKeyKeyword("JangadaOwnerId")
)

// SearchAttributes lists the custom attributes to register on a namespace.
func SearchAttributes() map[string]enums.IndexedValueType {
	return map[string]enums.IndexedValueType{
		AccountIDKey.GetName():    enums.INDEXED_VALUE_TYPE_KEYWORD,
		ResourceIDKey.GetName():   enums.INDEXED_VALUE_TYPE_KEYWORD,
		ResourceTypeKey.GetName(): enums.INDEXED_VALUE_TYPE_KEYWORD,
		StatusKey.GetName():       enums.INDEXED_VALUE_TYPE_KEYWORD,
		AmountKey.GetName():       enums.INDEXED_VALUE_TYPE_DOUBLE,
		OwnerIDKey.GetName():      enums.INDEXED_VALUE_TYPE_KEYWORD,
	}
}

// Identity is whose a workflow is, as its search attributes say: the
// account, the resource and its type, and the owner when it has one.
type Identity struct {
	Account, Resource, Type, Owner string
}

// Same tells whether a workflow found under a start's id (found) is the
// start's resource's (want). A workflow started before owners were
// recorded has none, and is judged on the rest.
func (found Identity) Same(want Identity) bool {
	owner := found.Owner == "" || found.Owner == want.Owner
	return owner && found.Account == want.Account && found.Resource == want.Resource && found.Type == want.Type
}

// IdentityOf reads a described workflow's Identity from its search
// attributes (which Temporal keeps in clear, never through the codec).
func IdentityOf(sa *common.SearchAttributes) Identity {
	read := func(k temporal.SearchAttributeKeyKeyword) string {
		p, ok := sa.GetIndexedFields()[k.GetName()]
		if !ok {
			return ""
		}
		var s string
		if converter.GetDefaultDataConverter().FromPayload(p, &s) != nil {
			return ""
		}
		return s
	}
	return Identity{Account: read(AccountIDKey), Resource: read(ResourceIDKey), Type: read(ResourceTypeKey), Owner: read(OwnerIDKey)}
}

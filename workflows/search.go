// Package workflows holds Jangada's Temporal workflows: one durable workflow
// per charge (and, in later issues, per transfer, refund, schedule and
// webhook delivery). Workflows decide; activities (package activities) do the
// I/O and are idempotent.
package workflows

import (
	"go.temporal.io/api/enums/v1"
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
)

// SearchAttributes lists the custom attributes to register on a namespace.
func SearchAttributes() map[string]enums.IndexedValueType {
	return map[string]enums.IndexedValueType{
		AccountIDKey.GetName():    enums.INDEXED_VALUE_TYPE_KEYWORD,
		ResourceIDKey.GetName():   enums.INDEXED_VALUE_TYPE_KEYWORD,
		ResourceTypeKey.GetName(): enums.INDEXED_VALUE_TYPE_KEYWORD,
		StatusKey.GetName():       enums.INDEXED_VALUE_TYPE_KEYWORD,
		AmountKey.GetName():       enums.INDEXED_VALUE_TYPE_DOUBLE,
	}
}

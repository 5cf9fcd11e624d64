package domain

// ChargeOwner names the product resource an ordinary PIX charge was made
// for (a billing, a checkout session, a PIX automatic payment, a fiscal
// invoice): the owning product's use case sets it when it creates the
// charge through service.Charges, and the charge's transitions tell the
// owner (activities.RegisterChargeOwner). It is internal: never shown.
type ChargeOwner struct {
	// Kind is the owning product's registry key (activities.OwnerBilling, …).
	Kind string `json:"kind"`
	// ID is the owning resource's id.
	ID string `json:"id"`
}

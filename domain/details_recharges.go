package domain

// TypeMobileRecharge is a mobile top-up: a money movement of the
// statement, stored in transactions like a PIX out (docs/architecture.md,
// "Where its record lives"). Its statuses are PENDING (paid by the
// merchant, not yet delivered by the operator: it can be cancelled),
// COMPLETED, CANCELED and FAILED.
const TypeMobileRecharge = "MOBILE_RECHARGE"

// RechargeBlock is a recharge's part of Details.
type RechargeBlock struct {
	Phone    string `json:"phone"`
	Operator string `json:"operator"`
}

// LedgerRechargeClearing is the counterpart of money paid to the mobile
// operators (migration 00024).
const LedgerRechargeClearing = "platform:recharge_clearing"

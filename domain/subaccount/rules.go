package subaccount

import (
	"time"
	_ "time/tzdata" // America/Sao_Paulo must load on hosts without a zoneinfo database

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Lock modes. NONE is the unlocked state.
const (
	LockNone         = "NONE"
	LockFull         = "full"
	LockWithdrawOnly = "withdraw_only"
	LockDepositOnly  = "deposit_only"
)

// Op is a money operation on a sub-account, as the lock table sees it.
type Op int

// The operations the lock table rules on.
const (
	OpPixOut        Op = iota // PIX out debited from the sub-account
	OpRemoveBalance           // remove-balance (sub → main)
	OpTransferOut             // transfer, as its source
	OpCharge                  // a new PIX charge credited to the sub-account
	OpAddBalance              // add-balance (main → sub)
	OpTransferIn              // transfer, as its destination
	// OpRefund is the refund of a deposit credited to the sub-account: it
	// takes the deposit's net and the PIX out fee back out of the
	// sub-account, so the table treats it as the debit it is.
	OpRefund
)

// Ops lists every operation, for tests and docs.
var Ops = []Op{OpPixOut, OpRemoveBalance, OpTransferOut, OpCharge, OpAddBalance, OpTransferIn, OpRefund}

var opNames = map[Op]string{
	OpPixOut: "PIX out", OpRemoveBalance: "remove-balance", OpTransferOut: "transfer out",
	OpCharge: "a charge", OpAddBalance: "add-balance", OpTransferIn: "transfer in", OpRefund: "a refund",
}

// String names the operation in error messages.
func (o Op) String() string { return opNames[o] }

// Out reports whether the operation takes money out of the sub-account.
func (o Op) Out() bool {
	return o == OpPixOut || o == OpRemoveBalance || o == OpTransferOut || o == OpRefund
}

// Allows is the lock table (docs/ledger.md): withdraw_only blocks what takes
// money out, deposit_only what brings money in, full both.
func Allows(mode string, op Op) bool {
	switch mode {
	case LockFull:
		return false
	case LockWithdrawOnly:
		return !op.Out()
	case LockDepositOnly:
		return op.Out()
	}
	return true
}

// Permit refuses op with a 400 when the sub-account's status or lock mode
// forbids it: a DISABLED sub-account takes part in no money operation.
func (s Subaccount) Permit(op Op) error {
	if s.Status == StatusDisabled {
		return domain.Invalidf("sub-account %s is DISABLED: %s is refused", s.ID, op)
	}
	if !Allows(s.LockMode, op) {
		return domain.Invalidf("sub-account %s is locked (%s): %s is refused", s.ID, s.LockMode, op)
	}
	return nil
}

// ModesAllowing lists the lock modes under which op goes through: the lock
// table as data, for a statement that checks it in SQL (a charge's insert,
// db.FirstRecords) without a second copy of the table.
func ModesAllowing(op Op) []string {
	var out []string
	for _, m := range []string{LockNone, LockFull, LockWithdrawOnly, LockDepositOnly} {
		if Allows(m, op) {
			out = append(out, m)
		}
	}
	return out
}

// Limits are the debit limits of a sub-account; nil is no limit.
type Limits struct {
	Daily          *money.Cents `json:"daily"`
	Monthly        *money.Cents `json:"monthly"`
	PerTransaction *money.Cents `json:"perTransaction"`
}

// Window is the limit periods around an instant: the calendar day and the
// calendar month in America/Sao_Paulo, as UTC instants [start, end).
type Window struct {
	DayStart, DayEnd, MonthStart, MonthEnd time.Time
}

// WindowAt computes the periods that contain now.
func WindowAt(now time.Time) Window {
	l := now.In(domain.SaoPaulo)
	day := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, domain.SaoPaulo)
	month := time.Date(l.Year(), l.Month(), 1, 0, 0, 0, 0, domain.SaoPaulo)
	return Window{DayStart: day.UTC(), DayEnd: day.AddDate(0, 0, 1).UTC(),
		MonthStart: month.UTC(), MonthEnd: month.AddDate(0, 1, 0).UTC()}
}

// Check refuses a debit of amount when it would pass a limit, given what
// the debits reserved in the day and in the month already take (PENDING,
// PROCESSING and COMPLETED ones: db.SpentBetween).
func (l Limits) Check(amount, spentDay, spentMonth money.Cents) error {
	if l.PerTransaction != nil && amount > *l.PerTransaction {
		return domain.Invalid("amount", "exceeds the sub-account's per-transaction limit of %s", *l.PerTransaction)
	}
	if l.Daily != nil && spentDay+amount > *l.Daily {
		return domain.Invalid("amount", "exceeds the sub-account's daily limit: %s of %s already spent today", spentDay, *l.Daily)
	}
	if l.Monthly != nil && spentMonth+amount > *l.Monthly {
		return domain.Invalid("amount", "exceeds the sub-account's monthly limit: %s of %s already spent this month", spentMonth, *l.Monthly)
	}
	return nil
}

// Line is one line of a pricing preview.
type Line struct {
	Label      string        `json:"label"`
	PercentFee money.Percent `json:"percentFee"`
	FixedFee   money.Cents   `json:"fixedFee"`
}

// Side is the price of one direction: its lines and their totals.
type Side struct {
	Lines           []Line        `json:"lines"`
	TotalPercentFee money.Percent `json:"totalPercentFee"`
	TotalFixedFee   money.Cents   `json:"totalFixedFee"`
}

// Preview is GET /subaccount/pricing: the top-level lines and totals are
// what a PIX charge credited to the sub-account pays; pixOut is the same
// for a PIX out debited from it.
type Preview struct {
	SubaccountID string `json:"subaccountId"`
	Side
	PixOut Side `json:"pixOut"`
}

func side(what string, mainPct money.Percent, mainFixed money.Cents, subPct money.Percent, subFixed money.Cents) Side {
	return Side{
		Lines: []Line{
			{Label: "Main account " + what + " fee", PercentFee: mainPct, FixedFee: mainFixed},
			{Label: "Sub-account " + what + " surcharge", PercentFee: subPct, FixedFee: subFixed},
		},
		TotalPercentFee: mainPct + subPct, TotalFixedFee: mainFixed + subFixed,
	}
}

// PreviewOf prices the sub-account: the main account's fee plus its surcharge.
func PreviewOf(id string, main, surcharge domain.Fees) Preview {
	return Preview{SubaccountID: id,
		Side:   side("PIX in", main.PixInPercent, main.PixInFixed, surcharge.PixInPercent, surcharge.PixInFixed),
		PixOut: side("PIX out", main.PixOutPercent, main.PixOutFixed, surcharge.PixOutPercent, surcharge.PixOutFixed),
	}
}

// Combined is the price of PIX on a sub-account: the main account's fees
// plus the sub-account's surcharges, fixed part and percentage each. The
// whole fee is platform revenue (docs/ledger.md).
func Combined(main, surcharge domain.Fees) domain.Fees {
	return domain.Fees{
		PixInFixed: main.PixInFixed + surcharge.PixInFixed, PixInPercent: main.PixInPercent + surcharge.PixInPercent,
		PixOutFixed: main.PixOutFixed + surcharge.PixOutFixed, PixOutPercent: main.PixOutPercent + surcharge.PixOutPercent,
	}
}

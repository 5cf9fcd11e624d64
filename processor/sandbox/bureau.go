package sandbox

import (
	"context"
	"time"

	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
)

// The credit bureau in the sandbox: a dunning is analysed and registered
// by the simulated bureau after SettleAfter (at once when auto-settlement
// is off: no sandbox route answers a dunning by hand), through the same
// durable delivery as the simulated network's settlements; a report is
// answered at once with a score computed from the document, so the same
// CPF/CNPJ always gets the same report.

// KindDunning is the delivery of the bureau's answer to a dunning.
const KindDunning = "dunning"

var _ = onDelivery(KindDunning, func(s *Sandbox, ctx context.Context, d Delivery) error {
	return s.AnswerDunning(ctx, d.ID, d.Reason)
})

// DenyDunningCents makes the bureau deny a dunning: a billing whose value
// ends in these centavos (R$ x,77) is refused for insufficient documents.
const DenyDunningCents = 77

// RequestDunning accepts the dunning and arms the bureau's answer.
func (s *Sandbox) RequestDunning(ctx context.Context, r processor.DunningRequest) (processor.Submission, error) {
	d := Delivery{Kind: KindDunning, ID: r.ID}
	if r.Value%100 == money.Cents(DenyDunningCents) {
		d.Reason = "the documents do not prove the debt"
	}
	return processor.Submission{ReferenceID: "sbx_dun_" + processor.TxID(r.ID)[20:]}, s.laterAfter(ctx, d, max(s.SettleAfter, 0))
}

// AnswerDunning notifies the bureau's answer: processed, or denied with reason.
func (s *Sandbox) AnswerDunning(ctx context.Context, dunningID, reason string) error {
	n := processor.DunningNotice{Outcome: processor.OutcomeProcessed, At: time.Now().UTC()}
	if reason != "" {
		n.Outcome, n.Reason = processor.OutcomeDenied, reason
	}
	return s.Inbox.DunningNotice(ctx, dunningID, n)
}

// CreditReport answers a report: the score is the document's digits
// folded into 0..1000, and a document ending in 0 has one restriction
// (a debt registered), so tests can expect both kinds.
func (s *Sandbox) CreditReport(_ context.Context, r processor.ReportRequest) (processor.CreditReport, error) {
	score := 0
	for _, c := range r.CpfCnpj {
		score = (score*31 + int(c)) % 1001
	}
	restrictions := 0
	if r.CpfCnpj != "" && r.CpfCnpj[len(r.CpfCnpj)-1] == '0' {
		restrictions = 1
	}
	return processor.CreditReport{ReferenceID: "sbx_rep_" + processor.TxID(r.ID)[20:], Score: score, Restrictions: restrictions}, nil
}

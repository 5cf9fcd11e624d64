package sandbox

import (
	"context"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
)

// MED disputes in the sandbox: the sandbox routes play the
// payer's PSP (an infraction report) and the processor's analysis (its
// decision); a defence is accepted at once and waits for that decision.

// ContestMED accepts the dispute's defence.
func (s *Sandbox) ContestMED(_ context.Context, d processor.MEDDefence) (processor.Submission, error) {
	return processor.Submission{ReferenceID: "sbx_def_" + processor.TxID(d.MEDID)[20:]}, nil
}

// OpenMED reports an infraction against the PIX endToEndID under a new
// infraction id, as the processor's webhook would, and answers the
// dispute's id.
func (s *Sandbox) OpenMED(ctx context.Context, endToEndID string, amount money.Cents, reason string) (string, error) {
	return s.Inbox.MEDOpened(ctx, processor.MEDOpening{
		InfractionID: domain.NewID("sbx_inf_"), EndToEndID: endToEndID, Amount: amount, Reason: reason, At: time.Now().UTC(),
	})
}

// ResolveMED notifies the processor's decision on the infraction.
func (s *Sandbox) ResolveMED(ctx context.Context, infractionID, status string) error {
	return s.Inbox.MEDNotice(ctx, processor.MEDNotice{InfractionID: infractionID, Status: status, At: time.Now().UTC()})
}

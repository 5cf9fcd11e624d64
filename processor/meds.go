package processor

import (
	"context"

	"github.com/jangada/jangada/money"
)

//go:generate go tool mockgen -destination=processormock/med.go -package=processormock . MED

// MED is the PIX network's dispute mechanism.
type MED interface {
	// ContestMED sends the defence of a dispute (idempotent on the
	// dispute); the decision arrives as a MEDNotice.
	ContestMED(ctx context.Context, d MEDDefence) (Submission, error)
}

// MEDInbox takes the PIX network's disputes: MEDOpened reports an
// infraction against a received PIX and answers the dispute's id;
// MEDNotice its outcome.
type MEDInbox interface {
	MEDOpened(ctx context.Context, n MEDOpening) (string, error)
	MEDNotice(ctx context.Context, n MEDNotice) error
}

// MEDSimulator plays the payer's PSP: OpenMED reports an infraction
// against the PIX endToEndID and answers the dispute's id; ResolveMED
// notifies the decision on the infraction.
type MEDSimulator interface {
	OpenMED(ctx context.Context, endToEndID string, amount money.Cents, reason string) (string, error)
	ResolveMED(ctx context.Context, infractionID, status string) error
}

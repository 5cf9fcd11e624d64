package service_test

import (
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor/sandbox"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
)

// BenchmarkChargeCreateWithoutTheStart is a charge create's own cost, one at
// a time: pricing, the sandbox BR Code, the QR image and the transaction
// that commits the row, its event and the workflow intent; the Temporal
// start is a mock answering at once. OwnerRow the bench's bare StartWorkflow,
// it shows what a create adds to the start it must follow.
func BenchmarkChargeCreateWithoutTheStart(b *testing.B) {
	acct := newAccountB(b)
	temporal := servicemock.NewMockTemporal(gomock.NewController(b))
	temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, nil).AnyTimes()
	starts := &service.LaunchPool{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue}
	s := &service.Charges{DB: sharedDB, Processor: &sandbox.Sandbox{}, Starts: starts, PublicURL: "https://api.jangada.test"}
	key := domain.APIKey{ID: "k"}
	for b.Loop() {
		if _, err := s.Create(b.Context(), acct, key, newCharge(1000)); err != nil {
			b.Fatal(err)
		}
	}
}

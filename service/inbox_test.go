package service_test

import (
	"errors"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
)

func TestInboxChargeNotice(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Loja Inbox")
	charge := func(t *testing.T, status string) domain.Transaction {
		return storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypePixIn, Status: status, Amount: 1000, FeeAmount: 50, NetAmount: 950,
			ExpiresAt: domain.TimePtr(time.Now().Add(time.Hour))})
	}
	notice := processor.ChargeNotice{Outcome: processor.OutcomePaid, EndToEndID: "E99999908202611230000ABCDEFGHIJK", At: time.Now().UTC(),
		Payer: &domain.Party{Name: "Pagador", Document: "11144477735"}}

	tests := []struct {
		name    string
		status  string
		signal  error // what SignalWithStartWorkflow answers; not called when status is not PENDING
		wantErr error // nil: success
	}{
		{"pending charge is signalled", domain.StatusPending, nil, nil},
		{"completed charge is refused", domain.StatusCompleted, nil, domain.ErrInvalid},
		{"failed charge is refused", domain.StatusFailed, nil, domain.ErrInvalid},
		// Paid as it expired: the processor holds the money; settled late.
		{"canceled charge is settled late", domain.StatusCanceled, nil, nil},
		{"workflow closed", domain.StatusPending, serviceerror.NewWorkflowExecutionAlreadyStarted("closed", "", ""), domain.ErrInvalid},
		{"Temporal unreachable", domain.StatusPending, errors.New("connection refused"), domain.ErrUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := charge(t, tt.status)
			temporal := servicemock.NewMockTemporal(gomock.NewController(t))
			if tt.status == domain.StatusPending {
				// Signal-With-Start, with the start the create would make:
				// deferred until the expiry, on the inbox's task queue.
				// The notice names its charge (a copy sent elsewhere is
				// ignored) and carries no payer: workflows carry references,
				// the payer is kept in PostgreSQL for the settle step.
				addressed := notice
				addressed.ChargeID, addressed.Payer = c.ID, nil
				temporal.EXPECT().SignalWithStartWorkflow(gomock.Any(), "charge/"+c.ID, "processor-notice", addressed,
					gomock.Cond(func(o client.StartWorkflowOptions) bool {
						return o.ID == "charge/"+c.ID && o.TaskQueue == "q" && o.StartDelay == 0 && !o.EnableEagerStart
					}), gomock.Any(), gomock.Any()).Return(nil, tt.signal).Times(1)
			}
			err := (&service.Inbox{DB: sharedDB, Temporal: temporal, TaskQueue: "q"}).ChargeNotice(t.Context(), c.ID, notice)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("ChargeNotice = %v, want nil", err)
				}
				got, err := db.TransactionByID(t.Context(), sharedDB, c.ID, domain.TypePixIn)
				if err != nil || tt.status == domain.StatusCanceled && (got.Status != domain.StatusCompleted || !got.Details.V.LatePayment ||
					got.Payer.V != *notice.Payer) {
					t.Fatalf("a canceled charge's paid notice left it %s (latePayment %v, payer %+v, %v)", got.Status,
						got.Details.V.LatePayment, got.Payer.V, err)
				}
				if kept, err := db.NoticeParty(t.Context(), sharedDB, c.ID); err != nil || kept == nil || *kept != *notice.Payer {
					t.Fatalf("the notice's payer kept: %+v, %v", kept, err)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("ChargeNotice = %v, want %v", err, tt.wantErr)
			}
		})
	}

	t.Run("unknown charge", func(t *testing.T) {
		t.Parallel()
		temporal := servicemock.NewMockTemporal(gomock.NewController(t))
		err := (&service.Inbox{DB: sharedDB, Temporal: temporal}).ChargeNotice(t.Context(), domain.NewID(""), notice)
		if !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("ChargeNotice = %v, want not found", err)
		}
	})
}

func TestInboxTransferAndRefundNotices(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Loja Notices")
	out := func(status string) domain.Transaction {
		return storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypePixOut, Status: status, Amount: 1000, NetAmount: 1000})
	}
	n := processor.TransferNotice{Outcome: processor.OutcomeSettled, At: time.Now().UTC()}

	processing := out(domain.StatusProcessing)
	temporal := servicemock.NewMockTemporal(gomock.NewController(t))
	addressed := n
	addressed.TransferID = processing.ID
	temporal.EXPECT().SignalWorkflow(gomock.Any(), "transfer/"+processing.ID, "", "processor-notice", addressed).Return(nil).Times(1)
	inbox := &service.Inbox{DB: sharedDB, Temporal: temporal}
	if err := inbox.TransferNotice(t.Context(), processing.ID, n); err != nil {
		t.Fatalf("TransferNotice(PROCESSING) = %v", err)
	}
	for _, status := range []string{domain.StatusCompleted, domain.StatusFailed} {
		if err := inbox.TransferNotice(t.Context(), out(status).ID, n); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("TransferNotice(%s) = %v, want invalid", status, err)
		}
	}

	// Refund notices go to a deposit with a refund in progress only.
	deposit := func(r *domain.RefundBlock) domain.Transaction {
		return storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypePixIn, Status: domain.StatusCompleted, Amount: 1000,
			Details: domain.SomeJSON(domain.Details{Refund: r})})
	}
	rn := processor.RefundNotice{Outcome: processor.OutcomeSettled, At: time.Now().UTC()}
	inProgress := deposit(&domain.RefundBlock{Status: domain.StatusProcessing})
	addressedRefund := rn
	addressedRefund.DepositID = inProgress.ID
	temporal.EXPECT().SignalWorkflow(gomock.Any(), "refund/"+inProgress.ID, "", "processor-notice", addressedRefund).Return(nil).Times(1)
	if err := inbox.RefundNotice(t.Context(), inProgress.ID, rn); err != nil {
		t.Fatalf("RefundNotice(PROCESSING) = %v", err)
	}
	for name, d := range map[string]domain.Transaction{
		"no refund":        deposit(nil),
		"refund completed": deposit(&domain.RefundBlock{Status: domain.StatusCompleted}),
		"refund failed":    deposit(&domain.RefundBlock{Status: domain.StatusFailed}),
	} {
		if err := inbox.RefundNotice(t.Context(), d.ID, rn); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("RefundNotice(%s) = %v, want invalid", name, err)
		}
	}
}

package sandbox_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/testsuite"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/brcode"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/pixkey"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
	"github.com/jangada/jangada/processor/sandbox"
)

// networkEnv is a Temporal test environment (no server, skipped time) running
// the simulated network against an Inbox mock.
func networkEnv(t *testing.T) (*testsuite.TestWorkflowEnvironment, *processormock.MockInbox) {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	inbox := processormock.NewMockInbox(gomock.NewController(t))
	sb := &sandbox.Sandbox{Inbox: inbox}
	sb.Register(env)
	return env, inbox
}

func TestNetworkWorkflowSettlesAfterDelay(t *testing.T) {
	t.Parallel()
	const after = 90 * time.Minute
	tests := []struct {
		name, keyType, key string
		check              func(t *testing.T, n processor.TransferNotice)
	}{
		{"normal key settles with a recipient", "EMAIL", "ana@example.com", func(t *testing.T, n processor.TransferNotice) {
			if n.Outcome != processor.OutcomeSettled || n.Recipient == nil {
				t.Fatalf("notice = %+v, want settled with a recipient", n)
			}
			r := *n.Recipient
			if r.PixKey != "ana@example.com" || r.Document != pixkey.Mask(pixkey.EMAIL, "ana@example.com") || !strings.Contains(r.Bank, sandbox.ISPB) || r.Name == "" {
				t.Errorf("recipient = %+v", r)
			}
			if len(n.EndToEndID) != 32 || !strings.HasPrefix(n.EndToEndID, "E"+sandbox.ISPB) {
				t.Errorf("endToEndId = %q, want E%s… of 32 characters", n.EndToEndID, sandbox.ISPB)
			}
		}},
		{"CPF key is masked", "CPF", "52998224725", func(t *testing.T, n processor.TransferNotice) {
			if n.Outcome != processor.OutcomeSettled || n.Recipient == nil || n.Recipient.Document != "***.982.247-**" {
				t.Fatalf("notice = %+v, want settled to ***.982.247-**", n)
			}
		}},
		{"FailKey fails", "EMAIL", sandbox.FailKey, func(t *testing.T, n processor.TransferNotice) {
			if n.Outcome != processor.OutcomeFailed || n.Recipient != nil || n.Reason == "" || n.EndToEndID != "" {
				t.Fatalf("notice = %+v, want failed with a reason and no recipient", n)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env, inbox := networkEnv(t)
			var delivered atomic.Int32
			var got processor.TransferNotice
			inbox.EXPECT().TransferNotice(gomock.Any(), "tr_1", gomock.Any()).DoAndReturn(
				func(_ context.Context, _ string, n processor.TransferNotice) error {
					got = n
					delivered.Add(1)
					return nil
				}).Times(1)
			env.RegisterDelayedCallback(func() {
				if delivered.Load() != 0 {
					t.Errorf("notice delivered before %v", after)
				}
			}, after-time.Second)
			start, wall := env.Now(), time.Now()

			env.ExecuteWorkflow(sandbox.NetworkWorkflow, sandbox.Delivery{
				Kind: sandbox.KindTransfer, ID: "tr_1", PixKeyType: tt.keyType, PixKey: tt.key, After: after,
			})
			if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
				t.Fatalf("workflow completed %v, error %v", env.IsWorkflowCompleted(), env.GetWorkflowError())
			}
			if waited := env.Now().Sub(start); waited < after || waited > after+time.Minute {
				t.Errorf("workflow time passed = %v, want %v", waited, after)
			}
			if real := time.Since(wall); real > 10*time.Second {
				t.Errorf("took %v of real time: timers were not skipped", real)
			}
			if delivered.Load() != 1 {
				t.Fatalf("delivered %d notices, want 1", delivered.Load())
			}
			tt.check(t, got)
		})
	}
}

func TestNetworkWorkflowSettlesRefund(t *testing.T) {
	t.Parallel()
	env, inbox := networkEnv(t)
	inbox.EXPECT().RefundNotice(gomock.Any(), "dep_1", gomock.Any()).DoAndReturn(
		func(_ context.Context, _ string, n processor.RefundNotice) error {
			if n.Outcome != processor.OutcomeSettled || n.At.IsZero() {
				t.Errorf("refund notice = %+v, want settled", n)
			}
			return nil
		}).Times(1)
	env.ExecuteWorkflow(sandbox.NetworkWorkflow, sandbox.Delivery{Kind: sandbox.KindRefund, ID: "dep_1", After: time.Minute})
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("workflow completed %v, error %v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
}

func TestDeliveryRefusedAsConcludedEndsQuietly(t *testing.T) {
	t.Parallel()
	env, inbox := networkEnv(t)
	// The Inbox's 400 for a resource that concluded meanwhile: not retried.
	inbox.EXPECT().TransferNotice(gomock.Any(), "tr_2", gomock.Any()).
		Return(domain.Invalidf("transfer tr_2 is COMPLETED already")).Times(1)
	env.ExecuteWorkflow(sandbox.NetworkWorkflow, sandbox.Delivery{Kind: sandbox.KindTransfer, ID: "tr_2", PixKeyType: "EMAIL", PixKey: "a@b.co", After: time.Second})
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("workflow completed %v, error %v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
}

func TestDeliveryRetriedOnOtherErrors(t *testing.T) {
	t.Parallel()
	env, inbox := networkEnv(t)
	gomock.InOrder(
		inbox.EXPECT().TransferNotice(gomock.Any(), "tr_3", gomock.Any()).Return(domain.ErrUnavailable),
		inbox.EXPECT().TransferNotice(gomock.Any(), "tr_3", gomock.Any()).Return(nil),
	)
	env.ExecuteWorkflow(sandbox.NetworkWorkflow, sandbox.Delivery{Kind: sandbox.KindTransfer, ID: "tr_3", PixKeyType: "EMAIL", PixKey: "a@b.co", After: time.Second})
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("workflow completed %v, error %v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
}

func TestNewChargeIsAValidBRCode(t *testing.T) {
	t.Parallel()
	id := domain.NewID("")
	tests := []struct {
		name, city, wantCity string
	}{
		{"default city", "", "SAO PAULO"},
		{"own city, folded to ASCII", "Florianópolis", "Florianopolis"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sb := &sandbox.Sandbox{City: tt.city}
			qr, err := sb.NewCharge(t.Context(), processor.ChargeRequest{
				ID: id, Amount: 12345, Description: "Pedido 42", MerchantName: "Loja Exemplo",
				MerchantKey: "123e4567-e89b-12d3-a456-426614174000", ExpiresAt: time.Now().Add(time.Hour),
			})
			if err != nil {
				t.Fatal(err)
			}
			p, err := brcode.Parse(qr.CopyPaste)
			if err != nil {
				t.Fatalf("brcode.Parse(%q): %v", qr.CopyPaste, err)
			}
			if p.Amount != 12345 || p.TxID != processor.TxID(id) || len(p.TxID) != 32 {
				t.Errorf("amount %v, txid %q; want 123.45, %q", p.Amount, p.TxID, processor.TxID(id))
			}
			if p.Key != "123e4567-e89b-12d3-a456-426614174000" || p.MerchantName != "Loja Exemplo" || p.MerchantCity != tt.wantCity {
				t.Errorf("payload = %+v", p)
			}
			if qr.ReferenceID != "sbx_"+processor.TxID(id)[:20] {
				t.Errorf("referenceId = %q", qr.ReferenceID)
			}
		})
	}
}

// fakeTemporal records the sandbox's workflow starts; any other client
// method would panic on the nil embedded interface.
type fakeTemporal struct {
	client.Client
	err     error
	options []client.StartWorkflowOptions
	args    []any
}

func (f *fakeTemporal) ExecuteWorkflow(_ context.Context, o client.StartWorkflowOptions, _ any, args ...any) (client.WorkflowRun, error) {
	f.options = append(f.options, o)
	f.args = append(f.args, args...)
	return nil, f.err
}

func TestSendPixArmsSettlement(t *testing.T) {
	t.Parallel()
	req := processor.PixOutRequest{ID: domain.NewID(""), Amount: 1000, PixKey: "ana@example.com", PixKeyType: "EMAIL"}

	t.Run("without auto-settlement nothing is armed", func(t *testing.T) {
		t.Parallel()
		sub, err := (&sandbox.Sandbox{}).SendPix(t.Context(), req) // a nil Temporal would panic if used
		if err != nil || sub.ReferenceID != "sbx_out_"+processor.TxID(req.ID)[20:] {
			t.Fatalf("SendPix = %+v, %v", sub, err)
		}
	})
	t.Run("one workflow per transfer", func(t *testing.T) {
		t.Parallel()
		tc := &fakeTemporal{}
		sb := &sandbox.Sandbox{Temporal: tc, TaskQueue: "jangada", SettleAfter: 5 * time.Second}
		if _, err := sb.SendPix(t.Context(), req); err != nil {
			t.Fatal(err)
		}
		if len(tc.options) != 1 || tc.options[0].ID != "sandbox/transfer/"+req.ID || tc.options[0].TaskQueue != "jangada" {
			t.Fatalf("starts = %+v", tc.options)
		}
		want := sandbox.Delivery{Kind: sandbox.KindTransfer, ID: req.ID, PixKey: req.PixKey, PixKeyType: req.PixKeyType, After: 5 * time.Second}
		if len(tc.args) != 1 || tc.args[0] != want {
			t.Fatalf("delivery = %+v, want %+v", tc.args, want)
		}
	})
	t.Run("an armed settlement is not an error", func(t *testing.T) {
		t.Parallel()
		tc := &fakeTemporal{err: serviceerror.NewWorkflowExecutionAlreadyStarted("started", "", "run")}
		if _, err := (&sandbox.Sandbox{Temporal: tc, SettleAfter: time.Second}).SendPix(t.Context(), req); err != nil {
			t.Fatalf("SendPix = %v, want nil", err)
		}
	})
	t.Run("Temporal down is an error", func(t *testing.T) {
		t.Parallel()
		down := errors.New("connection refused")
		tc := &fakeTemporal{err: down}
		if _, err := (&sandbox.Sandbox{Temporal: tc, SettleAfter: time.Second}).Refund(t.Context(), processor.RefundRequest{DepositID: req.ID}); !errors.Is(err, down) {
			t.Fatalf("Refund = %v, want %v", err, down)
		}
		if tc.options[0].ID != "sandbox/refund/"+req.ID {
			t.Fatalf("start id = %q", tc.options[0].ID)
		}
	})
}

func TestPayUsesDefaultPayer(t *testing.T) {
	t.Parallel()
	inbox := processormock.NewMockInbox(gomock.NewController(t))
	inbox.EXPECT().ChargeNotice(gomock.Any(), "ch_1", gomock.Any()).DoAndReturn(
		func(_ context.Context, _ string, n processor.ChargeNotice) error {
			if n.Outcome != processor.OutcomePaid || n.Payer == nil || *n.Payer != sandbox.DefaultPayer || len(n.EndToEndID) != 32 {
				t.Errorf("notice = %+v", n)
			}
			return nil
		})
	if err := (&sandbox.Sandbox{Inbox: inbox}).Pay(t.Context(), "ch_1", nil); err != nil {
		t.Fatal(err)
	}
}

package service_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"go.temporal.io/sdk/client"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/brcode"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/processormock"
	"github.com/jangada/jangada/processor/sandbox"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
	"github.com/jangada/jangada/workflows"
)

const taskQueue = "jangada-test"

// chargeRig is Charges with mocked processor and Temporal; the processor
// answers with the sandbox's real BR Code and records the charge id.
type chargeRig struct {
	charges   *service.Charges
	temporal  *servicemock.MockTemporal
	processor *processormock.MockPix

	mu        sync.Mutex
	requests  []processor.ChargeRequest
	published []domain.Event
}

func newChargeRig(t *testing.T) *chargeRig {
	ctrl := gomock.NewController(t)
	r := &chargeRig{temporal: servicemock.NewMockTemporal(ctrl), processor: processormock.NewMockPix(ctrl)}
	starts := &service.LaunchPool{DB: sharedDB, Temporal: r.temporal, TaskQueue: taskQueue}
	// The starts a test's creates handed over end before gomock checks
	// that every expected call was made.
	t.Cleanup(starts.Wait)
	r.charges = &service.Charges{DB: sharedDB, Processor: r.processor, Starts: starts, PublicURL: "https://api.jangada.test"}
	t.Cleanup(db.OnEventsCommitted(func(_ *sqlx.DB, evs []domain.Event) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.published = append(r.published, evs...)
	}))
	return r
}

// publishedFor is the committed events of one resource the rig was told of
// (tests run in parallel: the hook sees every test's commits).
func (r *chargeRig) publishedFor(resourceID string) []domain.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []domain.Event
	for _, ev := range r.published {
		if ev.ResourceID == resourceID {
			out = append(out, ev)
		}
	}
	return out
}

// expectNewCharge lets the processor issue one BR Code.
func (r *chargeRig) expectNewCharge() {
	r.processor.EXPECT().NewCharge(gomock.Any(), gomock.Any()).DoAndReturn(
		func(ctx context.Context, req processor.ChargeRequest) (processor.ChargeQR, error) {
			r.mu.Lock()
			r.requests = append(r.requests, req)
			r.mu.Unlock()
			return (&sandbox.Sandbox{}).NewCharge(ctx, req)
		}).Times(1)
}

func (r *chargeRig) request() processor.ChargeRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests[len(r.requests)-1]
}

func newCharge(amount money.Cents) domain.NewCharge {
	return domain.NewCharge{Amount: amount, Description: "Pedido 42", ExpiresIn: time.Hour, Payer: &domain.Party{Name: "Ana", Document: "52998224725"}}
}

// chargeWith is newCharge(R$ 10.00) changed by f.
func chargeWith(f func(*domain.NewCharge)) domain.NewCharge {
	n := newCharge(1000)
	f(&n)
	return n
}

func TestCreateChargeStoresRowEventAndStartsWorkflow(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Loja Sucesso")
	r := newChargeRig(t)
	r.expectNewCharge()
	var opts client.StartWorkflowOptions
	var input workflows.ChargeInput
	r.temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(_ context.Context, o client.StartWorkflowOptions, wf any, args ...any) (client.WorkflowRun, error) {
			opts = o
			if reflect.ValueOf(wf).Pointer() != reflect.ValueOf(workflows.ChargeWorkflow).Pointer() {
				t.Errorf("started %T, want workflows.ChargeWorkflow", wf)
			}
			if len(args) != 1 {
				t.Fatalf("workflow args = %v", args)
			}
			input = args[0].(workflows.ChargeInput)
			return nil, nil
		}).Times(1)

	in := newCharge(1000)
	in.ExternalReference = ptr("pedido-42")
	created, err := r.charges.Create(t.Context(), acct, domain.APIKey{ID: "key_1"}, in)
	if err != nil {
		t.Fatal(err)
	}
	r.charges.Starts.Wait()
	c := created.Charge
	req := r.request()
	if c.ID != req.ID || opts.ID != "charge/"+c.ID || opts.TaskQueue != taskQueue || input.Charge.ID != c.ID {
		t.Fatalf("charge %s, processor %s, workflow %q on %q with charge %s", c.ID, req.ID, opts.ID, opts.TaskQueue, input.Charge.ID)
	}
	if req.Amount != 1000 || req.MerchantName != acct.Name || req.MerchantKey != acct.PixKey || time.Until(req.ExpiresAt) > time.Hour {
		t.Errorf("processor request = %+v", req)
	}
	if !strings.HasPrefix(created.QRCodeBase64, "data:image/png;base64,") {
		t.Errorf("QR = %.40q…", created.QRCodeBase64)
	}

	stored, err := db.TransactionByID(t.Context(), sharedDB, c.ID, domain.TypePixIn)
	if err != nil {
		t.Fatalf("charge row: %v", err)
	}
	if stored.Status != domain.StatusPending || stored.Amount != 1000 || stored.FeeAmount != 50 || stored.NetAmount != 950 ||
		stored.AccountID != acct.ID || *stored.APIKeyID != "key_1" || *stored.ExternalReference != "pedido-42" {
		t.Errorf("stored = %+v", stored)
	}
	p, err := brcode.Parse(*stored.CopyPaste)
	if err != nil || p.Amount != 1000 || p.TxID != processor.TxID(c.ID) {
		t.Errorf("stored BR Code: %+v, %v", p, err)
	}
	if got := stored.Payer.Ptr(); got == nil || *got != *in.Payer {
		t.Errorf("payer = %+v", got)
	}
	evs, err := db.EventsFor(t.Context(), sharedDB, c.ID)
	if err != nil || len(evs) != 1 || evs[0].Type != domain.EventPaymentCreated {
		t.Fatalf("events = %+v, %v; want one payment.created", evs, err)
	}
	if strings.Contains(string(evs[0].Data), "copyPaste") {
		t.Errorf("payment.created carries QR data: %s", evs[0].Data)
	}
	if got := r.publishedFor(c.ID); len(got) != 1 || got[0].ID != evs[0].ID {
		t.Errorf("published = %+v", got)
	}
	verifyLedger(t)
}

func TestCreateChargePricing(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Loja Precos")
	partner := newAccount(t, "Parceiro Precos")
	tests := []struct {
		name            string
		in              domain.NewCharge
		gross, fee, net money.Cents
		split           *domain.Split
	}{
		{"fee out of the amount", newCharge(1000), 1000, 50, 950, nil},
		{"fee covered by the payer", chargeWith(func(n *domain.NewCharge) { n.CoverFee = true }), 1050, 50, 1000, nil},
		{"split of the net", chargeWith(func(n *domain.NewCharge) { n.SplitUser, n.SplitTax = partner.Email, 2000 }),
			1000, 50, 950, &domain.Split{AccountID: partner.ID, Email: partner.Email, Percent: 2000, Amount: 190}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newChargeRig(t)
			r.expectNewCharge()
			r.temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, nil)
			created, err := r.charges.Create(t.Context(), acct, domain.APIKey{ID: "key_1"}, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			stored, err := db.TransactionByID(t.Context(), sharedDB, created.Charge.ID, domain.TypePixIn)
			if err != nil {
				t.Fatal(err)
			}
			if stored.Amount != tt.gross || stored.FeeAmount != tt.fee || stored.NetAmount != tt.net || r.request().Amount != tt.gross {
				t.Errorf("gross %v fee %v net %v (QR %v); want %v %v %v", stored.Amount, stored.FeeAmount, stored.NetAmount, r.request().Amount, tt.gross, tt.fee, tt.net)
			}
			if !reflect.DeepEqual(stored.Details.V.Split, tt.split) {
				t.Errorf("split = %+v, want %+v", stored.Details.V.Split, tt.split)
			}
		})
	}
}

func TestCreateChargeRefusedBeforeProcessor(t *testing.T) {
	t.Parallel()
	acct := newAccount(t, "Loja Recusa")
	tests := []struct {
		name  string
		in    domain.NewCharge
		kind  error
		field string
	}{
		{"amount not above the fee", newCharge(50), domain.ErrInvalid, "amount"},
		{"unknown split user", chargeWith(func(n *domain.NewCharge) { n.SplitUser, n.SplitTax = "nobody@example.com", 100 }), domain.ErrInvalid, "splitUser"},
		{"split to itself", chargeWith(func(n *domain.NewCharge) { n.SplitUser, n.SplitTax = acct.Email, 100 }), domain.ErrInvalid, "splitUser"},
		{"splitTax without splitUser", chargeWith(func(n *domain.NewCharge) { n.SplitTax = 100 }), domain.ErrInvalid, "splitUser"},
		{"fiscal invoice not enabled", chargeWith(func(n *domain.NewCharge) { n.EmitFiscalInvoice = true }), domain.ErrForbidden, "emitFiscalInvoice"},
		{"sub-account", chargeWith(func(n *domain.NewCharge) { n.SubaccountID = "sub_1" }), domain.ErrForbidden, "subaccountId"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newChargeRig(t) // no expectations: neither processor nor Temporal may be called
			_, err := r.charges.Create(t.Context(), acct, domain.APIKey{ID: "key_1"}, tt.in)
			if !errors.Is(err, tt.kind) || !strings.HasPrefix(err.Error(), tt.field+" ") {
				t.Fatalf("Create = %v, want %v starting with %q", err, tt.kind, tt.field)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

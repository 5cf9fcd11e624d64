package service_test

import (
	"context"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.temporal.io/sdk/client"
	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/bureau"
	"github.com/jangada/jangada/domain/fiscal"
	"github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/domain/pixauto"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/service"
	"github.com/jangada/jangada/service/servicemock"
	"github.com/jangada/jangada/workflows"
)

// launchFixture stores a committed resource of one workflow-start kind and
// says which workflow (id, function, the resource id its input carries)
// the sweeper must start for it.
type launchFixture struct {
	store func(t *testing.T, acct domain.Account, key domain.APIKey) (id string)
	wfID  func(id string) string
	wf    any
	// inputID reads the resource id out of the workflow's input.
	inputID func(arg any) string
}

// launchFixtures has one entry per registered kind, under the name stored
// in workflow_launches.kind (rows written before the registry carry these
// names, so they must not change).
var launchFixtures = map[string]launchFixture{
	"charge": {
		store: func(t *testing.T, acct domain.Account, _ domain.APIKey) string {
			return storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypePixIn, Status: domain.StatusPending,
				Amount: 1000, FeeAmount: 50, NetAmount: 950, ExpiresAt: domain.TimePtr(time.Now().Add(time.Hour))}).ID
		},
		wfID: workflows.ChargeWorkflowID, wf: workflows.ChargeWorkflow,
		inputID: func(arg any) string { return arg.(workflows.ChargeInput).Charge.ID },
	},
	"transfer": {
		store: func(t *testing.T, acct domain.Account, _ domain.APIKey) string {
			return storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypePixOut, Status: domain.StatusPending,
				Amount: 1000, NetAmount: 1000}).ID
		},
		wfID: workflows.TransferWorkflowID, wf: workflows.TransferWorkflow,
		inputID: func(arg any) string { return arg.(workflows.TransferInput).Transfer.ID },
	},
	"refund": {
		store: func(t *testing.T, acct domain.Account, _ domain.APIKey) string {
			return storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypePixIn, Status: domain.StatusCompleted,
				Amount: 1000, FeeAmount: 50, NetAmount: 950, CompletedAt: domain.TimePtr(time.Now()),
				Details: domain.SomeJSON(domain.Details{Refund: &domain.RefundBlock{Status: domain.StatusProcessing}})}).ID
		},
		wfID: workflows.RefundWorkflowID, wf: workflows.RefundWorkflow,
		inputID: func(arg any) string { return arg.(workflows.RefundInput).Deposit.ID },
	},
	"schedule": {
		store: func(t *testing.T, acct domain.Account, key domain.APIKey) string {
			at := time.Now().Add(time.Hour).UTC()
			sc := schedule.Schedule{ID: domain.NewID("sch_"), AccountID: acct.ID, APIKeyID: key.ID, Trigger: schedule.Once,
				At: &at, Status: schedule.StatusActive, CreatedAt: time.Now().UTC(),
				Payload: schedule.Payload{Method: schedule.MethodPix, Amount: 1000, PixKey: "a@b.co", PixKeyType: "EMAIL"}}
			if err := db.InsertSchedule(t.Context(), sharedDB, sc); err != nil {
				t.Fatal(err)
			}
			return sc.ID
		},
		wfID: workflows.ScheduleWorkflowID, wf: workflows.ScheduleWorkflow,
		inputID: func(arg any) string { return arg.(workflows.ScheduleInput).Schedule.ID },
	},
	// PIX automatic: an authorization's workflow.
	"pix-automatic": {
		store: func(t *testing.T, acct domain.Account, key domain.APIKey) string {
			a := pixauto.Authorization{ID: domain.NewID(""), AccountID: acct.ID, APIKeyID: key.ID, CustomerID: "cus_x",
				Frequency: pixauto.Monthly, StartDate: "2099-01-01", Status: pixauto.StatusPending, CreatedAt: time.Now().UTC()}
			if _, err := db.InsertAuthorization(t.Context(), sharedDB, a); err != nil {
				t.Fatal(err)
			}
			return a.ID
		},
		wfID: workflows.AuthorizationWorkflowID, wf: workflows.AuthorizationWorkflow,
		inputID: func(arg any) string { return arg.(workflows.AuthorizationInput).Authorization.ID },
	},
	// Subscriptions.
	"subscription": {
		store: func(t *testing.T, acct domain.Account, key domain.APIKey) string {
			s := billing.Subscription{ID: domain.NewID("sub_"), AccountID: acct.ID, APIKeyID: key.ID, Status: billing.SubscriptionActive,
				Method: domain.MethodPix, Amount: 1000, Cycle: billing.CycleMonthly, Anchor: "2099-01-31", NextCycle: 1, NextDueDate: "2099-01-31",
				CreatedAt: domain.NewTime(time.Now())}
			s.ExternalID = "psub_" + s.ID
			if err := db.InsertSubscription(t.Context(), sharedDB, s); err != nil {
				t.Fatal(err)
			}
			return s.ID
		},
		wfID: workflows.SubscriptionWorkflowID, wf: workflows.SubscriptionWorkflow,
		inputID: func(arg any) string { return arg.(workflows.SubscriptionInput).Subscription.ID },
	},
	// Credit bureau: a dunning's workflow.
	"dunning": {
		store: func(t *testing.T, acct domain.Account, _ domain.APIKey) string {
			d := bureau.Dunning{ID: domain.NewID("dun_"), AccountID: acct.ID, Status: bureau.DunningPending, Type: bureau.DunningTypeCreditBureau,
				Payment: domain.NewID("bil_"), Value: 1000, Fee: bureau.DunningFee, Debtor: domain.SomeJSON(bureau.Debtor{Name: "M"}),
				DocumentType: "application/pdf", CreatedAt: domain.NewTime(time.Now())}
			err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error { _, err := db.InsertDunning(t.Context(), tx, d, []byte("%PDF")); return err })
			if err != nil {
				t.Fatal(err)
			}
			return d.ID
		},
		wfID: workflows.DunningWorkflowID, wf: workflows.DunningWorkflow,
		inputID: func(arg any) string { return arg.(workflows.DunningInput).Dunning.ID },
	},
	// Fiscal invoices: an invoice's workflow (its intent is written by the
	// charge's paid transition).
	"fiscal_invoice": {
		store: func(t *testing.T, acct domain.Account, _ domain.APIKey) string {
			c := storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypePixIn, Status: domain.StatusCompleted,
				Amount: 1000, FeeAmount: 50, NetAmount: 950, CompletedAt: domain.TimePtr(time.Now()),
				Details: domain.SomeJSON(domain.Details{FiscalInvoice: true})})
			inv := fiscal.NewFiscalInvoice(c)
			err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error { _, err := db.InsertFiscalInvoice(t.Context(), tx, inv); return err })
			if err != nil {
				t.Fatal(err)
			}
			return inv.ID
		},
		wfID: workflows.FiscalInvoiceWorkflowID, wf: workflows.FiscalInvoiceWorkflow,
		inputID: func(arg any) string { return arg.(workflows.FiscalInvoiceInput).Invoice.ID },
	},
	// Billings: a billing's workflow.
	"billing": {
		store: func(t *testing.T, acct domain.Account, _ domain.APIKey) string {
			b := billing.Billing{ID: domain.NewID("bil_"), AccountID: acct.ID, Method: domain.MethodBoleto, Status: billing.BillingPending,
				Amount: 1000, InstallmentCount: 1, DueDate: domain.Today(time.Now()).AddDate(0, 0, 3), PageToken: domain.NewID("pg_"),
				Customer: domain.SomeJSON(billing.BillingCustomer{Name: "Ana", TaxID: "52998224725"}), CreatedAt: domain.NewTime(time.Now())}
			if err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error { _, err := db.InsertBilling(t.Context(), tx, b, nil); return err }); err != nil {
				t.Fatal(err)
			}
			return b.ID
		},
		wfID: workflows.BillingWorkflowID, wf: workflows.BillingWorkflow,
		inputID: func(arg any) string { return arg.(workflows.BillingInput).Billing.ID },
	},
	"billing-refund": {
		store: func(t *testing.T, acct domain.Account, _ domain.APIKey) string {
			b := paidBoleto(t, acct, 1000)
			refundID := domain.NewID("")
			if err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error {
				_, err := activities.RefundBilling(t.Context(), tx, b.ID, 0, activities.BillingRefundInput{RefundID: refundID, Amount: 500, At: time.Now()})
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return refundID
		},
		wfID: workflows.BillingRefundWorkflowID, wf: workflows.BillingRefundWorkflow,
		inputID: func(arg any) string { return arg.(workflows.BillingRefundInput).RefundID },
	},
	// Mobile recharge and crypto.
	"recharge": {
		store: func(t *testing.T, acct domain.Account, _ domain.APIKey) string {
			return storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypeMobileRecharge, Status: domain.StatusPending,
				Amount: 2000, NetAmount: 2000, Details: domain.SomeJSON(domain.Details{Recharge: &domain.RechargeBlock{Phone: "11937654321", Operator: "VIVO"}})}).ID
		},
		wfID: workflows.RechargeWorkflowID, wf: workflows.RechargeWorkflow,
		inputID: func(arg any) string { return arg.(workflows.RechargeInput).Recharge.ID },
	},
	"crypto-deposit": {
		store: func(t *testing.T, acct domain.Account, _ domain.APIKey) string {
			return storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypeCryptoIn, Status: domain.StatusPending,
				Amount: 2000, NetAmount: 2000, ExpiresAt: domain.TimePtr(time.Now().Add(time.Hour)),
				Details: domain.SomeJSON(domain.Details{Crypto: &domain.CryptoBlock{PayCurrency: "BTC", Address: "x-" + domain.NewID("")}})}).ID
		},
		wfID: workflows.CryptoWorkflowID, wf: workflows.CryptoDepositWorkflow,
		inputID: func(arg any) string { return arg.(workflows.CryptoInput).Record.ID },
	},
	"crypto-withdrawal": {
		store: func(t *testing.T, acct domain.Account, _ domain.APIKey) string {
			return storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypeCryptoOut, Status: domain.StatusPending,
				Amount: 2000, NetAmount: 2000, Details: domain.SomeJSON(domain.Details{Crypto: &domain.CryptoBlock{PayCurrency: "ETH"}})}).ID
		},
		wfID: workflows.CryptoWorkflowID, wf: workflows.CryptoWithdrawalWorkflow,
		inputID: func(arg any) string { return arg.(workflows.CryptoInput).Record.ID },
	},
	// MED disputes: a dispute's workflow.
	"med": {
		store: func(t *testing.T, acct domain.Account, _ domain.APIKey) string {
			return storeTx(t, domain.Transaction{AccountID: acct.ID, Type: domain.TypeMED, Status: med.MedOpen, Amount: 1000,
				Details: domain.SomeJSON(domain.Details{Med: &domain.MedBlock{DepositID: "dep_x", Blocked: 1000}})}).ID
		},
		wfID: workflows.MEDWorkflowID, wf: workflows.MEDWorkflow,
		inputID: func(arg any) string { return arg.(workflows.MEDInput).MED.ID },
	},
}

// Every registered workflow-start kind round-trips through the sweeper: an
// intent stored under the kind's name, for a committed resource, is started
// as that resource's workflow. A kind registered without a fixture here (or
// a fixture whose kind is not registered, e.g. a renamed kind that would
// strand the rows already stored under the old name) fails the test.
//
// Not parallel: the sweeper takes every due intent of the table, and the
// parallel launch tests expect their sweeps to start only their own.
func TestEveryLaunchKindRoundTripsThroughTheSweeper(t *testing.T) {
	kinds := service.LaunchKinds()
	fixtures := make([]string, 0, len(launchFixtures))
	for k := range launchFixtures {
		fixtures = append(fixtures, k)
	}
	slices.Sort(fixtures)
	if !slices.Equal(kinds, fixtures) {
		t.Fatalf("registered kinds %v, fixtures %v: each registered kind needs a fixture here, and stored kinds never change", kinds, fixtures)
	}
	acct := newAccount(t, "Loja Registro")
	key, _, err := service.NewKey(t.Context(), sharedDB, acct.ID, domain.NewKey{Name: "registry", Permissions: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	type started struct {
		wf  any
		arg any
	}
	var mu sync.Mutex
	starts := map[string]started{} // by workflow id
	temporal := servicemock.NewMockTemporal(gomock.NewController(t))
	temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(_ context.Context, o client.StartWorkflowOptions, wf any, args ...any) (client.WorkflowRun, error) {
			mu.Lock()
			defer mu.Unlock()
			starts[o.ID] = started{wf, args[0]} // other tests' leftover due intents are started too: harmless
			return nil, nil
		}).AnyTimes()
	sweeper := &service.IntentSweeper{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue}
	ids := map[string]string{}
	for _, kind := range kinds {
		id := launchFixtures[kind].store(t, acct, key)
		ids[kind] = id
		if err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error {
			return db.InsertLaunch(t.Context(), tx, kind, id, 0)
		}); err != nil {
			t.Fatal(err)
		}
		makeDue(t, id)
	}
	for _, kind := range kinds {
		sweepUntilClear(t, sweeper, ids[kind])
	}
	for _, kind := range kinds {
		f := launchFixtures[kind]
		id := ids[kind]
		mu.Lock()
		s, ok := starts[f.wfID(id)]
		mu.Unlock()
		if !ok {
			t.Errorf("%s: the sweeper started no workflow %s", kind, f.wfID(id))
			continue
		}
		if reflect.ValueOf(s.wf).Pointer() != reflect.ValueOf(f.wf).Pointer() {
			t.Errorf("%s: started workflow %v, want %v", kind, s.wf, f.wf)
		}
		if got := f.inputID(s.arg); got != id {
			t.Errorf("%s: workflow input names %q, want %q", kind, got, id)
		}
	}
}

// An intent of a kind nobody registered is not started: the sweeper drops
// it as one without its resource, and goes on (it used to go on to start
// an empty launch: a workflow with no id and no function).
func TestSweeperDropsAnIntentOfAnUnregisteredKind(t *testing.T) {
	id := domain.NewID("")
	if err := db.InTx(t.Context(), sharedDB, func(tx *sqlx.Tx) error {
		return db.InsertLaunch(t.Context(), tx, "no-such-kind", id, 0)
	}); err != nil {
		t.Fatal(err)
	}
	makeDue(t, id)
	temporal := servicemock.NewMockTemporal(gomock.NewController(t))
	temporal.EXPECT().ExecuteWorkflow(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).DoAndReturn(
		func(_ context.Context, o client.StartWorkflowOptions, wf any, _ ...any) (client.WorkflowRun, error) {
			if wf == nil || o.ID == "" || o.ID == id || o.ID == "no-such-kind/"+id {
				t.Errorf("started %q (%v) for an unregistered kind", o.ID, wf)
			}
			return nil, nil
		}).AnyTimes()
	sweepUntilClear(t, &service.IntentSweeper{DB: sharedDB, Temporal: temporal, TaskQueue: taskQueue}, id)
}

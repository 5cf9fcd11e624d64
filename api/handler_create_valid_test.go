package api

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/brcode"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/schedule"
	"github.com/jangada/jangada/service"
)

// A valid body reaches the use case once, as the validated domain request,
// and its result is mapped into the success envelope.
func TestHandlerCreateValid(t *testing.T) {
	t.Parallel()
	created := domain.NewTime(time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC))
	expires := domain.NewTime(time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC))
	const copyPaste = "00020101021226...6304ABCD"

	// The use case answers for each route.
	chargeFor := func(in domain.NewCharge) service.CreatedCharge {
		return service.CreatedCharge{
			Charge: domain.Transaction{
				ID: "ch_1", AccountID: testAccountID, Type: domain.TypePixIn, Status: domain.StatusPending,
				Amount: in.Amount, FeeAmount: 50, NetAmount: in.Amount - 50, Description: in.Description,
				CopyPaste: ptr(copyPaste), ExpiresAt: &expires, CreatedAt: created,
			},
			QRCodeBase64: "data:image/png;base64,iVBORw0KGgo=",
		}
	}
	transferFor := func(in domain.NewTransfer) domain.Transaction {
		return domain.Transaction{
			ID: "tx_out_1", AccountID: testAccountID, Type: domain.TypePixOut, Status: domain.StatusProcessing,
			Amount: in.Amount, FeeAmount: 50, NetAmount: in.Amount, Description: in.Description, CreatedAt: created,
			Details: domain.SomeJSON(domain.Details{PixKey: in.PixKey, PixKeyType: in.PixKeyType, Debit: in.Amount + 50}),
		}
	}
	chargeCase := func(want domain.NewCharge, fields map[string]string) func(t *testing.T, f *fixture) map[string]string {
		return func(t *testing.T, f *fixture) map[string]string {
			f.charges.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
				DoAndReturn(func(_ context.Context, acct domain.Account, key domain.APIKey, in domain.NewCharge) (service.CreatedCharge, error) {
					expectCaller(t, acct, key)
					if !reflect.DeepEqual(in, want) {
						t.Errorf("Charges.Create got\n%+v\nwant\n%+v", in, want)
					}
					return chargeFor(in), nil
				})
			return fields
		}
	}
	transferCase := func(want domain.NewTransfer, fields map[string]string) func(t *testing.T, f *fixture) map[string]string {
		return func(t *testing.T, f *fixture) map[string]string {
			f.transfers.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
				DoAndReturn(func(_ context.Context, acct domain.Account, key domain.APIKey, in domain.NewTransfer) (domain.Transaction, error) {
					expectCaller(t, acct, key)
					if !reflect.DeepEqual(in, want) {
						t.Errorf("Transfers.Create got\n%+v\nwant\n%+v", in, want)
					}
					return transferFor(in), nil
				})
			return fields
		}
	}
	scheduleCase := func(check func(t *testing.T, in schedule.NewSchedule)) func(t *testing.T, f *fixture) map[string]string {
		return func(t *testing.T, f *fixture) map[string]string {
			f.schedules.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
				DoAndReturn(func(_ context.Context, acct domain.Account, key domain.APIKey, in schedule.NewSchedule) (schedule.Record, error) {
					expectCaller(t, acct, key)
					check(t, in)
					return schedule.Record{
						ID: "sch_1", Label: in.Label, Amount: in.Payload.Amount, Method: schedule.MethodLabel(in.Payload.Method),
						TriggerType: strings.ToLower(in.Trigger), NextRunAt: schedule.Dash, Status: schedule.StatusActive,
						CoverFee: in.Payload.CoverFee, MaxRuns: in.MaxRuns, CreatedAt: created,
					}, nil
				})
			return map[string]string{"id": `"sch_1"`, "status": `"active"`}
		}
	}

	brAmount := encodeBRCode(t, brcode.Payload{Key: "Loja@Example.com", Amount: 1234, TxID: "***"})
	brOpen := encodeBRCode(t, brcode.Payload{Key: "+5511987654321", TxID: "***"})
	at := time.Now().Add(48 * time.Hour).Truncate(time.Second)
	atText := at.In(time.FixedZone("BRT", -3*3600)).Format(time.RFC3339)

	cases := []struct {
		name, path, permission, body, message string
		// expect sets the one expected use case call and returns the data
		// fields the answer must carry, by their exact JSON text.
		expect func(t *testing.T, f *fixture) map[string]string
		absent []string
	}{
		{
			name: "payment-pix/create: minimal body with defaults", path: "/v1/payment-pix/create", permission: "payment-pix/create",
			body: `{"amount":10.5,"description":"  Pedido 123  "}`, message: "PIX charge created",
			expect: chargeCase(domain.NewCharge{Amount: 1050, Description: "Pedido 123", ExpiresIn: 24 * time.Hour},
				map[string]string{
					"id": `"ch_1"`, "status": `"PENDING"`, "amount": `10.50`, "feeAmount": `0.50`, "netAmount": `10.00`,
					"copyPaste": `"` + copyPaste + `"`, "qrCodeBase64": `"data:image/png;base64,iVBORw0KGgo="`,
					"qrcodeUrl": `"` + testPublicURL + `/qr/ch_1.png"`, "expiresAt": `"2026-03-15T12:00:00.000Z"`,
					"createdAt": `"2026-03-14T12:00:00.000Z"`,
				}),
			absent: []string{"accountId", "AccountID"},
		},
		{
			name: "payment-pix/create: payer object, options and unknown fields ignored", path: "/v1/payment-pix/create", permission: "payment-pix/create",
			body: `{"amount":1000000,"description":"Pedido grande","coverFee":true,"emitFiscalInvoice":false,"expirationSeconds":3600,` +
				`"payer":{"name":" Ana Souza ","document":"` + validCPF + `"},"externalReference":"ord-1","splitUser":" p@example.com ","splitTax":12.5,` +
				`"subaccountId":null,"somethingElse":{"x":1}}`,
			message: "PIX charge created",
			expect: chargeCase(domain.NewCharge{
				Amount: 100_000_000, Description: "Pedido grande", CoverFee: true, ExpiresIn: time.Hour,
				Payer: &domain.Party{Name: "Ana Souza", Document: "52998224725"}, ExternalReference: ptr("ord-1"),
				SplitUser: "p@example.com", SplitTax: 1250,
			}, map[string]string{"amount": `1000000.00`, "feeAmount": `0.50`, "netAmount": `999999.50`}),
		},
		{
			name: "payment-pix/create: flat payerName and payerDocument", path: "/v1/payment-pix/create", permission: "payment-pix/create",
			body:    `{"amount":1,"description":"abc","payerName":"Ana","payerDocument":"` + validCPF + `"}`,
			message: "PIX charge created",
			expect: chargeCase(domain.NewCharge{
				Amount: 100, Description: "abc", ExpiresIn: 24 * time.Hour, Payer: &domain.Party{Name: "Ana", Document: "52998224725"},
			}, map[string]string{"amount": `1.00`}),
		},
		{
			name: "transfer-pix/create: EMAIL key", path: "/v1/transfer-pix/create", permission: "transfer-pix/create",
			body: `{"amount":25,"pixKey":" Fulano@Example.com ","pixKeyType":"email","description":"aluguel","externalReference":"pay-1"}`, message: "PIX transfer created",
			expect: transferCase(domain.NewTransfer{
				Amount: 2500, Description: "aluguel", PixKey: "fulano@example.com", PixKeyType: "EMAIL", CoverFee: true, ExternalReference: ptr("pay-1"),
			}, map[string]string{
				"id": `"tx_out_1"`, "type": `"PIX_OUT"`, "status": `"PROCESSING"`, "amount": `25.00`, "currency": `"BRL"`,
				"pixKey": `"fulano@example.com"`, "pixKeyType": `"EMAIL"`, "description": `"aluguel"`,
			}),
			absent: []string{"accountId", "debit", "details"},
		},
		{
			name: "transfer-pix/create: CPF key, coverFee false", path: "/v1/transfer-pix/create", permission: "transfer-pix/*",
			body: `{"amount":0.01,"pixKey":"` + validCPF + `","pixKeyType":"CPF","coverFee":false}`, message: "PIX transfer created",
			expect: transferCase(domain.NewTransfer{Amount: 1, PixKey: "52998224725", PixKeyType: "CPF"},
				map[string]string{"amount": `0.01`, "pixKey": `"52998224725"`}),
		},
		{
			name: "transfer-pix/create: BR Code with an amount", path: "/v1/transfer-pix/create", permission: "transfer-pix/create",
			body: `{"pixCopyPaste":` + jsonString(t, brAmount) + `}`, message: "PIX transfer created",
			expect: transferCase(domain.NewTransfer{Amount: 1234, PixKey: "loja@example.com", PixKeyType: "EMAIL", CoverFee: true},
				map[string]string{"amount": `12.34`, "pixKeyType": `"EMAIL"`}),
		},
		{
			name: "transfer-pix/create: open-amount BR Code with the amount in the body", path: "/v1/transfer-pix/create", permission: "transfer-pix/create",
			body: `{"amount":99.9,"pixCopyPaste":` + jsonString(t, brOpen) + `}`, message: "PIX transfer created",
			expect: transferCase(domain.NewTransfer{Amount: 9990, PixKey: "+5511987654321", PixKeyType: "TELEFONE", CoverFee: true},
				map[string]string{"amount": `99.90`, "pixKeyType": `"TELEFONE"`}),
		},
		{
			name: "payouts/create: legacy alias", path: "/v1/payouts/create", permission: "payouts/create",
			body: `{"amount":1000000,"pixKey":"Fulano@Example.com","pixKeyType":"EMAIL"}`, message: "PIX transfer created",
			expect: transferCase(domain.NewTransfer{Amount: 100_000_000, PixKey: "fulano@example.com", PixKeyType: "EMAIL", CoverFee: true},
				map[string]string{"id": `"tx_out_1"`, "amount": `1000000.00`}),
		},
		{
			name: "transfer-internal/create", path: "/v1/transfer-internal/create", permission: "transfer-internal/create",
			body: `{"amount":0.01,"recipientEmail":" Bob@Example.COM ","description":"  acerto ","externalReference":"int-1"}`, message: "Internal transfer completed",
			expect: func(t *testing.T, f *fixture) map[string]string {
				want := domain.NewInternal{Amount: 1, RecipientEmail: "bob@example.com", Description: "acerto", ExternalReference: ptr("int-1")}
				f.internal.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any(), gomock.Any()).
					DoAndReturn(func(_ context.Context, acct domain.Account, key domain.APIKey, in domain.NewInternal) (domain.Transaction, error) {
						expectCaller(t, acct, key)
						if !reflect.DeepEqual(in, want) {
							t.Errorf("Internal.Create got\n%+v\nwant\n%+v", in, want)
						}
						return domain.Transaction{
							ID: "tx_int_1", AccountID: testAccountID, Type: domain.TypeInternalOut, Status: domain.StatusCompleted,
							Amount: in.Amount, NetAmount: in.Amount, Description: in.Description, ExternalReference: in.ExternalReference, CreatedAt: created,
							Details: domain.SomeJSON(domain.Details{RecipientEmail: in.RecipientEmail, RecipientName: "Bob", PairID: "pair_1", CounterpartyID: "acc_bob"}),
						}, nil
					})
				return map[string]string{
					"id": `"tx_int_1"`, "type": `"INTERNAL_TRANSFER_OUT"`, "amount": `0.01`, "transferKind": `"internal"`,
					"recipientEmail": `"bob@example.com"`, "externalReference": `"int-1"`,
				}
			},
			absent: []string{"accountId", "counterpartyId"},
		},
		{
			name: "refunds/create: by e2eId with nature and refundId", path: "/v1/refunds/create", permission: "refunds/create",
			body: `{"e2eId":" E12345678202603141200abcdefghijk ","amount":10.5,"nature":"retirada","refundId":"rf-1","description":"devolução"}`, message: "Refund requested",
			expect: func(t *testing.T, f *fixture) map[string]string {
				want := domain.NewRefund{DepositRef: "E12345678202603141200abcdefghijk", RefundID: "rf-1", Amount: 1050, Nature: "RETIRADA", Description: "devolução"}
				f.refunds.EXPECT().Create(gomock.Any(), gomock.Any(), gomock.Any()).
					DoAndReturn(func(_ context.Context, acct domain.Account, in domain.NewRefund) (domain.Transaction, error) {
						if acct.ID != testAccountID {
							t.Errorf("Refunds.Create got account %q", acct.ID)
						}
						if !reflect.DeepEqual(in, want) {
							t.Errorf("Refunds.Create got\n%+v\nwant\n%+v", in, want)
						}
						return domain.Transaction{
							ID: "tx_in_1", AccountID: testAccountID, Type: domain.TypePixIn, Status: domain.StatusCompleted,
							Amount: in.Amount, FeeAmount: 50, NetAmount: in.Amount - 50, CreatedAt: created,
							Details: domain.SomeJSON(domain.Details{Refund: &domain.RefundBlock{
								Status: "PROCESSING", RefundID: in.RefundID, RequestedAt: created, DebitNet: 1000, DepositNet: 1000,
								Nature: in.Nature, Description: in.Description, StatementID: "tx_refund_1",
							}}),
						}, nil
					})
				return map[string]string{"id": `"tx_in_1"`, "amount": `10.50`, "status": `"COMPLETED"`}
			},
			absent: []string{"accountId"},
		},
		{
			name: "refunds/create: by transactionId, nature defaults to ORIGINAL", path: "/v1/refunds/create", permission: "refunds/create",
			body: `{"transactionId":"tx_in_1","e2eId":"ignored","amount":1}`, message: "Refund requested",
			expect: func(t *testing.T, f *fixture) map[string]string {
				want := domain.NewRefund{DepositRef: "tx_in_1", Amount: 100, Nature: "ORIGINAL"}
				f.refunds.EXPECT().Create(gomock.Any(), gomock.Any(), want).
					Return(domain.Transaction{ID: "tx_in_1", Type: domain.TypePixIn, Status: domain.StatusCompleted, Amount: 100, CreatedAt: created}, nil)
				return map[string]string{"id": `"tx_in_1"`, "amount": `1.00`}
			},
		},
		{
			name: "transfer-scheduled/create: BALANCE_THRESHOLD internal", path: "/v1/transfer-scheduled/create", permission: "transfer-scheduled/create",
			body: `{"triggerType":"balance_threshold","balanceThreshold":1000,"maxRuns":3,"label":" aluguel ",` +
				`"payload":{"method":"INTERNA","amount":5,"recipientEmail":"Bob@Example.com"}}`,
			message: "Scheduled transfer created",
			expect: scheduleCase(func(t *testing.T, in schedule.NewSchedule) {
				want := schedule.NewSchedule{
					CreatedFrom: "192.0.2.1", Label: "aluguel", Trigger: schedule.BalanceThreshold, Threshold: 100_000, MaxRuns: 3,
					Payload: schedule.Payload{Method: schedule.MethodInternal, Amount: 500, RecipientEmail: "bob@example.com"},
				}
				if !reflect.DeepEqual(in, want) {
					t.Errorf("Schedules.Create got\n%+v\nwant\n%+v", in, want)
				}
			}),
		},
		{
			name: "transfer-scheduled/create: ONCE pix", path: "/v1/transfer-scheduled/create", permission: "transfer-scheduled/*",
			body: `{"triggerType":"ONCE","scheduledAt":"` + atText + `",` +
				`"payload":{"method":"pix_padrao","amount":25,"pixKey":"Fulano@Example.com","pixKeyType":"email"}}`,
			message: "Scheduled transfer created",
			expect: scheduleCase(func(t *testing.T, in schedule.NewSchedule) {
				if in.At == nil || !in.At.Equal(at) || in.At.Location() != time.UTC {
					t.Errorf("Schedules.Create got At %v, want %v in UTC", in.At, at)
				}
				want := schedule.Payload{Method: schedule.MethodPix, Amount: 2500, CoverFee: true, PixKey: "fulano@example.com", PixKeyType: "EMAIL"}
				if in.Trigger != schedule.Once || in.Rule != nil || in.Threshold != 0 || !reflect.DeepEqual(in.Payload, want) {
					t.Errorf("Schedules.Create got %+v, want trigger ONCE and payload %+v", in, want)
				}
			}),
		},
		{
			name: "transfer-scheduled/create: RECURRING weekly", path: "/v1/transfer-scheduled/create", permission: "transfer-scheduled/create",
			body: `{"triggerType":"RECURRING","recurrenceRule":{"interval":"Weekly","time":"09:30","dayOfWeek":1},` +
				`"payload":{"method":"interna","amount":5,"recipientEmail":"bob@example.com","coverFee":true}}`,
			message: "Scheduled transfer created",
			expect: scheduleCase(func(t *testing.T, in schedule.NewSchedule) {
				wantRule := &schedule.Rule{Interval: schedule.Weekly, Time: "09:30", Timezone: schedule.DefaultTimezone, DayOfWeek: ptr(1)}
				if in.Trigger != schedule.Recurring || !reflect.DeepEqual(in.Rule, wantRule) || in.At != nil {
					t.Errorf("Schedules.Create got trigger %q rule %+v, want RECURRING %+v", in.Trigger, in.Rule, wantRule)
				}
				if !in.Payload.CoverFee || in.Payload.Amount != 500 {
					t.Errorf("Schedules.Create got payload %+v, want amount 500 and coverFee", in.Payload)
				}
			}),
		},
	}
	for _, tc := range cases {
		t.Run("POST /v1/"+tc.name+" → 200", func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized(tc.permission)
			fields := tc.expect(t, f)
			data := expectOK(t, f.merchant("POST", tc.path, tc.body), tc.message)
			expectFields(t, data, fields)
			expectAbsent(t, data, tc.absent...)
		})
	}
}

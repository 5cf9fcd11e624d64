package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"mime/multipart"
	"strings"
	"time"

	"github.com/jangada/jangada/domain"
)

// The products' rounds past checkouts: MED, PIX automatic, mobile
// recharge, credit bureau, crypto and subscriptions.

// medRound pays a charge, opens a MED above R$ 50 against it (the
// automatic contest blocks the value) and resolves it, ACCEPTED (the
// value goes back to the payer) or REJECTED (released).
func (s *scen) medRound(ctx context.Context) {
	mi := s.p.med
	n := s.seq.Add(1)
	c := &op{kind: opCharge, from: mi, amount: int64(6000 + rand.IntN(9000)), want: "COMPLETED"}
	a, err := s.c.call(ctx, "POST", "/v1/payment-pix/create", s.ms[mi].Key, fmt.Sprintf("prod-%d", n), map[string]any{
		"amount": cents(c.amount), "description": fmt.Sprintf("Soak venda MED %d", n)})
	if settleOp(c, a, err) {
		var v struct{ ID string }
		json.Unmarshal(a.data, &v)
		c.id = v.ID
		s.pay(ctx, mi, c)
	}
	s.record(c)
	if !c.accepted || !s.waitStatus(ctx, mi, c.id, "COMPLETED", time.Minute) {
		return
	}
	amount := int64(5100) + rand.Int64N(c.amount-5100+1)
	want := "ACCEPTED"
	if n%2 == 0 {
		want = "REJECTED"
	}
	o := pop(opMED, mi, amount, want)
	defer s.record(o)
	a, err = s.c.call(ctx, "POST", "/v1/sandbox/meds", s.ms[mi].Key, "", map[string]any{"transactionId": c.id, "amount": cents(amount),
		"reason": "golpe do falso vendedor"})
	if !settleOp(o, a, err) {
		return
	}
	o.id = resourceID(o.kind, a.data)
	if !s.getStatus(ctx, mi, "/v1/meds/get/"+o.id, time.Minute, "UNDER_REVIEW") {
		o.accepted, o.unresolved = false, "the MED never reached UNDER_REVIEW"
		return
	}
	a, err = s.c.call(ctx, "POST", "/v1/sandbox/meds/"+o.id+"/resolve", s.ms[mi].Key, "", map[string]any{"status": want})
	if err == nil && a.status == 400 && strings.Contains(a.message, want) {
		a.status = 200
	}
	settleOp(o, a, err)
}

// today is the São Paulo date d days from now.
func today(d int) string {
	return time.Now().In(domain.SaoPaulo).AddDate(0, 0, d).Format(time.DateOnly)
}

// authBody is a PIX automatic authorization with a first payment.
func (s *scen) authBody(n int64, fixed int64) map[string]any {
	return map[string]any{"customerId": s.p.customer[s.p.pixauto], "description": fmt.Sprintf("Soak plano %d", n),
		"frequency": "MONTHLY", "fixedAmount": cents(fixed), "startDate": today(0), "firstPaymentAmount": cents(100 + n%900)}
}

// pixAutoRound creates an authorization and has the payer approve it
// (paying its first payment): ACTIVE, waiting for its cycles.
func (s *scen) pixAutoRound(ctx context.Context) {
	n := s.seq.Add(1)
	o := pop(opPixAuto, s.p.pixauto, int64(1000+rand.IntN(5000)), "ACTIVE")
	defer s.record(o)
	if _, ok := s.create(ctx, o, "/v1/pix-automatic/authorizations/create", s.authBody(n, o.amount)); ok {
		s.pixAutoFollow(ctx, o)
	}
}

// pixAutoFollow approves an authorization and, once ACTIVE, keeps it for
// an instruction.
func (s *scen) pixAutoFollow(ctx context.Context, o *op) {
	if !s.step(ctx, o, "POST", "/v1/sandbox/pix-automatic/authorizations/"+o.id+"/approve", "ACTIVE") {
		return
	}
	if s.getStatus(ctx, o.from, "/v1/pix-automatic/authorizations/get/"+o.id, time.Minute, "ACTIVE") {
		s.p.mu.Lock()
		s.p.auths = append(s.p.auths, o)
		s.p.mu.Unlock()
	}
}

// takeAuth takes an ACTIVE authorization with no instruction yet.
func (s *scen) takeAuth() *op {
	s.p.mu.Lock()
	defer s.p.mu.Unlock()
	if len(s.p.auths) == 0 {
		return nil
	}
	a := s.p.auths[0]
	s.p.auths = s.p.auths[1:]
	return a
}

// pixInstrRound schedules a payment instruction of an ACTIVE
// authorization, five days ahead: SCHEDULED, its workflow waiting.
func (s *scen) pixInstrRound(ctx context.Context) {
	auth := s.takeAuth()
	if auth == nil {
		s.pixAutoRound(ctx)
		return
	}
	o := pop(opPixInstr, auth.from, auth.amount, "SCHEDULED")
	defer s.record(o)
	s.create(ctx, o, "/v1/pix-automatic/payment-instructions/create", map[string]any{"authorizationId": auth.id,
		"amount": cents(auth.amount), "dueDate": today(5)})
}

// rechargeAmounts are amounts the sandbox operator sells.
var rechargeAmounts = []int64{1500, 2000, 2500, 3000}

// rechargeRound buys a recharge (paid at once) and one time in four
// cancels it at once, racing the operator's delivery: either outcome is
// final, and the money follows it.
func (s *scen) rechargeRound(ctx context.Context) {
	o := pop(opRecharge, s.p.recharge, rechargeAmounts[rand.IntN(len(rechargeAmounts))], "COMPLETED")
	defer s.record(o)
	if _, ok := s.create(ctx, o, "/v1/mobile-recharge/create", map[string]any{"phone": "11937654321", "amount": cents(o.amount)}); !ok {
		return
	}
	if rand.IntN(4) == 0 {
		o.want = "COMPLETED|CANCELED"
		a, err := s.c.call(ctx, "POST", "/v1/mobile-recharge/cancel/"+o.id, s.ms[o.from].Key, "", map[string]any{})
		if err == nil && a.status == 400 && strings.Contains(a.message, "can no longer be cancelled") {
			a.status = 200
		}
		settleOp(o, a, err)
	}
}

// reportRound buys a credit report: its fee is debited once.
func (s *scen) reportRound(ctx context.Context) {
	o := pop(opReport, s.p.bureau, 0, "COMPLETED")
	defer s.record(o)
	s.create(ctx, o, "/v1/bureau/reports/create", map[string]any{"customer": s.p.customer[s.p.bureau], "cpfCnpj": "11.222.333/0001-81"})
}

// dunningRound makes a BOLETO billing past due and sends it to the credit
// bureau (a multipart form with its document); one time in three its
// value ends in ,77 and the sandbox bureau denies it (the fee returned).
func (s *scen) dunningRound(ctx context.Context) {
	mi := s.p.bureau
	n := s.seq.Add(1)
	amount := int64(1000+rand.IntN(9000))/100*100 + 10
	want := "PROCESSED"
	if n%3 == 0 {
		amount, want = amount-10+77, "DENIED"
	}
	b := pop(opBillOverdue, mi, amount, "OVERDUE")
	if _, ok := s.create(ctx, b, "/v1/billings/create", billingBody(opBillOverdue, amount, n)); ok {
		s.step(ctx, b, "POST", "/v1/sandbox/billings/"+b.id+"/overdue", "OVERDUE")
	}
	s.record(b)
	if !b.accepted || !s.getStatus(ctx, mi, "/v1/billings/get/"+b.id, time.Minute, "OVERDUE") {
		return
	}
	o := pop(opDunning, mi, amount, want)
	defer s.record(o)
	ct, raw := dunningForm(b.id)
	a, err := s.c.callRaw(ctx, "POST", "/v1/bureau/dunnings/create", s.ms[mi].Key, fmt.Sprintf("prod-%d", s.seq.Add(1)), ct, raw)
	if settleOp(o, a, err) {
		o.id = resourceID(o.kind, a.data)
	}
}

// dunningForm is a dunning's multipart form for the billing (e2e's).
func dunningForm(payment string) (string, []byte) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range map[string]string{"payment": payment, "type": "CREDIT_BUREAU", "description": "Mensalidade em atraso",
		"customerName": "Devedor Soak", "customerCpfCnpj": "529.982.247-25", "customerPrimaryPhone": "(11) 98765-4321",
		"customerEmail": "devedor@example.com", "customerPostalCode": "01310-100", "customerAddress": "Av. Paulista",
		"customerAddressNumber": "1000", "customerProvince": "Bela Vista", "customerCity": "São Paulo", "customerState": "SP"} {
		w.WriteField(k, v)
	}
	fw, _ := w.CreateFormFile("documents", "nota.pdf")
	fw.Write([]byte("%PDF-1.4\n% nota fiscal\n"))
	w.Close()
	return w.FormDataContentType(), buf.Bytes()
}

// cryptoIn creates a crypto deposit and confirms it through the sandbox.
func (s *scen) cryptoIn(ctx context.Context) {
	o := pop(opCryptoIn, s.p.crypto, int64(1000+rand.IntN(9000)), "COMPLETED")
	defer s.record(o)
	if _, ok := s.create(ctx, o, "/v1/payment-crypto/create", map[string]any{"amount": cents(o.amount), "payCurrency": "BTC"}); ok {
		s.step(ctx, o, "POST", "/v1/sandbox/payment-crypto/"+o.id+"/pay", "COMPLETED")
	}
}

// cryptoOut quotes and sends a withdrawal in one call; the sandbox
// network settles it after the settle delay.
func (s *scen) cryptoOut(ctx context.Context) {
	o := pop(opCryptoOut, s.p.crypto, int64(500+rand.IntN(2000)), "COMPLETED")
	defer s.record(o)
	s.create(ctx, o, "/v1/transfer-crypto-auto/create", map[string]any{"amount": cents(o.amount), "payCurrency": "ETH", "address": ethAddress})
}

// subscriptionRound creates a BOLETO subscription due today: its first
// cycle is billed at once and it waits, ACTIVE, for the next.
func (s *scen) subscriptionRound(ctx context.Context) {
	o := pop(opSubscription, s.p.bill, int64(1000+rand.IntN(5000)), "ACTIVE")
	defer s.record(o)
	s.create(ctx, o, "/v1/subscriptions/create", s.subscriptionBody(o.amount, s.seq.Add(1)))
}

func (s *scen) subscriptionBody(amount, n int64) map[string]any {
	return map[string]any{"method": "BOLETO", "amount": cents(amount), "cycle": "MONTHLY", "nextDueDate": today(0),
		"description": fmt.Sprintf("Soak assinatura %d", n), "customer": billPayer}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"mime/multipart"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/jangada/jangada/subaccount"
)

// The products added after the first soak, run beside the load and through
// its faults, each on an account of its own so that its arithmetic is its
// own (and a balance that is off names its product). Their operations join
// the common checks (final states, balances, nothing posted twice, every
// webhook once: every product account has a dashboard endpoint to the
// receiver); the product checks add what only they can get wrong.
const (
	opBillBoleto   = "billing BOLETO"         // create + sandbox pay → RECEIVED
	opBillPix      = "billing PIX"            // create + sandbox pay (its charge) → RECEIVED
	opBillCard     = "billing card"           // CARD_CREDIT, the approving card → CONFIRMED
	opBillDeclined = "billing card declined"  // CARD_CREDIT, the declining card → FAILED
	opBillOverdue  = "billing overdue"        // BOLETO past due (a dunning's debt) → OVERDUE
	opBillRefund   = "billing refund"         // the whole of a paid billing → its line COMPLETED
	opBillRefundNo = "billing refund refused" // R$ x,13: the processor refuses → line FAILED, money back
	opSubscription = "subscription create"    // BOLETO, due today → ACTIVE (waits for its next cycle)
	opCheckout     = "checkout paid"          // link with products, a coupon half the time → session PAID
	opCheckoutExp  = "checkout expired"       // open-value link, its charge expired → session EXPIRED
	opMED          = "MED"                    // opened on a paid charge, resolved → ACCEPTED or REJECTED
	opPixAuto      = "PIX automatic"          // authorization + approve → ACTIVE, first payment PAID
	opPixInstr     = "PIX automatic instruction"
	opRecharge     = "mobile recharge" // → COMPLETED (or CANCELED when cancelled in time)
	opReport       = "bureau report"   // → COMPLETED, fee debited
	opDunning      = "bureau dunning"  // → PROCESSED (fee kept) or DENIED (R$ x,77: fee returned)
	opCryptoIn     = "crypto deposit"  // create + sandbox pay → COMPLETED
	opCryptoOut    = "crypto withdrawal"
)

// productKinds are the kinds whose money is read back from their records
// once final (op.delta), not computed from the request.
var productKinds = map[string]bool{opBillBoleto: true, opBillPix: true, opBillCard: true, opBillDeclined: true, opBillOverdue: true,
	opBillRefund: true, opBillRefundNo: true, opSubscription: true, opCheckout: true, opCheckoutExp: true, opMED: true, opPixAuto: true,
	opPixInstr: true, opRecharge: true, opReport: true, opDunning: true, opCryptoIn: true, opCryptoOut: true}

// Sandbox cards and a withdrawal address (CONTRACTS.md, e2e).
var (
	cardApprove = map[string]any{"holderName": "MARIA SOAK", "number": "4111111111111111", "expiryMonth": "12", "expiryYear": "2035", "ccv": "321"}
	cardDecline = map[string]any{"holderName": "MARIA SOAK", "number": "4000000000000002", "expiryMonth": "12", "expiryYear": "2035", "ccv": "321"}
	billPayer   = map[string]any{"name": "Maria Soak", "taxId": "529.982.247-25", "email": "maria.soak@example.com"}
	ethAddress  = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
)

// Checkout stock: a product with many lines (its sales never run out in a
// run), one with few (sold out under the load: every line one buyer), and
// a coupon with few uses.
const (
	priceA, priceB = int64(1200), int64(700)
	linesA, linesB = 500, 6
	couponMax      = 8
)

// prods is the products scenario's state.
type prods struct {
	// Account indexes into scen.ms.
	bill, checkout, med, pixauto, recharge, bureau, crypto   int
	customer                                                 map[int]string // one customer per account that needs one
	linkA, linkB, linkOpen, coupon, couponCode, prodA, prodB string

	mu       sync.Mutex
	billPaid []*op // paid billings of the billings account not refunded yet
	auths    []*op // ACTIVE authorizations with no instruction yet
}

// newProds creates the product accounts (appended to s.ms, each with a
// webhook endpoint to the receiver, verified, every feature on) and what
// their load needs: customers, products, a coupon, payment links.
func (s *scen) newProds(ctx context.Context, tag, hookURL string, rcv *receiver) error {
	p := &prods{customer: map[int]string{}}
	idx := []*int{&p.bill, &p.checkout, &p.med, &p.pixauto, &p.recharge, &p.bureau, &p.crypto}
	for _, at := range idx {
		i := len(s.ms)
		m, err := s.c.newMerchant(ctx, i, tag, hookURL, funding)
		if err != nil {
			return err
		}
		rcv.setSecret(m.ID, m.HookSecret)
		if err := s.c.must(ctx, "PATCH", "/admin/v1/accounts/"+m.ID, "", map[string]any{"verified": true,
			"features": map[string]any{"pixAutomatic": true, "creditBureau": true, "crypto": true, "mobileRecharge": true}}, nil); err != nil {
			return err
		}
		s.ms = append(s.ms, m)
		*at = i
	}
	for _, i := range []int{p.pixauto, p.bureau} {
		var c struct{ ID string }
		if err := s.c.must(ctx, "POST", "/v1/customers/create", s.ms[i].Key, map[string]any{"name": "Maria Pagadora",
			"email": "maria@example.com", "document": "529.982.247-25"}, &c); err != nil {
			return err
		}
		p.customer[i] = c.ID
	}
	k := s.ms[p.checkout].Key
	lines := func(prefix string, n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%s-%d\n", prefix, i)
		}
		return b.String()
	}
	var v struct{ ID string }
	if err := s.c.must(ctx, "POST", "/v1/products/create", k, map[string]any{"name": "Licença soak", "price": cents(priceA),
		"deliveries": []map[string]any{{"type": "TEXT_LINES", "linesText": lines("A", linesA)}}}, &v); err != nil {
		return err
	}
	p.prodA = v.ID
	if err := s.c.must(ctx, "POST", "/v1/products/create", k, map[string]any{"name": "Licença rara", "price": cents(priceB),
		"deliveries": []map[string]any{{"type": "TEXT_LINES", "linesText": lines("B", linesB)}, {"type": "LINK", "redirectUrl": "https://example.com/manual"}}}, &v); err != nil {
		return err
	}
	p.prodB = v.ID
	p.couponCode = "SOAK" + tag[len(tag)-6:]
	if err := s.c.must(ctx, "POST", "/v1/coupons/create", k, map[string]any{"code": p.couponCode, "discountType": "PERCENT",
		"discountValue": 10, "maxUses": couponMax}, &v); err != nil {
		return err
	}
	p.coupon = v.ID
	// Links with products are priced at their products' sum.
	for _, l := range []struct {
		to   *string
		body map[string]any
	}{
		{&p.linkA, map[string]any{"name": "Licenças", "fixedAmount": cents(priceA), "productIds": []string{p.prodA}}},
		{&p.linkB, map[string]any{"name": "Licenças raras", "fixedAmount": cents(priceB), "productIds": []string{p.prodB}}},
		{&p.linkOpen, map[string]any{"name": "Doação"}},
	} {
		if err := s.c.must(ctx, "POST", "/v1/payment-links/create", k, l.body, &v); err != nil {
			return err
		}
		*l.to = v.ID
	}
	s.p = p
	return nil
}

// prodLoop runs the products' operations, cycling the kinds, until ctx
// ends; -quick runs at least one full cycle so every product is exercised.
func (s *scen) prodLoop(ctx context.Context) {
	steps := []func(context.Context){
		func(c context.Context) { s.billing(c, opBillBoleto) },
		s.checkoutPaid,
		s.medRound,
		func(c context.Context) { s.billing(c, opBillPix) },
		s.pixAutoRound,
		s.rechargeRound,
		func(c context.Context) { s.billing(c, opBillCard) },
		s.billRefund,
		s.cryptoIn,
		s.checkoutExpired,
		s.reportRound,
		func(c context.Context) { s.billing(c, opBillDeclined) },
		s.pixInstrRound,
		s.cryptoOut,
		s.subscriptionRound,
		s.dunningRound,
		s.billRefund,
	}
	pacing := 100 * time.Millisecond
	for i := 0; ctx.Err() == nil || (s.quick && i < len(steps)); i++ {
		steps[i%len(steps)](context.Background())
		pause(ctx, pacing)
	}
}

// pop makes a product operation of kind on account from.
func pop(kind string, from int, amount int64, want string) *op {
	return &op{kind: kind, from: from, amount: amount, want: want, product: true}
}

// create sends a product create with an Idempotency-Key, records the
// answer on o and returns its data when 2xx.
func (s *scen) create(ctx context.Context, o *op, path string, body any) (json.RawMessage, bool) {
	n := s.seq.Add(1)
	a, err := s.c.call(ctx, "POST", path, s.ms[o.from].Key, fmt.Sprintf("prod-%d", n), body)
	if !settleOp(o, a, err) {
		return nil, false
	}
	o.id = resourceID(o.kind, a.data)
	return a.data, true
}

// step sends one follow-up request (a sandbox notice, a resolve) and
// records its answer on o; already, when set, is a 400 message fragment a
// retry gets after an earlier attempt already counted.
func (s *scen) step(ctx context.Context, o *op, method, path, already string) bool {
	a, err := s.c.call(ctx, method, path, s.ms[o.from].Key, "", map[string]any{})
	if err == nil && already != "" && a.status == 400 && strings.Contains(a.message, already) {
		a.status = 200
	}
	return settleOp(o, a, err)
}

// getStatus polls a record (GET path) until its status is one of want.
func (s *scen) getStatus(ctx context.Context, mi int, path string, within time.Duration, want ...string) bool {
	return waitFor(ctx, within, func() bool {
		a, err := s.c.call(ctx, "GET", path, s.ms[mi].Key, "", nil)
		var st struct{ Status string }
		if err == nil && a.ok() {
			json.Unmarshal(a.data, &st)
		}
		for _, w := range want {
			if st.Status == w {
				return true
			}
		}
		pause(ctx, 200*time.Millisecond)
		return false
	}) == nil
}

// billingBody is a billing create of kind.
func billingBody(kind string, amount int64, n int64) map[string]any {
	b := map[string]any{"amount": cents(amount), "customer": billPayer, "description": fmt.Sprintf("Soak fatura %d", n)}
	switch kind {
	case opBillPix:
		b["method"] = "PIX"
	case opBillCard:
		b["method"], b["creditCard"], b["installmentCount"] = "CARD_CREDIT", cardApprove, 2
	case opBillDeclined:
		b["method"], b["creditCard"] = "CARD_CREDIT", cardDecline
	default:
		b["method"] = "BOLETO"
	}
	return b
}

// billingWant is the final status of a billing of kind.
func billingWant(kind string) string {
	switch kind {
	case opBillCard:
		return "CONFIRMED"
	case opBillDeclined:
		return "FAILED"
	case opBillOverdue:
		return "OVERDUE"
	}
	return "RECEIVED"
}

// billing creates a billing and, for BOLETO and PIX, pays it through the
// sandbox (cards are answered by the sandbox processor on their own).
func (s *scen) billing(ctx context.Context, kind string) {
	p := s.p
	amount := int64(1000 + rand.IntN(9000))
	if amount%100 == 13 { // the refused-refund cents: a full refund must go through
		amount++
	}
	o := pop(kind, p.bill, amount, billingWant(kind))
	defer s.record(o)
	if _, ok := s.create(ctx, o, "/v1/billings/create", billingBody(kind, amount, s.seq.Add(1))); !ok {
		return
	}
	s.billingFollow(ctx, o)
}

// billingFollow pays a created BOLETO or PIX billing and keeps a billing
// that will be paid for the refunds.
func (s *scen) billingFollow(ctx context.Context, o *op) {
	switch o.kind {
	case opBillBoleto, opBillPix:
		if !s.step(ctx, o, "POST", "/v1/sandbox/billings/"+o.id+"/pay", "RECEIVED") {
			return
		}
	case opBillDeclined:
		return
	}
	s.p.mu.Lock()
	s.p.billPaid = append(s.p.billPaid, o)
	s.p.mu.Unlock()
}

// takePaid takes a billing whose payment was booked; nil when none is yet.
func (s *scen) takePaid(ctx context.Context) *op {
	p := s.p
	p.mu.Lock()
	if len(p.billPaid) == 0 {
		p.mu.Unlock()
		return nil
	}
	b := p.billPaid[0]
	p.billPaid = p.billPaid[1:]
	p.mu.Unlock()
	if !s.getStatus(ctx, b.from, "/v1/billings/get/"+b.id, 5*time.Second, "RECEIVED", "CONFIRMED") {
		p.mu.Lock()
		p.billPaid = append(p.billPaid, b)
		p.mu.Unlock()
		return nil
	}
	return b
}

// billRefund refunds a paid billing: one time in three first a part
// ending in ,13 that the sandbox processor refuses (the money must come
// back), then the whole of it.
func (s *scen) billRefund(ctx context.Context) {
	b := s.takePaid(ctx)
	if b == nil {
		s.billing(ctx, opBillBoleto)
		return
	}
	if rand.IntN(3) == 0 {
		s.refuseRefund(ctx, b)
		// "The whole of what is left" is read at the refund: the refused
		// part, still PENDING (its processor answer late: a worker killed),
		// would be left out and the billing end PARTIALLY_REFUNDED.
		if !s.refundsSettled(ctx, b, time.Minute) {
			s.p.mu.Lock()
			s.p.billPaid = append(s.p.billPaid, b)
			s.p.mu.Unlock()
			return
		}
	}
	o := pop(opBillRefund, b.from, b.amount, "COMPLETED")
	defer s.record(o)
	if _, ok := s.create(ctx, o, "/v1/billings/refund", map[string]any{"id": b.id, "description": "Soak estorno"}); ok {
		o.id = b.id
	}
}

// refundsSettled polls the billing until none of its refunds is PENDING.
func (s *scen) refundsSettled(ctx context.Context, b *op, within time.Duration) bool {
	return waitFor(ctx, within, func() bool {
		a, err := s.c.call(ctx, "GET", "/v1/billings/get/"+b.id, s.ms[b.from].Key, "", nil)
		var v struct {
			Status  string `json:"status"`
			Refunds []struct {
				Status string `json:"status"`
			} `json:"refunds"`
		}
		if err != nil || !a.ok() || json.Unmarshal(a.data, &v) != nil {
			return false
		}
		for _, r := range v.Refunds {
			if r.Status == "PENDING" {
				pause(ctx, 200*time.Millisecond)
				return false
			}
		}
		return v.Status == "RECEIVED" || v.Status == "CONFIRMED"
	}) == nil
}

// refuseRefund asks a refund of R$ 1,13 of b, which the sandbox refuses:
// the answer is a 400 saying so (or, when the processor's answer came
// late, the billing with the refund PENDING); its line must end FAILED
// with the money back.
func (s *scen) refuseRefund(ctx context.Context, b *op) {
	o := pop(opBillRefundNo, b.from, 113, "FAILED")
	defer s.record(o)
	a, err := s.c.call(ctx, "POST", "/v1/billings/refund", s.ms[b.from].Key, fmt.Sprintf("prod-%d", s.seq.Add(1)),
		map[string]any{"id": b.id, "amount": cents(113), "description": "Soak estorno recusado"})
	if err == nil && a.status == 400 && strings.Contains(a.message, "refus") {
		a.status = 200
	}
	if settleOp(o, a, err) {
		o.id = b.id
	}
}

// checkoutBody is a checkout of one of the links with products, with the
// coupon half the time.
func (s *scen) checkoutBody(n int64) map[string]any {
	p := s.p
	link := p.linkA
	if n%3 == 0 {
		link = p.linkB
	}
	b := map[string]any{"linkId": link, "method": "PIX", "externalReference": fmt.Sprintf("soak-%d", n),
		"payer": map[string]any{"name": "Ana Soak", "document": "529.982.247-25", "email": "ana.soak@example.com"}}
	if n%2 == 0 {
		b["couponCode"] = strings.ToLower(p.couponCode)
	}
	return b
}

// checkoutPaid runs a checkout and pays its charge through the sandbox.
// A checkout past the coupon's uses or the rare product's lines is
// refused (400): the checks prove the caps held.
func (s *scen) checkoutPaid(ctx context.Context) {
	o := pop(opCheckout, s.p.checkout, 0, "PAID")
	defer s.record(o)
	data, ok := s.create(ctx, o, "/v1/payment-links/checkout", s.checkoutBody(s.seq.Add(1)))
	if !ok {
		return
	}
	s.checkoutFollow(ctx, o, data)
}

// checkoutFollow pays (or, for an expiring one, expires) a session's
// charge.
func (s *scen) checkoutFollow(ctx context.Context, o *op, data json.RawMessage) {
	var v struct {
		TransactionID string  `json:"transactionId"`
		Amount        float64 `json:"amount"`
	}
	json.Unmarshal(data, &v)
	o.ref, o.amount = v.TransactionID, int64(v.Amount*100+0.5)
	action, want := "pay", "COMPLETED"
	if o.kind == opCheckoutExp {
		action, want = "expire", "CANCELED"
	}
	s.step(ctx, o, "POST", "/v1/sandbox/payment-pix/"+o.ref+"/"+action, want)
}

// checkoutExpired runs a checkout of the open-value link and expires its
// charge: the session must end EXPIRED, holding nothing.
func (s *scen) checkoutExpired(ctx context.Context) {
	o := pop(opCheckoutExp, s.p.checkout, 0, "EXPIRED")
	defer s.record(o)
	data, ok := s.create(ctx, o, "/v1/payment-links/checkout", map[string]any{"linkId": s.p.linkOpen, "method": "PIX",
		"amount": cents(int64(100 + rand.IntN(900)))})
	if ok {
		s.checkoutFollow(ctx, o, data)
	}
}

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
	return time.Now().In(subaccount.SaoPaulo).AddDate(0, 0, d).Format(time.DateOnly)
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

// resourceID is the id a create's answer names: a checkout's session, a
// subscription's own id, else the record's id.
func resourceID(kind string, data json.RawMessage) string {
	var v struct {
		ID             string `json:"id"`
		SessionID      string `json:"sessionId"`
		SubscriptionID string `json:"subscriptionId"`
	}
	json.Unmarshal(data, &v)
	switch kind {
	case opCheckout, opCheckoutExp:
		return v.SessionID
	case opSubscription:
		return v.SubscriptionID
	}
	return v.ID
}

// prodLostRequest is lostRequest for the products' creates; ok false when
// the kind cannot run now (no paid billing to refund, no ACTIVE
// authorization): a charge goes instead.
func (s *scen) prodLostRequest(kind, key string, n int64) (string, any, *op, bool) {
	p := s.p
	switch kind {
	case opBillBoleto:
		a := int64(1000 + rand.IntN(9000))
		if a%100 == 13 {
			a++
		}
		return "/v1/billings/create", billingBody(kind, a, n), pop(kind, p.bill, a, "RECEIVED"), true
	case opBillRefund:
		if b := s.takePaid(context.Background()); b != nil { // its payment booked: the refund must go through
			o := pop(kind, b.from, b.amount, "COMPLETED")
			o.id = b.id
			return "/v1/billings/refund", map[string]any{"id": b.id, "description": "Soak estorno perdido"}, o, true
		}
	case opSubscription:
		a := int64(1000 + rand.IntN(5000))
		return "/v1/subscriptions/create", s.subscriptionBody(a, n), pop(kind, p.bill, a, "ACTIVE"), true
	case opCheckout:
		// The product with many lines and no coupon: a lost create's retry
		// must not meet a cap the load used up meanwhile (its 400 would be
		// true, and no proof of anything).
		body := s.checkoutBody(1)
		body["externalReference"] = key
		return "/v1/payment-links/checkout", body, pop(kind, p.checkout, 0, "PAID"), true
	case opPixAuto:
		a := int64(1000 + rand.IntN(5000))
		return "/v1/pix-automatic/authorizations/create", s.authBody(n, a), pop(kind, p.pixauto, a, "ACTIVE"), true
	case opPixInstr:
		if auth := s.takeAuth(); auth != nil {
			return "/v1/pix-automatic/payment-instructions/create", map[string]any{"authorizationId": auth.id, "amount": cents(auth.amount),
				"dueDate": today(5)}, pop(kind, auth.from, auth.amount, "SCHEDULED"), true
		}
	case opRecharge:
		a := rechargeAmounts[rand.IntN(len(rechargeAmounts))]
		return "/v1/mobile-recharge/create", map[string]any{"phone": "11937654321", "amount": cents(a)}, pop(kind, p.recharge, a, "COMPLETED"), true
	case opReport:
		return "/v1/bureau/reports/create", map[string]any{"customer": p.customer[p.bureau], "cpfCnpj": "11.222.333/0001-81"},
			pop(kind, p.bureau, 0, "COMPLETED"), true
	case opCryptoIn:
		a := int64(1000 + rand.IntN(9000))
		return "/v1/payment-crypto/create", map[string]any{"amount": cents(a), "payCurrency": "BTC"}, pop(kind, p.crypto, a, "COMPLETED"), true
	case opCryptoOut:
		a := int64(500 + rand.IntN(2000))
		return "/v1/transfer-crypto-auto/create", map[string]any{"amount": cents(a), "payCurrency": "ETH", "address": ethAddress},
			pop(kind, p.crypto, a, "COMPLETED"), true
	}
	return "", nil, nil, false
}

// prodAfterLost takes a product create whose answer was lost and retried
// on to its final state, as the load does.
func (s *scen) prodAfterLost(ctx context.Context, o *op, data json.RawMessage) {
	switch o.kind {
	case opBillBoleto:
		s.billingFollow(ctx, o)
	case opCheckout:
		s.checkoutFollow(ctx, o, data)
	case opPixAuto:
		s.pixAutoFollow(ctx, o)
	case opCryptoIn:
		s.step(ctx, o, "POST", "/v1/sandbox/payment-crypto/"+o.id+"/pay", "COMPLETED")
	}
}

// identityOf extends identity to the products' answers: a checkout names
// its session and charge, a billing refund the billing and its refunds.
func identityOf(kind string, data json.RawMessage) string {
	var v struct {
		ID            string `json:"id"`
		SessionID     string `json:"sessionId"`
		TransactionID string `json:"transactionId"`
		Refunds       []struct {
			ID string `json:"id"`
		} `json:"refunds"`
	}
	json.Unmarshal(data, &v)
	switch kind {
	case opCheckout:
		if v.SessionID == "" {
			return ""
		}
		return v.SessionID + " " + v.TransactionID
	case opBillRefund:
		if v.ID == "" || len(v.Refunds) == 0 {
			return ""
		}
		ids := make([]string, len(v.Refunds))
		for i, r := range v.Refunds {
			ids[i] = r.ID
		}
		return v.ID + " refunds " + strings.Join(ids, ",")
	}
	return resourceID(kind, data)
}

// prodDeltas reads, for every accepted product operation, what it did to
// its account's available balance once final, from its own records: a
// billing paid credits its net (a refund takes back what its lines
// booked, none of a FAILED line), a session paid its charge's amount
// less the PIX fee, an ACCEPTED MED its value, an authorization its paid
// instructions' net, a recharge or a withdrawal completed its amount and
// fee, a deposit its net, a report its fee, a dunning its fee unless
// DENIED. The balances check then holds each account to them.
func prodDeltas(ctx context.Context, d *sqlx.DB, ops []*op) error {
	q := map[string]string{
		opBillBoleto:   `SELECT CASE WHEN status IN ('RECEIVED','CONFIRMED','REFUNDED','PARTIALLY_REFUNDED') THEN net_amount ELSE 0 END FROM billings WHERE id = $1`,
		opBillRefund:   `SELECT -COALESCE(sum(net_amount), 0) FROM transactions WHERE type = 'BILLING_REFUND' AND reference_id = $1 AND status <> 'FAILED'`,
		opBillRefundNo: `SELECT 0 WHERE $1 <> ''`,
		opSubscription: `SELECT 0 WHERE $1 <> ''`,
		opPixInstr:     `SELECT 0 WHERE $1 <> ''`,
		opCheckout:     fmt.Sprintf(`SELECT CASE WHEN status = 'PAID' THEN amount - %d ELSE 0 END FROM checkout_sessions WHERE id = $1`, pixInFee),
		opMED:          `SELECT CASE WHEN status = 'ACCEPTED' THEN -amount ELSE 0 END FROM transactions WHERE id = $1`,
		opPixAuto:      `SELECT COALESCE(sum(net_amount), 0) FROM transactions WHERE type = 'PIX_AUTOMATIC' AND details->'pixAutomatic'->>'authorizationId' = $1 AND status = 'PAID'`,
		opRecharge:     `SELECT CASE WHEN status = 'COMPLETED' THEN -(amount + fee_amount) ELSE 0 END FROM transactions WHERE id = $1`,
		opReport:       `SELECT -fee FROM bureau_reports WHERE id = $1`,
		opDunning:      `SELECT CASE WHEN status = 'DENIED' THEN 0 ELSE -fee END FROM dunnings WHERE id = $1`,
		opCryptoIn:     `SELECT CASE WHEN status = 'COMPLETED' THEN net_amount ELSE 0 END FROM transactions WHERE id = $1`,
		opCryptoOut:    `SELECT CASE WHEN status = 'COMPLETED' THEN -(amount + fee_amount) ELSE 0 END FROM transactions WHERE id = $1`,
	}
	for _, k := range []string{opBillPix, opBillCard, opBillDeclined, opBillOverdue} {
		q[k] = q[opBillBoleto]
	}
	q[opCheckoutExp] = q[opCheckout]
	for _, o := range ops {
		if !o.product || o.id == "" {
			continue
		}
		if err := d.GetContext(ctx, &o.delta, q[o.kind], o.id); err != nil {
			return fmt.Errorf("%s %s: %w", o.kind, o.id, err)
		}
	}
	return nil
}

// prodCheck holds what only the products can get wrong: no billing
// refund debited without its processor's answer (every refund line ends
// COMPLETED, debited once, or FAILED with its money back exactly, and the
// billing's refunds and refundedAmount agree), no checkout session paid
// twice or without its charge, a coupon's uses never past maxUses and
// equal to its paid sessions, each product line sold to one session, and
// no MED block left on any account.
func (s *scen) prodCheck(ctx context.Context, d *sqlx.DB) check {
	if s.p == nil {
		return check{"products hold", false, "the products scenario did not run"}
	}
	p := s.p
	var ids []string
	for _, i := range []int{p.bill, p.checkout, p.med, p.pixauto, p.recharge, p.bureau, p.crypto} {
		ids = append(ids, s.ms[i].ID)
	}
	var bad []string
	add := func(q string, args ...any) []string {
		var rows []string
		if err := d.SelectContext(ctx, &rows, q, args...); err != nil {
			return []string{err.Error()}
		}
		return rows
	}
	// Billing refunds: each line's money on the merchant's available.
	var lines, failed int
	d.GetContext(ctx, &lines, `SELECT count(*) FROM transactions WHERE type = 'BILLING_REFUND' AND account_id = ANY($1)`, pq.StringArray(ids))
	d.GetContext(ctx, &failed, `SELECT count(*) FROM transactions WHERE type = 'BILLING_REFUND' AND account_id = ANY($1) AND status = 'FAILED'`, pq.StringArray(ids))
	bad = append(bad, add(`SELECT 'billing refund line ' || t.id || ' of ' || t.reference_id || ' is ' || t.status || ', moved ' || COALESCE(m.moved, 0) || ' in ' || COALESCE(m.n, 0) || ' postings (net ' || t.net_amount || ')'
		FROM transactions t LEFT JOIN LATERAL (
			SELECT sum(e.amount) AS moved, count(DISTINCT lt.id) AS n FROM ledger_transactions lt JOIN ledger_entries e ON e.ledger_transaction_id = lt.id
			WHERE lt.transaction_id = t.id AND e.ledger_account_id = t.account_id || ':available') m ON true
		WHERE t.type = 'BILLING_REFUND' AND t.account_id = ANY($1) AND NOT (
			(t.status = 'COMPLETED' AND m.moved = -t.net_amount AND m.n = 1) OR (t.status = 'FAILED' AND m.moved = 0 AND m.n = 2))`, pq.StringArray(ids))...)
	bad = append(bad, add(`SELECT 'billing ' || b.id || ': refundedAmount ' || b.refunded_amount || ', its lines not FAILED ' || COALESCE(l.sum, 0) || ', refunds ' || (b.details->'refunds')::text
		FROM billings b LEFT JOIN LATERAL (SELECT sum(amount) AS sum, string_agg(id || '=' || status, ',') AS st FROM transactions
			WHERE type = 'BILLING_REFUND' AND reference_id = b.id AND status <> 'FAILED') l ON true
		WHERE b.account_id = ANY($1) AND (b.refunded_amount <> COALESCE(l.sum, 0) OR EXISTS (
			SELECT 1 FROM jsonb_array_elements(COALESCE(b.details->'refunds', '[]')) r JOIN transactions t ON t.type = 'BILLING_REFUND' AND t.reference_id = b.id
			AND t.details::text LIKE '%' || (r->>'id') || '%' WHERE COALESCE(r->>'status', 'COMPLETED') <> t.status))`, pq.StringArray(ids))...)
	// Checkout: sessions, coupon, lines.
	var paid, expired, uses, maxUses, couponPaid, soldB int
	d.GetContext(ctx, &paid, `SELECT count(*) FROM checkout_sessions WHERE account_id = $1 AND status = 'PAID'`, s.ms[p.checkout].ID)
	d.GetContext(ctx, &expired, `SELECT count(*) FROM checkout_sessions WHERE account_id = $1 AND status = 'EXPIRED'`, s.ms[p.checkout].ID)
	bad = append(bad, add(`SELECT 'session ' || s.id || ' ' || s.status || ' with its charge ' || t.status FROM checkout_sessions s JOIN transactions t ON t.id = s.transaction_id
		WHERE s.account_id = $1 AND NOT ((s.status = 'PAID' AND t.status IN ('COMPLETED', 'REVERSED')) OR (s.status = 'EXPIRED' AND t.status IN ('CANCELED', 'FAILED')))`, s.ms[p.checkout].ID)...)
	bad = append(bad, add(`SELECT 'session ' || resource_id || ' has ' || count(*) || ' payment_link.paid events' FROM events
		WHERE account_id = $1 AND type = 'payment_link.paid' GROUP BY resource_id HAVING count(*) <> 1`, s.ms[p.checkout].ID)...)
	var paidEvents int
	d.GetContext(ctx, &paidEvents, `SELECT count(*) FROM events WHERE account_id = $1 AND type = 'payment_link.paid'`, s.ms[p.checkout].ID)
	if paidEvents != paid {
		bad = append(bad, fmt.Sprintf("%d payment_link.paid events for %d PAID sessions", paidEvents, paid))
	}
	d.GetContext(ctx, &uses, `SELECT uses FROM coupons WHERE id = $1`, p.coupon)
	d.GetContext(ctx, &maxUses, `SELECT max_uses FROM coupons WHERE id = $1`, p.coupon)
	d.GetContext(ctx, &couponPaid, `SELECT count(*) FROM checkout_sessions WHERE coupon_id = $1 AND status = 'PAID'`, p.coupon)
	var useRows int
	d.GetContext(ctx, &useRows, `SELECT count(*) FROM coupon_uses WHERE coupon_id = $1`, p.coupon)
	if uses > maxUses || uses != couponPaid || useRows != uses {
		bad = append(bad, fmt.Sprintf("coupon %s: uses %d, maxUses %d, %d use rows, %d PAID sessions with it", p.couponCode, uses, maxUses, useRows, couponPaid))
	}
	for _, prod := range []string{p.prodA, p.prodB} {
		var sold, buyers, sessions int
		d.GetContext(ctx, &sold, `SELECT count(*) FROM product_lines WHERE product_id = $1 AND sale_id IS NOT NULL`, prod)
		d.GetContext(ctx, &buyers, `SELECT count(DISTINCT sale_id) FROM product_lines WHERE product_id = $1`, prod)
		d.GetContext(ctx, &sessions, `SELECT count(*) FROM checkout_sessions WHERE $1 = ANY(product_ids) AND status = 'PAID'`, prod)
		if sold != buyers || sold != sessions {
			bad = append(bad, fmt.Sprintf("product %s: %d lines sold to %d sales, %d PAID sessions", prod, sold, buyers, sessions))
		}
		if prod == p.prodB {
			soldB = sold
		}
	}
	// MED: every block released or paid out.
	bad = append(bad, add(`SELECT id || ' holds ' || balance FROM ledger_accounts WHERE id = ANY($1) AND balance <> 0`, pq.StringArray(func() []string {
		var l []string
		for _, id := range ids {
			l = append(l, id+":locked")
		}
		return l
	}()))...)
	var meds int
	d.GetContext(ctx, &meds, `SELECT count(*) FROM transactions WHERE type = 'MED' AND account_id = $1`, s.ms[p.med].ID)
	return check{"products hold", len(bad) == 0, fmt.Sprintf("%d billing refund lines (%d FAILED, money back); %d sessions PAID, %d EXPIRED; coupon uses %d of %d; rare product %d of %d lines sold; %d MEDs, no block left%s",
		lines, failed, paid, expired, uses, maxUses, soldB, linesB, meds, sample(bad))}
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"
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

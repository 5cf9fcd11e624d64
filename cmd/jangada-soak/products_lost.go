package main

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
)

// The products' part in the lost-answer scenario.

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

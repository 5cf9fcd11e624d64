package main

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

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

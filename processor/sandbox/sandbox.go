// Package sandbox is the built-in processor adapter: it simulates the PIX
// processor and network in process. Like a real adapter it answers
// processor.Processor calls and later notifies processor.Inbox, exactly as
// a real processor's webhook would; nothing outside this package (and its
// wiring in app/) knows that the processor is simulated.
package sandbox

import (
	"context"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/jangada/jangada/brcode"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/pixkey"
	"github.com/jangada/jangada/processor"
)

// ISPB is the participant code the simulator puts in end-to-end ids.
const ISPB = "99999908"

// FailKey is the sandbox EMAIL key whose PIX outs fail at settlement.
const FailKey = "fail@sandbox.jangada"

// DefaultPayer is who pays a sandbox charge when the simulation names nobody.
var DefaultPayer = domain.Party{Name: "Pagador Sandbox", Document: "52998224725"}

// Sandbox simulates the processor. With SettleAfter > 0 it settles every PIX
// out and refund by itself after that delay, through a durable timer (see
// network.go), so that a restart loses no settlement.
type Sandbox struct {
	City string
	// Inbox receives the simulated notices.
	Inbox processor.Inbox
	// Temporal and TaskQueue run the simulated network's timers.
	Temporal  client.Client
	TaskQueue string
	// SettleAfter is how long a PIX out or a refund takes to settle; 0 leaves
	// them to the simulation methods (the sandbox API routes).
	SettleAfter time.Duration
}

// NewCharge builds a real BR Code for the charge: the txid is the charge id
// without hyphens, so the payload identifies the charge on its own.
func (s *Sandbox) NewCharge(_ context.Context, r processor.ChargeRequest) (processor.ChargeQR, error) {
	city := s.City
	if city == "" {
		city = "SAO PAULO"
	}
	code, err := brcode.Encode(brcode.Payload{
		Key: r.MerchantKey, Amount: r.Amount, MerchantName: r.MerchantName, MerchantCity: city, TxID: processor.TxID(r.ID),
	})
	if err != nil {
		return processor.ChargeQR{}, err
	}
	return processor.ChargeQR{ReferenceID: "sbx_" + processor.TxID(r.ID)[:20], CopyPaste: code}, nil
}

// SendPix accepts the PIX out and, with auto-settlement, arms its settlement.
func (s *Sandbox) SendPix(ctx context.Context, r processor.PixOutRequest) (processor.Submission, error) {
	sub := processor.Submission{ReferenceID: "sbx_out_" + processor.TxID(r.ID)[20:]}
	if s.SettleAfter <= 0 {
		return sub, nil
	}
	return sub, s.later(ctx, Delivery{Kind: KindTransfer, ID: r.ID, PixKey: r.PixKey, PixKeyType: r.PixKeyType})
}

// Refund accepts the refund and, with auto-settlement, arms its settlement.
func (s *Sandbox) Refund(ctx context.Context, r processor.RefundRequest) (processor.Submission, error) {
	sub := processor.Submission{ReferenceID: "sbx_ref_" + processor.TxID(r.DepositID)[20:]}
	if s.SettleAfter <= 0 {
		return sub, nil
	}
	return sub, s.later(ctx, Delivery{Kind: KindRefund, ID: r.DepositID})
}

// Pay simulates the payer paying the charge's QR (nil payer: DefaultPayer).
func (s *Sandbox) Pay(ctx context.Context, chargeID string, payer *domain.Party) error {
	if payer == nil {
		payer = &DefaultPayer
	}
	at := time.Now().UTC()
	return s.Inbox.ChargeNotice(ctx, chargeID, processor.ChargeNotice{
		Outcome: processor.OutcomePaid, Payer: payer, EndToEndID: processor.EndToEndID(ISPB, at), At: at,
	})
}

// FailCharge simulates a failure in the receive flow.
func (s *Sandbox) FailCharge(ctx context.Context, chargeID string) error {
	return s.Inbox.ChargeNotice(ctx, chargeID, processor.ChargeNotice{Outcome: processor.OutcomeFailed, At: time.Now().UTC(), Reason: "sandbox failure"})
}

// ExpireCharge simulates the charge's expiry now.
func (s *Sandbox) ExpireCharge(ctx context.Context, chargeID string) error {
	return s.Inbox.ChargeNotice(ctx, chargeID, processor.ChargeNotice{Outcome: processor.OutcomeExpired, At: time.Now().UTC()})
}

// SettleTransfer simulates the network settling a PIX out to the key (the
// fail key fails instead); it returns the outcome it notified.
func (s *Sandbox) SettleTransfer(ctx context.Context, id, keyType, key string) (string, error) {
	n := Settlement(keyType, key, time.Now())
	return n.Outcome, s.Inbox.TransferNotice(ctx, id, n)
}

// FailTransfer simulates the network failing a PIX out.
func (s *Sandbox) FailTransfer(ctx context.Context, id string) error {
	return s.Inbox.TransferNotice(ctx, id, processor.TransferNotice{Outcome: processor.OutcomeFailed, At: time.Now().UTC(), Reason: "sandbox failure"})
}

// SettleRefund simulates the refund concluding.
func (s *Sandbox) SettleRefund(ctx context.Context, depositID string) error {
	return s.Inbox.RefundNotice(ctx, depositID, processor.RefundNotice{Outcome: processor.OutcomeSettled, At: time.Now().UTC()})
}

// FailRefund simulates the refund failing.
func (s *Sandbox) FailRefund(ctx context.Context, depositID string) error {
	return s.Inbox.RefundNotice(ctx, depositID, processor.RefundNotice{Outcome: processor.OutcomeFailed, At: time.Now().UTC(), Reason: "sandbox failure"})
}

// Settlement is the notice the simulated network sends when a PIX out to the
// key settles: the recipient as the DICT would describe it, or a failure for
// FailKey.
func Settlement(keyType, key string, at time.Time) processor.TransferNotice {
	at = at.UTC()
	if keyType == string(pixkey.EMAIL) && key == FailKey {
		return processor.TransferNotice{Outcome: processor.OutcomeFailed, At: at, Reason: "recipient institution rejected the transfer"}
	}
	return processor.TransferNotice{Outcome: processor.OutcomeSettled, At: at, EndToEndID: processor.EndToEndID(ISPB, at), Recipient: &domain.Party{
		Name: "Recebedor Sandbox", Document: pixkey.Mask(pixkey.Type(keyType), key), Bank: "Jangada Sandbox (" + ISPB + ")", PixKey: key,
	}}
}

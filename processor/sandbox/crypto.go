package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/processor"
)

// CryptoRates are the sandbox's fixed prices, BRL per coin (documented in
// README.md): quotes and deposits are reproducible.
var CryptoRates = map[string]money.Cents{
	"BTC":  35_000_000, // R$ 350,000.00
	"ETH":  1_200_000,  // R$ 12,000.00
	"USDT": 550,        // R$ 5.50
	"XRP":  300,        // R$ 3.00
}

// CryptoRateValidity is how long a sandbox rate may be quoted.
const CryptoRateValidity = crypto.CryptoQuoteValidity

// networkID is the id of the simulated network's workflow for a resource.
func networkID(kind, id string) string { return "sandbox/" + kind + "/" + id }

// CryptoRate answers the fixed rate of the currency.
func (s *Sandbox) CryptoRate(_ context.Context, currency string) (processor.CryptoRate, error) {
	r, ok := CryptoRates[currency]
	if !ok {
		return processor.CryptoRate{}, domain.Invalid("payCurrency", "is not priced by the processor")
	}
	return processor.CryptoRate{Currency: currency, Rate: r, ValidFor: CryptoRateValidity}, nil
}

// CryptoDepositAddress derives the deposit's own address from its id (a
// real processor would derive it from an HD wallet): a valid address of
// the currency, the same for a retried call, different for every deposit.
func (s *Sandbox) CryptoDepositAddress(_ context.Context, r processor.CryptoAddressRequest) (processor.CryptoAddress, error) {
	c, ok := crypto.CryptoCurrencies[r.Currency]
	if !ok {
		return processor.CryptoAddress{}, domain.Invalid("payCurrency", "has no deposit addresses at the processor")
	}
	h := sha256.Sum256([]byte("jangada-sandbox-deposit:" + r.DepositID))
	a := processor.CryptoAddress{Address: c.CryptoAddressFor(h[:20]), ReferenceID: "sbx_cin_" + processor.TxID(r.DepositID)[20:]}
	if c.Memo {
		a.ExtraID = fmt.Sprint(uint32(h[20])<<24 | uint32(h[21])<<16 | uint32(h[22])<<8 | uint32(h[23]))
	}
	return a, nil
}

// SendCrypto accepts the withdrawal and, with auto-settlement, arms its
// settlement after SettleAfter.
func (s *Sandbox) SendCrypto(ctx context.Context, r processor.CryptoOutRequest) (processor.Submission, error) {
	sub := processor.Submission{ReferenceID: "sbx_cout_" + processor.TxID(r.ID)[20:]}
	if s.SettleAfter <= 0 {
		return sub, nil
	}
	return sub, s.later(ctx, Delivery{Kind: KindCryptoOut, ID: r.ID})
}

// txHash is a network transaction hash for a simulated transfer.
func txHash(id, what string) string {
	h := sha256.Sum256([]byte("jangada-sandbox-" + what + ":" + id))
	return hex.EncodeToString(h[:])
}

// PayCrypto simulates the payer paying the deposit's address.
func (s *Sandbox) PayCrypto(ctx context.Context, depositID string) error {
	return s.Inbox.CryptoDepositNotice(ctx, depositID, processor.CryptoNotice{
		Outcome: processor.OutcomePaid, TxHash: txHash(depositID, "in"), At: time.Now().UTC()})
}

// SettleCrypto simulates the network confirming a withdrawal.
func (s *Sandbox) SettleCrypto(ctx context.Context, id string) error {
	return s.Inbox.CryptoWithdrawalNotice(ctx, id, processor.CryptoNotice{
		Outcome: processor.OutcomeSettled, TxHash: txHash(id, "out"), At: time.Now().UTC()})
}

// FailCrypto simulates a withdrawal the network rejected.
func (s *Sandbox) FailCrypto(ctx context.Context, id string) error {
	return s.Inbox.CryptoWithdrawalNotice(ctx, id, processor.CryptoNotice{
		Outcome: processor.OutcomeFailed, At: time.Now().UTC(), Reason: "sandbox failure"})
}

// KindCryptoOut is the network's confirmation of a crypto withdrawal.
const KindCryptoOut = "crypto-out"

var _ = onDelivery(KindCryptoOut, func(s *Sandbox, ctx context.Context, d Delivery) error {
	return s.SettleCrypto(ctx, d.ID)
})

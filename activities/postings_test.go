package activities

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/billing"
	"github.com/jangada/jangada/domain/bureau"
)

// render writes a posting as the ledger stores it: its key, owner, record,
// kind and description, then each leg (account, cents, lock date), then the
// withdrawal it may spend.
func render(p db.Posting) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s account=%s record=%s kind=%s %q\n", p.Key, p.AccountID, p.TransactionID, p.Kind, p.Description)
	for _, e := range p.Entries {
		fmt.Fprintf(&b, "  %s %+d", e.Account, int64(e.Amount))
		if e.LockedUntil != nil {
			fmt.Fprintf(&b, " until %s", e.LockedUntil.UTC().Format(time.RFC3339))
		}
		b.WriteString("\n")
	}
	if w := p.Withdraw; w != nil {
		fmt.Fprintf(&b, "  withdraw %s %d\n", w.AccountID, int64(w.Amount))
	}
	return b.String()
}

// Every posting constructor, with its key and legs written out: a key that
// was posted once must never change (db.Post writes a key once: a changed
// key would post a retried step again), nor may an account or an amount.
func TestPostingConstructorsKeysAndLegs(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	unlock := at.Add(domain.ReceivedLock)
	sub, e2e := "sub_1", "E999"
	out := domain.Transaction{ID: "tx_out", AccountID: "acc_m", Type: domain.TypePixOut, Amount: 1_000, NetAmount: 1_000, FeeAmount: 50,
		SubaccountID: &sub, Details: domain.SomeJSON(domain.Details{Debit: 1_050})}
	charge := domain.Transaction{ID: "tx_in", AccountID: "acc_m", Type: domain.TypePixIn, Amount: 10_000, FeeAmount: 50, NetAmount: 9_950,
		Details: domain.SomeJSON(domain.Details{Split: &domain.Split{AccountID: "acc_p", Amount: 995}})}
	deposit := domain.Transaction{ID: "tx_dep", AccountID: "acc_m", Type: domain.TypePixIn, Amount: 10_000, FeeAmount: 50, NetAmount: 9_950,
		EndToEndID: &e2e, CompletedAt: domain.TimePtr(at),
		Details: domain.SomeJSON(domain.Details{Refund: &domain.RefundBlock{StatementID: "tx_ref", DepositNet: 8_955, TransferFee: 50,
			DebitNet: 9_005, SplitAmount: 995, SplitAccountID: "acc_p"}})}
	recharge := domain.Transaction{ID: "tx_rc", AccountID: "acc_m", Type: domain.TypeMobileRecharge, Amount: 2_000, NetAmount: 2_000,
		Details: domain.SomeJSON(domain.Details{Recharge: &domain.RechargeBlock{Phone: "+5511987654321", Operator: "Vivo"}})}
	coinsIn := domain.Transaction{ID: "tx_ci", AccountID: "acc_m", Type: domain.TypeCryptoIn, Amount: 5_000, NetAmount: 4_900,
		Details: domain.SomeJSON(domain.Details{Crypto: &domain.CryptoBlock{PayCurrency: "USDT", PayUnits: 9_500_000}})}
	coinsOut := domain.Transaction{ID: "tx_co", AccountID: "acc_m", Type: domain.TypeCryptoOut, Amount: 5_000, NetAmount: 5_000,
		Details: domain.SomeJSON(domain.Details{Crypto: &domain.CryptoBlock{PayCurrency: "USDT", PayUnits: 9_500_000}})}
	instruction := domain.Transaction{ID: "tx_pa", AccountID: "acc_m", Type: domain.TypePixAutomatic, Amount: 3_000, FeeAmount: 50, NetAmount: 2_950}
	boleto := billing.Billing{ID: "bil_1", AccountID: "acc_m", Method: domain.MethodBoleto, Amount: 10_000, FeeAmount: 199,
		NotificationFee: 99, NetAmount: 9_702}
	dunning := bureau.Dunning{ID: "dun_1", AccountID: "acc_m", Fee: 1_290}
	report := bureau.Report{ID: "rep_1", AccountID: "acc_m", Fee: 1_990}
	hold := DisputeHold{AccountID: "acc_m", Wallet: sub, Key: "med_1", TransactionID: "med_1", Amount: 700, Own: 500, LockedUntil: &unlock}
	med := domain.Transaction{ID: "med_1", AccountID: "acc_m", Type: domain.TypeMED, SubaccountID: &sub,
		Details: domain.SomeJSON(domain.Details{Med: &domain.MedBlock{Blocked: 700}})}
	internal := domain.Transaction{ID: "tx_int", AccountID: "acc_m", Type: domain.TypeInternalOut, Amount: 1_500,
		Details: domain.SomeJSON(domain.Details{PairID: "pair_1", RecipientEmail: "b@example.com", CounterpartyID: "acc_b"})}
	move := domain.Transaction{ID: "tx_sub", AccountID: "acc_m", Type: "SUBACCOUNT_ADD_BALANCE", Amount: 800, Description: "reforço"}
	adjustment := domain.Transaction{ID: "tx_adj", AccountID: "acc_m", Type: domain.TypeAdjustment, Amount: -300, Description: "estorno"}

	const lock, credit = "until 2026-03-11T12:00:00Z", "until 2026-03-12T12:00:00Z"
	for _, tc := range []struct {
		name string
		got  db.Posting
		want string
	}{
		{"PIX out reserved (its sub-account's withdrawable money)", transferReservePosting(out), `
transfer:tx_out:reserve account=acc_m record=tx_out kind=PIX_OUT "reserve"
  sub_1:available -1050
  sub_1:pending +1050
  withdraw sub_1 1050`},
		{"PIX out settled", transferSettlePosting(out, e2e), `
transfer:tx_out:settle account=acc_m record=tx_out kind=PIX_OUT "PIX sent E999"
  sub_1:pending -1050
  platform:pix_clearing +1000
  platform:fees +50`},
		{"PIX out failed", transferReleasePosting(out), `
transfer:tx_out:release account=acc_m record=tx_out kind=PIX_OUT "reserve returned"
  sub_1:pending -1050
  sub_1:available +1050`},
		{"charge paid, with a split", chargeSettlePosting(charge, "PIX received E999", unlock), `
charge:tx_in:settle account=acc_m record=tx_in kind=PIX_IN "PIX received E999"
  platform:pix_clearing -10000
  acc_p:available +995 ` + lock + `
  acc_m:available +8955 ` + lock + `
  platform:fees +50`},
		{"refund requested", refundReservePosting(deposit), `
refund:tx_dep:reserve account=acc_m record=tx_ref kind=PIX_REFUND "refund reserve"
  acc_m:available -8955 ` + lock + `
  acc_m:available -50
  acc_m:pending +9005
  acc_p:available -995 ` + lock + `
  acc_p:pending +995`},
		{"refund failed", refundReleasePosting(deposit), `
refund:tx_dep:release account=acc_m record=tx_ref kind=PIX_REFUND "refund reserve returned"
  acc_m:available +8955 ` + lock + `
  acc_m:available +50
  acc_m:pending -9005
  acc_p:available +995 ` + lock + `
  acc_p:pending -995`},
		{"refund completed", refundSettlePosting(deposit), `
refund:tx_dep:settle account=acc_m record=tx_ref kind=PIX_REFUND "PIX refund of E999"
  acc_m:pending -9005
  acc_p:pending -995
  platform:fees +50
  platform:pix_clearing +10000
  platform:refund_costs -50`},
		{"recharge reserved", rechargeReservePosting(recharge), `
recharge:tx_rc:reserve account=acc_m record=tx_rc kind=MOBILE_RECHARGE "reserve"
  acc_m:available -2000
  acc_m:pending +2000
  withdraw acc_m 2000`},
		{"recharge delivered", rechargeCompletePosting(recharge), `
recharge:tx_rc:complete account=acc_m record=tx_rc kind=MOBILE_RECHARGE "mobile recharge Vivo +5511987654321"
  acc_m:pending -2000
  platform:recharge_clearing +2000`},
		{"recharge cancelled or failed", rechargeReleasePosting(recharge), `
recharge:tx_rc:release account=acc_m record=tx_rc kind=MOBILE_RECHARGE "reserve returned"
  acc_m:pending -2000
  acc_m:available +2000`},
		{"crypto deposit credited", cryptoCreditPosting(coinsIn), `
crypto:tx_ci:credit account=acc_m record=tx_ci kind=CRYPTO_IN "crypto deposit 9.500000 USDT"
  platform:crypto_clearing -4900
  acc_m:available +4900`},
		{"crypto withdrawal reserved", cryptoReservePosting(coinsOut), `
crypto:tx_co:reserve account=acc_m record=tx_co kind=CRYPTO_OUT "reserve"
  acc_m:available -5000
  acc_m:pending +5000
  withdraw acc_m 5000`},
		{"crypto withdrawal settled", cryptoSettlePosting(coinsOut), `
crypto:tx_co:settle account=acc_m record=tx_co kind=CRYPTO_OUT "crypto sent 9.500000 USDT"
  acc_m:pending -5000
  platform:crypto_clearing +5000`},
		{"crypto withdrawal failed", cryptoReleasePosting(coinsOut), `
crypto:tx_co:release account=acc_m record=tx_co kind=CRYPTO_OUT "reserve returned"
  acc_m:pending -5000
  acc_m:available +5000`},
		{"PIX automatic instruction paid", pixAutomaticSettlePosting(instruction, e2e, unlock), `
pix-automatic:tx_pa:settle account=acc_m record=tx_pa kind=PIX_AUTOMATIC "PIX automatic received E999"
  platform:pix_clearing -3000
  acc_m:available +2950 ` + lock + `
  platform:fees +50`},
		{"boleto billing paid", billingPaidPosting(boleto, "tx_line", unlock.Add(24*time.Hour)), `
billing:bil_1:paid account=acc_m record=tx_line kind=BILLING "billing BOLETO paid"
  platform:billing_clearing -10000
  acc_m:available +9702 ` + credit + `
  platform:fees +298`},
		{"PIX billing's notification fee", billingNotificationPosting(boleto, "tx_in", unlock), `
billing:bil_1:notification account=acc_m record=tx_in kind=PIX_IN "billing notification fee"
  acc_m:available -99 ` + lock + `
  platform:fees +99`},
		{"billing refunded", billingRefundPosting(boleto, "ref_1", "tx_bref", 5_000, 4_851, 149, unlock.Add(24*time.Hour)), `
billing:bil_1:refund:ref_1 account=acc_m record=tx_bref kind=BILLING_REFUND "billing refund"
  acc_m:available -4851 ` + credit + `
  platform:fees -149
  platform:billing_clearing +5000`},
		{"billing refund refused", billingRefundReturnPosting(boleto, "ref_1", "tx_bref", 5_000, 4_851, 149, unlock.Add(24*time.Hour)), `
billing:bil_1:refund:ref_1:failed account=acc_m record=tx_bref kind=BILLING_REFUND "billing refund refused: returned"
  platform:billing_clearing -5000
  platform:fees +149
  acc_m:available +4851 ` + credit},
		{"dunning's fee", dunningFeePosting(dunning), `
dunning:dun_1:fee account=acc_m record=dun_1 kind=BUREAU_FEE "credit bureau fee"
  acc_m:available -1290
  platform:fees +1290
  withdraw acc_m 1290`},
		{"denied dunning's fee returned", dunningFeeReturnPosting(dunning), `
dunning:dun_1:fee-returned account=acc_m record=dun_1 kind=BUREAU_FEE "credit bureau fee returned"
  platform:fees -1290
  acc_m:available +1290`},
		{"credit report's fee", reportFeePosting(report), `
report:rep_1:fee account=acc_m record=rep_1 kind=BUREAU_FEE "credit bureau fee"
  acc_m:available -1990
  platform:fees +1990
  withdraw acc_m 1990`},
		{"MED hold", medHoldPosting(hold, 600), `
med-hold:med_1 account=acc_m record=med_1 kind=MED_HOLD "MED: disputed value blocked"
  sub_1:available -500 ` + lock + `
  sub_1:available -100
  sub_1:locked +600`},
		{"MED release", medReleasePosting(hold), `
med-release:med_1 account=acc_m record=med_1 kind=MED_RELEASE "MED: blocked value released"
  sub_1:locked -700
  sub_1:available +500 ` + lock + `
  sub_1:available +200`},
		{"MED returned to the payer", medReturnPosting(med, 250), `
med-return:med_1 account=acc_m record=med_1 kind=MED_RETURN "MED: disputed value returned to the payer"
  sub_1:locked -700
  sub_1:available -250
  platform:pix_clearing +950`},
		{"internal transfer", InternalTransferPosting(internal), `
internal:pair_1 account=acc_m record=tx_int kind=INTERNAL_TRANSFER_OUT "internal transfer to b@example.com"
  acc_m:available -1500
  acc_b:available +1500
  withdraw acc_m 1500`},
		{"sub-account move", SubaccountMovePosting(move, "acc_m", sub), `
subaccount:tx_sub account=acc_m record=tx_sub kind=SUBACCOUNT_ADD_BALANCE "reforço"
  acc_m:available -800
  sub_1:available +800
  withdraw acc_m 800`},
		{"operator's adjustment", AdjustmentPosting(adjustment, "key-1"), `
adjustment:acc_m:key-1 account=acc_m record=tx_adj kind=ADJUSTMENT "estorno"
  acc_m:available -300
  platform:adjustments +300`},
	} {
		if got, want := render(tc.got), strings.TrimPrefix(tc.want, "\n")+"\n"; got != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, want)
		}
	}
	if got := medHoldKey("med_1"); got != "med-hold:med_1" {
		t.Errorf("medHoldKey = %s", got)
	}
	if got := AdjustmentKey("acc_m", "key-1"); got != "adjustment:acc_m:key-1" {
		t.Errorf("AdjustmentKey = %s", got)
	}
}

package e2e

import (
	"testing"
)

// A scheduled transfer with the specification's payload method "cripto"
// runs through the crypto product: run-now makes a crypto withdrawal
// quoted and sent at once (the sandbox's rate), from the main account's
// withdrawable money, under the run's externalReference; the network
// settles it as any withdrawal. An account without the crypto feature is
// refused with 403 (TestScheduleCreateValidationListGet).
func TestScheduledCryptoWithdrawal(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.cryptoMerchant(100)
	eth := "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
	s := e.schedule(m, map[string]any{
		"triggerType": "RECURRING", "label": "Reserva em ETH",
		"recurrenceRule": map[string]any{"interval": "monthly", "time": "09:00", "dayOfMonth": 5},
		"payload":        map[string]any{"method": "cripto", "amount": 40, "payCurrency": "ETH", "address": eth},
	})
	id := s["id"].(string)
	if s["method"] != "Cripto" || s["destination"] != "ETH 0xfB69…d359" || s["amount"] != 40.0 || s["status"] != "active" {
		t.Fatalf("record %v", s)
	}

	r := e.call(m.Key, "POST", scheduledPath+"run-now/"+id, nil)
	if r.Status != 200 {
		t.Fatalf("run-now: %d %s", r.Status, r.Message)
	}
	rec := r.m(t)
	run := rec["run"].(map[string]any)
	if run["type"] != "CRYPTO_OUT" || run["amount"] != 40.0 || run["runNumber"] != 1.0 || rec["runCount"] != 1.0 {
		t.Fatalf("run %v of %v", run, rec)
	}
	wid := run["transactionId"].(string)
	w := e.call(m.Key, "GET", "/v1/transfer-crypto/get/"+wid, nil).m(t)
	if w["externalReference"] != "sched-"+id+"-1" || w["address"] != eth || w["payAmount"] != 0.00333333 || w["quoteId"] == nil {
		t.Fatalf("the run's withdrawal %v", w)
	}
	wantBalance(t, e, m, 60, 40, 60)
	e.waitCrypto(m, "/v1/transfer-crypto/get/", wid, "PROCESSING")
	if r := e.call(m.Key, "POST", "/v1/sandbox/transfer-crypto/"+wid+"/settle", nil); r.Status != 200 {
		t.Fatalf("settle: %d %s", r.Status, r.Message)
	}
	e.waitCrypto(m, "/v1/transfer-crypto/get/", wid, "COMPLETED")
	wantBalance(t, e, m, 60, 0, 60)
	if got := e.call(m.Key, "GET", scheduledPath+"get/"+id, nil).m(t); got["runCount"] != 1.0 || got["lastRunAt"] == nil || got["status"] != "active" {
		t.Fatalf("schedule after its run: %v", got)
	}
	e.verifyLedger()
}

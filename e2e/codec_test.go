package e2e

import (
	"bytes"
	"context"
	"testing"

	"go.temporal.io/api/enums/v1"
	"google.golang.org/protobuf/proto"

	"github.com/jangada/jangada/workflows"
)

// Payer documents, PIX keys and descriptions never rest in clear in
// Temporal: the payload codec seals inputs, results, signals and memo, and
// summaries carry only ids, amounts and statuses. Search attributes (ids,
// amount, status) stay clear for ops.
func TestTemporalHoldsNoMerchantDataInClear(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	e.fund(m, 50)
	c := e.createCharge(m, map[string]any{"amount": 12, "description": "Pedido secreto 77", "payer": map[string]any{"name": "Maria Sigilo", "document": "529.982.247-25"}})
	id := c["id"].(string)
	if r := e.call(m.Key, "POST", "/v1/sandbox/payment-pix/"+id+"/pay", map[string]any{"payerName": "Maria Sigilo", "payerDocument": "52998224725"}); r.Status != 200 {
		t.Fatalf("pay: %d %s", r.Status, r.Message)
	}
	e.waitStatus(m, id, "COMPLETED")
	tr := e.call(m.Key, "POST", "/v1/transfer-pix/create", map[string]any{"amount": 5, "pixKey": "chave.sigilosa@example.com", "pixKeyType": "EMAIL", "description": "Fornecedor sigiloso"})
	if tr.Status != 200 {
		t.Fatalf("transfer: %d %s", tr.Status, tr.Message)
	}
	secrets := [][]byte{[]byte("52998224725"), []byte("Maria Sigilo"), []byte("Pedido secreto 77"), []byte("chave.sigilosa"), []byte("Fornecedor sigiloso")}
	ctx := context.Background()
	for _, wid := range []string{workflows.ChargeWorkflowID(id), workflows.TransferWorkflowID(tr.m(t)["id"].(string))} {
		var raw bytes.Buffer
		it := e.app.Temporal.GetWorkflowHistory(ctx, wid, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		events := 0
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatalf("history of %s: %v", wid, err)
			}
			b, _ := proto.Marshal(ev)
			raw.Write(b)
			events++
		}
		desc, err := e.app.Temporal.DescribeWorkflowExecution(ctx, wid, "")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := proto.Marshal(desc)
		raw.Write(b)
		for _, s := range secrets {
			if bytes.Contains(raw.Bytes(), s) {
				t.Errorf("%s: Temporal holds %q in clear (%d events read)", wid, s, events)
			}
		}
		if !bytes.Contains(raw.Bytes(), []byte(m.ID)) {
			t.Errorf("%s: the account id is not searchable in clear", wid)
		}
	}
}

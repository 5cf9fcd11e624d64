package e2e

import (
	"context"
	"errors"
	"testing"

	"github.com/jangada/jangada/client"
	"github.com/jangada/jangada/client/oapi"
)

// TestGoClientChargeCreateGet dogfoods the generated Go client against
// the real app: a charge created with an Idempotency-Key (asked twice: one
// charge), read back by id, and a bad request answered as a typed
// *client.Error that names the field.
func TestGoClientChargeCreateGet(t *testing.T) {
	t.Parallel()
	e := sharedEnv(t)
	m := e.merchant()
	c, err := client.New(e.base+"/v1", m.Key, client.WithHTTPClient(e.httpClient()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ref := "client-" + m.ID
	body := oapi.PaymentPixCreateJSONRequestBody{Amount: 25.9, Description: "Pedido via client", ExternalReference: &ref}
	first, err := c.PaymentPixCreateWithResponse(ctx, nil, body, client.IdempotencyKey("order-"+m.ID))
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.PaymentPixCreateWithResponse(ctx, nil, body, client.IdempotencyKey("order-"+m.ID))
	if err != nil {
		t.Fatal(err)
	}
	ch := first.JSON200
	if ch == nil || ch.Id == "" || ch.Status != "PENDING" || ch.Amount != 25.9 || ch.CopyPaste == "" {
		t.Fatalf("create: %+v", ch)
	}
	if again.JSON200 == nil || again.JSON200.Id != ch.Id {
		t.Fatalf("the retried create made another charge: %+v", again.JSON200)
	}
	got, err := c.PaymentPixGetWithResponse(ctx, ch.Id)
	if err != nil {
		t.Fatal(err)
	}
	if g := got.JSON200; g == nil || g.Id != ch.Id || g.Amount != 25.9 || g.ExternalReference == nil || *g.ExternalReference != ref {
		t.Fatalf("get: %+v", got.JSON200)
	}
	_, err = c.PaymentPixCreateWithResponse(ctx, nil, oapi.PaymentPixCreateJSONRequestBody{Amount: -1, Description: "x"})
	var apiErr *client.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || apiErr.RequestID == "" {
		t.Fatalf("a negative amount: %v", err)
	}
	if _, err := c.PaymentPixGetWithResponse(ctx, "nope"); !errors.As(err, &apiErr) || apiErr.StatusCode != 404 {
		t.Fatalf("an unknown id: %v", err)
	}
}

package api

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

func webhookEndpoint(p domain.EndpointPatch, keyID *string) service.WebhookEndpoint {
	e := service.WebhookEndpoint{ID: "wh_1", AccountID: testAccountID, APIKeyID: keyID, URL: "https://hooks.example.com/old",
		Events: []string{"*"}, Status: domain.EndpointActive, Secret: "whsec_c2VjcmV0"}
	if p.URL != nil {
		e.URL = *p.URL
	}
	if p.Events != nil {
		e.Events = p.Events
	}
	if p.Description != nil {
		e.Description = *p.Description
	}
	if p.Status != nil {
		e.Status = *p.Status
	}
	return e
}

func TestHandlerWebhookCreate(t *testing.T) {
	t.Parallel()
	const path = "/v1/webhooks/create"
	refusals := []struct{ name, body, message string }{
		{"bad JSON", `{"url":`, "request body must be a JSON object"},
		{"no url", `{"events":["payment.paid"]}`, "url is required"},
		{"url as a number", `{"url":5,"events":["payment.paid"]}`, "url must be a string"},
		{"empty url", `{"url":"  ","events":["payment.paid"]}`, "url must have at most 2048 characters and not be empty"},
		{"no events", `{"url":"https://hooks.example.com/j"}`, "events must list at least one event type or pattern"},
		{"empty events", `{"url":"https://hooks.example.com/j","events":[]}`, "events must list at least one event type or pattern"},
		{"events as a string", `{"url":"https://hooks.example.com/j","events":"payment.paid"}`, "events must be a list of string"},
		{"events with a number", `{"url":"https://hooks.example.com/j","events":[1]}`, "events must be a list of string"},
		{"unknown event", `{"url":"https://hooks.example.com/j","events":["payment.stolen"]}`, `events has "payment.stolen"`},
		{"description too long", `{"url":"https://hooks.example.com/j","events":["*"],"description":"` + strings.Repeat("d", 256) + `"}`, "description must have at most 255 characters"},
		{"unknown status", `{"url":"https://hooks.example.com/j","events":["*"],"status":"paused"}`, "status must be ACTIVE or DISABLED"},
	}
	for _, tc := range refusals {
		t.Run("POST "+path+": "+tc.name+" → 400", func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("webhooks/create")
			expectFail(t, f.merchant("POST", path, tc.body), http.StatusBadRequest, tc.message)
		})
	}

	t.Run("POST "+path+": valid body → 200 with the secret, bound to the key", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("webhooks/*")
		want := domain.EndpointPatch{URL: ptr("https://hooks.example.com/j"), Events: []string{"payment.paid", "payment.*"}, Description: ptr("produção")}
		f.webhooks.EXPECT().Create(gomock.Any(), testAccountID, gomock.Any(), gomock.Any()).
			DoAndReturn(func(_ context.Context, _ string, keyID *string, p domain.EndpointPatch) (service.WebhookEndpoint, error) {
				if keyID == nil || *keyID != testKeyID {
					t.Errorf("Webhooks.Create got key %v, want %q", keyID, testKeyID)
				}
				if !reflect.DeepEqual(p, want) {
					t.Errorf("Webhooks.Create got %+v, want %+v", p, want)
				}
				return webhookEndpoint(p, keyID), nil
			})
		w := f.merchant("POST", path, `{"url":" https://hooks.example.com/j ","events":["payment.paid"," payment.* ","payment.paid"],"description":"produção"}`)
		data := expectOK(t, w, "Webhook endpoint created; the secret is shown only now")
		expectFields(t, data, map[string]string{
			"id": `"wh_1"`, "url": `"https://hooks.example.com/j"`, "events": `["payment.paid","payment.*"]`,
			"status": `"ACTIVE"`, "scope": `"key"`, "apiKeyId": `"` + testKeyID + `"`, "secret": `"whsec_c2VjcmV0"`,
		})
		expectAbsent(t, data, "accountId", "updatedAt")
	})

	t.Run("POST "+path+": address policy refusal → 400", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("webhooks/create")
		f.webhooks.EXPECT().Create(gomock.Any(), testAccountID, gomock.Any(), gomock.Any()).
			Return(service.WebhookEndpoint{}, domain.Invalid("url", "must not point to a private or loopback address"))
		expectFail(t, f.merchant("POST", path, `{"url":"http://127.0.0.1/h","events":["*"]}`), http.StatusBadRequest,
			"url must not point to a private or loopback address")
	})
}

func TestHandlerWebhookUpdate(t *testing.T) {
	t.Parallel()
	const path = "/v1/webhooks/update/wh_1"
	refusals := []struct{ name, body, message string }{
		{"non-object body", `[]`, "request body must be a JSON object"},
		{"empty url", `{"url":""}`, "url must have at most 2048 characters and not be empty"},
		{"empty events", `{"events":[]}`, "events must list at least one event type or pattern"},
		{"unknown status", `{"status":"deleted"}`, "status must be ACTIVE or DISABLED"},
	}
	for _, tc := range refusals {
		t.Run("PATCH /v1/webhooks/update/{id}: "+tc.name+" → 400", func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).authorized("webhooks/update")
			expectFail(t, f.merchant("PATCH", path, tc.body), http.StatusBadRequest, tc.message)
		})
	}
	t.Run("PATCH /v1/webhooks/update/{id}: status only → 200", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("webhooks/update")
		want := domain.EndpointPatch{Status: ptr(domain.EndpointDisabled)}
		f.webhooks.EXPECT().Update(gomock.Any(), service.EndpointScope{AccountID: testAccountID, KeyID: testKeyID}, "wh_1", want).Return(webhookEndpoint(want, nil), nil)
		data := expectOK(t, f.merchant("PATCH", path, `{"status":" disabled "}`), "Webhook endpoint updated")
		expectFields(t, data, map[string]string{"id": `"wh_1"`, "status": `"DISABLED"`, "scope": `"account"`})
		expectAbsent(t, data, "secret", "accountId", "apiKeyId")
	})
	t.Run("PATCH /v1/webhooks/update/{id}: another account's endpoint → 404", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t).authorized("webhooks/update")
		f.webhooks.EXPECT().Update(gomock.Any(), service.EndpointScope{AccountID: testAccountID, KeyID: testKeyID}, "wh_1", gomock.Any()).Return(service.WebhookEndpoint{}, domain.NotFound("webhook endpoint"))
		expectFail(t, f.merchant("PATCH", path, `{"events":["*"]}`), http.StatusNotFound, "webhook endpoint not found")
	})
}

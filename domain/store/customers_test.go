package store_test

import (
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/domaintest"
	"github.com/jangada/jangada/domain/store"
)

func TestCustomerRequestValidate(t *testing.T) {
	t.Parallel()
	base := `"name":"Maria Silva","email":"maria@example.com"`
	tests := []struct {
		name, body string
		wantField  string // "" = valid
		wantType   string
		wantStatus string
	}{
		{name: "CPF infers PF", body: `{` + base + `,"document":"529.982.247-25"}`, wantType: "PF", wantStatus: "ACTIVE"},
		{name: "CNPJ infers PJ", body: `{` + base + `,"document":"11.222.333/0001-81"}`, wantType: "PJ", wantStatus: "ACTIVE"},
		{name: "alphanumeric CNPJ", body: `{` + base + `,"document":"12.abc.345/01de-35"}`, wantType: "PJ", wantStatus: "ACTIVE"},
		{name: "type given", body: `{` + base + `,"document":"52998224725","type":"pf"}`, wantType: "PF", wantStatus: "ACTIVE"},
		{name: "status in Portuguese", body: `{` + base + `,"document":"52998224725","status":"Bloqueado"}`, wantType: "PF", wantStatus: "BLOCKED"},
		{name: "status in English", body: `{` + base + `,"document":"52998224725","status":"inactive"}`, wantType: "PF", wantStatus: "INACTIVE"},
		{name: "all optional fields", body: `{` + base + `,"document":"52998224725","phone":"(11) 98765-4321","whatsapp":"+55 11 98765-4321","city":"São Paulo","state":"sp"}`,
			wantType: "PF", wantStatus: "ACTIVE"},
		{name: "name missing", body: `{"email":"m@example.com","document":"52998224725"}`, wantField: "name"},
		{name: "name blank", body: `{"name":"  ","email":"m@example.com","document":"52998224725"}`, wantField: "name"},
		{name: "email missing", body: `{"name":"M","document":"52998224725"}`, wantField: "email"},
		{name: "email invalid", body: `{"name":"M","email":"maria","document":"52998224725"}`, wantField: "email"},
		{name: "document missing", body: `{` + base + `}`, wantField: "document"},
		{name: "CPF check digit", body: `{` + base + `,"document":"529.982.247-24"}`, wantField: "document"},
		{name: "CNPJ check digit", body: `{` + base + `,"document":"12.ABC.345/01DE-36"}`, wantField: "document"},
		{name: "document length", body: `{` + base + `,"document":"1234"}`, wantField: "document"},
		{name: "type unknown", body: `{` + base + `,"document":"52998224725","type":"XX"}`, wantField: "type"},
		{name: "type against document", body: `{` + base + `,"document":"52998224725","type":"PJ"}`, wantField: "type"},
		{name: "status unknown", body: `{` + base + `,"document":"52998224725","status":"suspended"}`, wantField: "status"},
		{name: "phone letters", body: `{` + base + `,"document":"52998224725","phone":"11 9876-ABCD"}`, wantField: "phone"},
		{name: "phone short", body: `{` + base + `,"document":"52998224725","phone":"98765-4321"}`, wantField: "phone"},
		{name: "whatsapp long", body: `{` + base + `,"document":"52998224725","whatsapp":"+55 11 98765-43210000"}`, wantField: "whatsapp"},
		{name: "state not a UF", body: `{` + base + `,"document":"52998224725","state":"XX"}`, wantField: "state"},
		{name: "city empty", body: `{` + base + `,"document":"52998224725","city":""}`, wantField: "city"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := domaintest.DecodeBody[store.CustomerRequest](t, tt.body).Validate()
			if tt.wantField != "" {
				domaintest.WantFieldErr(t, err, domain.ErrInvalid, tt.wantField)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if *p.Type != tt.wantType || *p.Status != tt.wantStatus {
				t.Fatalf("type %s status %s, want %s %s", *p.Type, *p.Status, tt.wantType, tt.wantStatus)
			}
		})
	}
}

func TestCustomerUpdateAndApply(t *testing.T) {
	t.Parallel()
	stored := store.Customer{Name: "Maria", Document: "52998224725", Type: "PF", Status: "ACTIVE"}
	tests := []struct {
		name, body string
		wantField  string
		want       func(store.Customer) bool
	}{
		{name: "empty patch keeps everything", body: `{}`, want: func(c store.Customer) bool { return c == stored }},
		{name: "new CNPJ brings PJ", body: `{"document":"11.222.333/0001-81"}`,
			want: func(c store.Customer) bool {
				return c.Type == "PJ" && c.Document == "11222333000181" && c.Name == "Maria"
			}},
		{name: "status in Portuguese", body: `{"status":"Inativo"}`, want: func(c store.Customer) bool { return c.Status == "INACTIVE" }},
		{name: "state upper-cased", body: `{"state":"rj"}`, want: func(c store.Customer) bool { return c.State != nil && *c.State == "RJ" }},
		{name: "phone digits", body: `{"phone":"+55 (11) 98765-4321"}`, want: func(c store.Customer) bool { return c.Phone != nil && *c.Phone == "5511987654321" }},
		{name: "type against the stored document", body: `{"type":"PJ"}`, wantField: "type"},
		{name: "name blank", body: `{"name":""}`, wantField: "name"},
		{name: "bad document", body: `{"document":"111.111.111-11"}`, wantField: "document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := domaintest.DecodeBody[store.CustomerUpdateRequest](t, tt.body).Validate()
			var c store.Customer
			if err == nil {
				c, err = stored.Apply(p)
			}
			if tt.wantField != "" {
				domaintest.WantFieldErr(t, err, domain.ErrInvalid, tt.wantField)
				return
			}
			if err != nil || !tt.want(c) {
				t.Fatalf("got %+v, %v", c, err)
			}
		})
	}
}

func TestNewCustomerFilter(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		status, typ, wantStatus, wantType, wantField string
	}{
		{"", "", "", "", ""},
		{"Ativo", "pj", "ACTIVE", "PJ", ""},
		{"bloqueado", "", "BLOCKED", "", ""},
		{"BLOCKED", "PF", "BLOCKED", "PF", ""},
		{"gone", "", "", "", "status"},
		{"", "CPF", "", "", "type"},
	} {
		f, err := store.NewCustomerFilter(1, 50, " maria ", tt.status, tt.typ)
		if tt.wantField != "" {
			domaintest.WantFieldErr(t, err, domain.ErrInvalid, tt.wantField)
			continue
		}
		if err != nil || f.Status != tt.wantStatus || f.Type != tt.wantType || f.Search != "maria" {
			t.Errorf("filter(%q, %q) = %+v, %v", tt.status, tt.typ, f, err)
		}
	}
}

func TestCustomerWithDefaults(t *testing.T) {
	t.Parallel()
	c := store.Customer{Name: "Firma", Document: "12.abc.345/01de-35"}.WithDefaults()
	if c.Document != "12ABC34501DE35" || c.Type != "PJ" || c.Status != "ACTIVE" {
		t.Fatalf("defaults: %+v", c)
	}
	kept := store.Customer{Document: "52998224725", Status: "BLOCKED"}.WithDefaults()
	if kept.Status != "BLOCKED" || kept.Type != "PF" {
		t.Fatalf("defaults overrode a set value: %+v", kept)
	}
}

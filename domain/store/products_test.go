package store_test

import (
	"strings"
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/domaintest"
	"github.com/jangada/jangada/domain/store"
)

func TestProductRequestValidate(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 1001)
	tests := []struct {
		name, body string
		wantField  string // "" = valid
		check      func(store.ProductPatch) bool
	}{
		{name: "name only", body: `{"name":"Curso"}`, check: func(p store.ProductPatch) bool {
			return *p.Status == "ACTIVE" && len(*p.Deliveries) == 0 && p.Price == nil && p.SKU == nil
		}},
		{name: "every delivery", body: `{"name":"Kit","sku":"KIT-1","price":19.9,"status":"inactive","deliveries":[` +
			`{"type":"link","redirectUrl":"https://example.com/dl"},{"type":"TEXT_INFINITE","richContent":"<b>Obrigado</b>"},` +
			`{"type":"TEXT_LINES","linesText":"A-1\r\n\n  B-2  \nC-3\n"}]}`, check: func(p store.ProductPatch) bool {
			ds := *p.Deliveries
			return *p.Status == "INACTIVE" && *p.Price == 1990 && *p.SKU == "KIT-1" && len(ds) == 3 && ds[0].Type == "LINK" &&
				ds[1].RichContent == "<b>Obrigado</b>" && strings.Join(*p.Lines, ",") == "A-1,B-2,C-3"
		}},
		{name: "http URL", body: `{"name":"C","deliveries":[{"type":"LINK","redirectUrl":"http://example.com"}]}`,
			check: func(p store.ProductPatch) bool { return (*p.Deliveries)[0].RedirectURL == "http://example.com" }},
		{name: "name missing", body: `{"sku":"A"}`, wantField: "name"},
		{name: "name blank", body: `{"name":" "}`, wantField: "name"},
		{name: "sku too long", body: `{"name":"C","sku":"` + strings.Repeat("s", 65) + `"}`, wantField: "sku"},
		{name: "price zero", body: `{"name":"C","price":0}`, wantField: "price"},
		{name: "price over the ceiling", body: `{"name":"C","price":1000000.01}`, wantField: "price"},
		{name: "status unknown", body: `{"name":"C","status":"DRAFT"}`, wantField: "status"},
		{name: "delivery type unknown", body: `{"name":"C","deliveries":[{"type":"FILE"}]}`, wantField: "deliveries[0].type"},
		{name: "delivery type missing", body: `{"name":"C","deliveries":[{"redirectUrl":"https://e.com"}]}`, wantField: "deliveries[0].type"},
		{name: "relative URL", body: `{"name":"C","deliveries":[{"type":"LINK","redirectUrl":"/download"}]}`, wantField: "deliveries[0].redirectUrl"},
		{name: "ftp URL", body: `{"name":"C","deliveries":[{"type":"LINK","redirectUrl":"ftp://example.com/f"}]}`, wantField: "deliveries[0].redirectUrl"},
		{name: "javascript URL", body: `{"name":"C","deliveries":[{"type":"LINK","redirectUrl":"javascript:alert(1)"}]}`, wantField: "deliveries[0].redirectUrl"},
		{name: "URL without host", body: `{"name":"C","deliveries":[{"type":"LINK","redirectUrl":"https:///x"}]}`, wantField: "deliveries[0].redirectUrl"},
		{name: "URL missing", body: `{"name":"C","deliveries":[{"type":"LINK"}]}`, wantField: "deliveries[0].redirectUrl"},
		{name: "rich content missing", body: `{"name":"C","deliveries":[{"type":"TEXT_INFINITE"}]}`, wantField: "deliveries[0].richContent"},
		{name: "rich content with NUL", body: `{"name":"C","deliveries":[{"type":"TEXT_INFINITE","richContent":"a\u0000b"}]}`, wantField: "deliveries[0].richContent"},
		{name: "lines missing on create", body: `{"name":"C","deliveries":[{"type":"TEXT_LINES"}]}`, wantField: "deliveries"},
		{name: "lines blank", body: `{"name":"C","deliveries":[{"type":"TEXT_LINES","linesText":" \n \n"}]}`, wantField: "deliveries[0].linesText"},
		{name: "line too long", body: `{"name":"C","deliveries":[{"type":"TEXT_LINES","linesText":"` + long + `"}]}`, wantField: "deliveries[0].linesText"},
		{name: "TEXT_LINES twice", body: `{"name":"C","deliveries":[{"type":"TEXT_LINES","linesText":"a"},{"type":"TEXT_LINES","linesText":"b"}]}`, wantField: "deliveries[1].type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := domaintest.DecodeBody[store.ProductRequest](t, tt.body).Validate()
			if tt.wantField != "" {
				domaintest.WantFieldErr(t, err, domain.ErrInvalid, tt.wantField)
				return
			}
			if err != nil || !tt.check(p) {
				t.Fatalf("got %+v, %v", p, err)
			}
		})
	}
}

func TestProductUpdateLinesAndApply(t *testing.T) {
	t.Parallel()
	stored := store.Product{Name: "Kit", SKU: strp("KIT-1"), Status: "ACTIVE",
		Deliveries: store.Deliveries{{Type: "TEXT_LINES"}}}
	tests := []struct {
		name, body string
		lines      *string // nil: the stock is kept
		check      func(store.Product) bool
	}{
		{name: "no deliveries keeps the stock", body: `{"name":"Kit 2"}`,
			check: func(p store.Product) bool { return p.Name == "Kit 2" && len(p.Deliveries) == 1 && *p.SKU == "KIT-1" }},
		{name: "TEXT_LINES without linesText keeps the stock", body: `{"deliveries":[{"type":"TEXT_LINES"}]}`,
			check: func(p store.Product) bool { return len(p.Deliveries) == 1 }},
		{name: "new linesText replaces the stock", body: `{"deliveries":[{"type":"TEXT_LINES","linesText":"X\nY"}]}`, lines: strp("X,Y"),
			check: func(p store.Product) bool { return len(p.Deliveries) == 1 }},
		{name: "no TEXT_LINES drops the stock", body: `{"deliveries":[{"type":"LINK","redirectUrl":"https://e.com"}]}`, lines: strp(""),
			check: func(p store.Product) bool { return p.Deliveries[0].Type == "LINK" }},
		{name: "empty sku removes it", body: `{"sku":""}`, check: func(p store.Product) bool { return p.SKU == nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			patch, err := domaintest.DecodeBody[store.ProductUpdateRequest](t, tt.body).Validate()
			if err != nil {
				t.Fatal(err)
			}
			if (tt.lines == nil) != (patch.Lines == nil) || (tt.lines != nil && strings.Join(*patch.Lines, ",") != *tt.lines) {
				t.Fatalf("lines %v, want %v", patch.Lines, tt.lines)
			}
			if got := stored.Apply(patch); !tt.check(got) {
				t.Fatalf("applied: %+v", got)
			}
		})
	}
}

// A TEXT_LINES delivery shows its counts, never its lines; other
// deliveries show no counts.
func TestProductPublic(t *testing.T) {
	t.Parallel()
	v := store.Product{ID: "prod_1", Deliveries: store.Deliveries{{Type: "LINK", RedirectURL: "https://e.com"}, {Type: "TEXT_LINES"}},
		LinesAvailable: 3, LinesDelivered: 2}.Public()
	if v.Deliveries[0].LinesAvailable != nil || *v.Deliveries[1].LinesAvailable != 3 || *v.Deliveries[1].LinesDelivered != 2 {
		t.Fatalf("view %+v", v)
	}
	if _, err := store.NewProductFilter(1, 50, "", "gone"); err == nil {
		t.Fatal("a bad status filter passed")
	}
}

func strp(s string) *string { return &s }

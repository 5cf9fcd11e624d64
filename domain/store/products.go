package store

import (
	"database/sql/driver"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Product statuses.
const (
	ProductActive   = "ACTIVE"
	ProductInactive = "INACTIVE"
)

// Delivery types: what a paid sale of a product hands its payer.
const (
	// DeliveryLink redirects the payer to RedirectURL.
	DeliveryLink = "LINK"
	// DeliveryTextInfinite shows RichContent to every payer.
	DeliveryTextInfinite = "TEXT_INFINITE"
	// DeliveryTextLines hands each sale one line of the product's stock
	// (db.TakeProductLine), never the same line twice.
	DeliveryTextLines = "TEXT_LINES"
)

// The bounds of a product's deliveries: a few per product, and a stock of
// lines that fits the API's 1 MiB body.
const (
	maxDeliveries   = 10
	maxRichContent  = 20000
	maxLines        = 10000
	maxLineLength   = 1000
	maxProductPrice = money.Cents(100_000_000) // R$ 1,000,000.00, the PIX charge ceiling
)

// ErrNoLinesLeft is returned by db.TakeProductLine when a TEXT_LINES
// product has handed out every line: the product cannot be sold (a 400).
var ErrNoLinesLeft = &domain.Error{Kind: domain.ErrInvalid, Message: "the product has no lines left to deliver"}

// Delivery is one of a product's deliveries. The lines of a TEXT_LINES
// delivery are not kept here but one row each (table product_lines), so
// that each is handed out once; the product shows how many are left.
type Delivery struct {
	Type        string `json:"type"`
	RedirectURL string `json:"redirectUrl,omitempty"`
	RichContent string `json:"richContent,omitempty"`
}

// Deliveries is a product's delivery list, stored as jsonb.
type Deliveries []Delivery

// Scan implements sql.Scanner.
func (d *Deliveries) Scan(src any) error { return domain.ScanList(src, (*[]Delivery)(d), "Deliveries") }

// Value implements driver.Valuer.
func (d Deliveries) Value() (driver.Value, error) { return domain.ListValue([]Delivery(d)) }

// Has tells whether the product has a delivery of type typ.
func (d Deliveries) Has(typ string) bool {
	for _, x := range d {
		if x.Type == typ {
			return true
		}
	}
	return false
}

// Product is a store product of an account, as stored. No money moves
// here: a product is what a payment link sells.
type Product struct {
	ID          string       `db:"id"`
	AccountID   string       `db:"account_id"`
	Name        string       `db:"name"`
	SKU         *string      `db:"sku"`
	Description *string      `db:"description"`
	Price       *money.Cents `db:"price"`
	Status      string       `db:"status"`
	Deliveries  Deliveries   `db:"deliveries"`
	// LinesAvailable and LinesDelivered count the TEXT_LINES stock (read
	// from product_lines, not stored on the product).
	LinesAvailable int         `db:"lines_available"`
	LinesDelivered int         `db:"lines_delivered"`
	CreatedAt      domain.Time `db:"created_at"`
	UpdatedAt      domain.Time `db:"updated_at"`
}

// ProductView is a product as the API shows it.
type ProductView struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	SKU         *string        `json:"sku"`
	Description *string        `json:"description"`
	Price       *money.Cents   `json:"price"`
	Status      string         `json:"status"`
	Deliveries  []DeliveryView `json:"deliveries"`
	CreatedAt   domain.Time    `json:"createdAt"`
}

// DeliveryView is a delivery as the API shows it: a TEXT_LINES delivery
// shows how many lines are left and how many were handed out, not the
// lines (they are what the payers buy).
type DeliveryView struct {
	Delivery
	LinesAvailable *int `json:"linesAvailable,omitempty"`
	LinesDelivered *int `json:"linesDelivered,omitempty"`
}

// Public is the product as the API shows it.
func (p Product) Public() ProductView {
	v := ProductView{ID: p.ID, Name: p.Name, SKU: p.SKU, Description: p.Description, Price: p.Price,
		Status: p.Status, Deliveries: []DeliveryView{}, CreatedAt: p.CreatedAt}
	for _, d := range p.Deliveries {
		dv := DeliveryView{Delivery: d}
		if d.Type == DeliveryTextLines {
			left, given := p.LinesAvailable, p.LinesDelivered
			dv.LinesAvailable, dv.LinesDelivered = &left, &given
		}
		v.Deliveries = append(v.Deliveries, dv)
	}
	return v
}

// DeliveryRequest is one delivery of a product request.
type DeliveryRequest struct {
	Type        *string `json:"type" jsonschema:"required"`
	RedirectURL *string `json:"redirectUrl" jsonschema:"description=LINK: an absolute http(s) URL"`
	RichContent *string `json:"richContent" jsonschema:"description=TEXT_INFINITE: shown to every payer"`
	// LinesText is a TEXT_LINES stock, one item per line (blank lines
	// are skipped).
	LinesText *string `json:"linesText" jsonschema:"description=TEXT_LINES: one item per line"`
}

// ProductRequest is the body of POST /products/create.
type ProductRequest struct {
	Name        *string           `json:"name" jsonschema:"required,minLength=1,maxLength=200"`
	SKU         *string           `json:"sku" jsonschema:"maxLength=64,description=unique per account"`
	Description *string           `json:"description" jsonschema:"maxLength=2000"`
	Price       *money.Cents      `json:"price" jsonschema:"minimum=0.01,maximum=1000000"`
	Status      *string           `json:"status"`
	Deliveries  []DeliveryRequest `json:"deliveries"`
}

// ProductUpdateRequest is the body of PATCH /products/update/{id}: the
// same fields, all optional.
type ProductUpdateRequest ProductRequest

// The closed sets of a product, read in any case.
var (
	ProductStatuses = domain.Folded(ProductActive, ProductInactive)
	DeliveryTypes   = domain.Folded(DeliveryLink, DeliveryTextInfinite, DeliveryTextLines)
)

// Enums are the request's closed sets (its deliveries' are their own).
func (ProductRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": ProductStatuses}
}

// Enums are the update's closed sets.
func (ProductUpdateRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": ProductStatuses}
}

// Enums are a delivery's closed sets.
func (DeliveryRequest) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"type": DeliveryTypes}
}

// Enums are the record's closed sets.
func (ProductView) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"status": domain.Exact(ProductStatuses.Values...)}
}

// Enums are a delivery's closed sets.
func (DeliveryView) Enums() map[string]domain.Enum {
	return map[string]domain.Enum{"type": domain.Exact(DeliveryTypes.Values...)}
}

// ProductPatch is a validated product request: nil leaves a field alone.
// An empty SKU removes the product's SKU. Deliveries, when set, replace the
// product's; Lines, when set, replace the TEXT_LINES lines not handed out
// yet (lines already handed out stay with their sales).
type ProductPatch struct {
	IdempotencyKey string
	Name, SKU      *string
	Description    *string
	Price          *money.Cents
	Status         *string
	Deliveries     *Deliveries
	Lines          *[]string
}

// Validate checks a create: name is required, status defaults to ACTIVE,
// a TEXT_LINES delivery needs its lines.
func (b ProductRequest) Validate() (ProductPatch, error) {
	p, err := b.validate(true)
	if err != nil {
		return p, err
	}
	if p.Status == nil {
		st := ProductActive
		p.Status = &st
	}
	if p.Deliveries == nil {
		p.Deliveries = &Deliveries{}
	}
	if p.Deliveries.Has(DeliveryTextLines) && (p.Lines == nil || len(*p.Lines) == 0) {
		return p, domain.Invalid("deliveries", "TEXT_LINES needs linesText with at least one line")
	}
	return p, nil
}

// Validate checks an update: only what is sent.
func (b ProductUpdateRequest) Validate() (ProductPatch, error) {
	return ProductRequest(b).validate(false)
}

func (b ProductRequest) validate(create bool) (ProductPatch, error) {
	var p ProductPatch
	var err error
	if b.Name != nil || create {
		n, err := domain.Text("name", b.Name, 1, 200, true)
		if err != nil {
			return p, err
		}
		p.Name = &n
	}
	if p.SKU, err = domain.OptionalText("sku", b.SKU, 0, 64); err != nil {
		return p, err
	}
	if p.Description, err = domain.OptionalText("description", b.Description, 0, 2000); err != nil {
		return p, err
	}
	if b.Price != nil {
		pr, err := domain.Amount("price", b.Price, 1, maxProductPrice)
		if err != nil {
			return p, err
		}
		p.Price = &pr
	}
	if b.Status != nil {
		st, ok := ProductStatuses.Match(*b.Status)
		if !ok {
			return p, domain.Invalid("status", "must be %s", ProductStatuses)
		}
		p.Status = &st
	}
	if b.Deliveries != nil {
		if p.Deliveries, p.Lines, err = deliveries(b.Deliveries); err != nil {
			return p, err
		}
	}
	return p, nil
}

// deliveries validates a delivery list. lines is the new TEXT_LINES stock
// when linesText is sent; without a TEXT_LINES delivery it is empty (the
// stock left is dropped), and nil (keep the stock) when a TEXT_LINES
// delivery comes without linesText.
func deliveries(list []DeliveryRequest) (*Deliveries, *[]string, error) {
	if len(list) > maxDeliveries {
		return nil, nil, domain.Invalid("deliveries", "must list at most %d deliveries", maxDeliveries)
	}
	out := Deliveries{}
	lines := &[]string{}
	for i, r := range list {
		field := fmt.Sprintf("deliveries[%d]", i)
		if r.Type == nil {
			return nil, nil, domain.Invalid(field+".type", "is required (LINK, TEXT_INFINITE or TEXT_LINES)")
		}
		typ, _ := DeliveryTypes.Match(*r.Type)
		d := Delivery{Type: typ}
		switch d.Type {
		case DeliveryLink:
			u, err := RedirectURL(field+".redirectUrl", r.RedirectURL)
			if err != nil {
				return nil, nil, err
			}
			d.RedirectURL = u
		case DeliveryTextInfinite:
			if r.RichContent == nil || strings.TrimSpace(*r.RichContent) == "" {
				return nil, nil, domain.Invalid(field+".richContent", "is required for TEXT_INFINITE")
			}
			if utf8.RuneCountInString(*r.RichContent) > maxRichContent || strings.ContainsRune(*r.RichContent, 0) {
				return nil, nil, domain.Invalid(field+".richContent", "must have at most %d characters and no NUL", maxRichContent)
			}
			d.RichContent = *r.RichContent
		case DeliveryTextLines:
			if out.Has(DeliveryTextLines) {
				return nil, nil, domain.Invalid(field+".type", "TEXT_LINES may appear once per product")
			}
			if r.LinesText == nil {
				lines = nil
				break
			}
			ls, err := splitLines(field+".linesText", *r.LinesText)
			if err != nil {
				return nil, nil, err
			}
			lines = &ls
		default:
			return nil, nil, domain.Invalid(field+".type", "must be %s", DeliveryTypes)
		}
		out = append(out, d)
	}
	return &out, lines, nil
}

// splitLines is a TEXT_LINES stock: one item per non-blank line, trimmed.
func splitLines(field, text string) ([]string, error) {
	if strings.ContainsRune(text, 0) {
		return nil, domain.Invalid(field, "must not contain NUL characters")
	}
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if utf8.RuneCountInString(l) > maxLineLength {
			return nil, domain.Invalid(field, "has a line longer than %d characters", maxLineLength)
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, domain.Invalid(field, "must have at least one line")
	}
	if len(out) > maxLines {
		return nil, domain.Invalid(field, "must have at most %d lines", maxLines)
	}
	return out, nil
}

// RedirectURL requires an absolute http or https URL with a host.
func RedirectURL(field string, v *string) (string, error) {
	s, err := domain.Text(field, v, 1, 2048, true)
	if err != nil {
		return "", err
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return "", domain.Invalid(field, "must be an absolute http(s) URL, such as https://example.com/download")
	}
	return s, nil
}

// Apply returns p changed by patch (its TEXT_LINES lines are the
// repository's, see ProductPatch).
func (p Product) Apply(patch ProductPatch) Product {
	if patch.Name != nil {
		p.Name = *patch.Name
	}
	if patch.SKU != nil {
		p.SKU = nil
		if *patch.SKU != "" {
			s := *patch.SKU
			p.SKU = &s
		}
	}
	if patch.Description != nil {
		d := *patch.Description
		p.Description = &d
	}
	if patch.Price != nil {
		pr := *patch.Price
		p.Price = &pr
	}
	if patch.Status != nil {
		p.Status = *patch.Status
	}
	if patch.Deliveries != nil {
		p.Deliveries = *patch.Deliveries
	}
	return p
}

// ProductFilter selects a page of an account's products: Search matches
// name, SKU or description partially; Status exactly ("" means any).
type ProductFilter struct {
	Page, PageSize int
	Search, Status string
}

// NewProductFilter reads the list query's search and status.
func NewProductFilter(page, pageSize int, search, status string) (ProductFilter, error) {
	f := ProductFilter{Page: page, PageSize: pageSize, Search: strings.TrimSpace(search)}
	var err error
	f.Status, err = domain.OneOf("status", status, ProductActive, ProductInactive)
	return f, err
}

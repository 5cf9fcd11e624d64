package boleto

import (
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/money"
)

func date(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func TestFactorWithThe2025Reset(t *testing.T) {
	for _, tt := range []struct {
		due    string
		factor int
	}{
		{"2000-07-03", 1000}, // the first factor of the first window
		{"2007-12-31", 3737},
		{"2025-02-21", 9999}, // the last of the first window
		{"2025-02-22", 1000}, // FEBRABAN's reset
		{"2025-02-23", 1001},
		{"2026-11-25", 1641},
	} {
		f, err := Factor(date(tt.due))
		if err != nil || f != tt.factor {
			t.Errorf("Factor(%s) = %d, %v; want %d", tt.due, f, err, tt.factor)
		}
		if back := DueDate(tt.factor, date(tt.due)); !back.Equal(date(tt.due)) {
			t.Errorf("DueDate(%d) = %s, want %s", tt.factor, back.Format(time.DateOnly), tt.due)
		}
	}
	for _, bad := range []string{"2000-07-02", "1999-01-01", "2049-12-31"} {
		if f, err := Factor(date(bad)); err == nil {
			t.Errorf("Factor(%s) = %d, want an error", bad, f)
		}
	}
}

// Published FEBRABAN examples: Banco do Brasil's (factor 3737, R$ 1.00),
// Bradesco's and Itaú's, as their digitable lines and barcodes are printed.
var published = []struct {
	bank, line, barcode string
	due                 string
	amount              money.Cents
}{
	{"001", "00190.50095 40144.816069 06809.350314 3 37370000000100", "00193373700000001000500940144816060680935031", "2007-12-31", 100},
	{"237", "23793.38128 60007.827136 95000.063305 9 75520000370000", "23799755200003700003381260007827139500006330", "2018-06-11", 370000},
	{"341", "34191.79001 01043.510047 91020.150008 1 84520000026000", "34191845200000260001790001043510049102015000", "2020-11-27", 26000},
}

func TestPublishedBoletos(t *testing.T) {
	for _, p := range published {
		bar, err := BarcodeOf(p.line)
		if err != nil || bar != p.barcode {
			t.Errorf("BarcodeOf(%s) = %s, %v; want %s", p.line, bar, err, p.barcode)
		}
		bare := strings.NewReplacer(".", "", " ", "").Replace(p.line)
		if got := LineOf(p.barcode); got != bare {
			t.Errorf("LineOf(%s) = %s, want %s", p.barcode, got, bare)
		}
		if got := Format(bare); got != p.line {
			t.Errorf("Format = %q, want %q", got, p.line)
		}
		// Built from its parts, the boleto is the published one.
		b, err := New(p.bank, date(p.due), p.amount, p.barcode[19:])
		if err != nil || b.Barcode != p.barcode || b.DigitableLine != bare {
			t.Errorf("New(%s, %s, %s) = %+v, %v", p.bank, p.due, p.amount, b, err)
		}
	}
}

func TestEveryWrongDigitIsCaught(t *testing.T) {
	line := strings.NewReplacer(".", "", " ", "").Replace(published[0].line)
	for i := range len(line) {
		if i >= 33 { // the factor and amount are covered by the general digit
			continue
		}
		b := []byte(line)
		b[i] = '0' + (b[i]-'0'+1)%10
		if _, err := BarcodeOf(string(b)); err == nil {
			t.Errorf("digit %d changed and the line still checks", i+1)
		}
	}
	b := []byte(line)
	b[40] = '0' + (b[40]-'0'+1)%10 // an amount digit: the general digit catches it
	if _, err := BarcodeOf(string(b)); err == nil {
		t.Error("amount changed and the line still checks")
	}
}

func TestNewRefusesWhatDoesNotFit(t *testing.T) {
	free := strings.Repeat("1", 25)
	for name, err := range map[string]error{
		"bank":   second(New("01", date("2026-01-01"), 100, free)),
		"free":   second(New("001", date("2026-01-01"), 100, "123")),
		"amount": second(New("001", date("2026-01-01"), MaxAmount+1, free)),
		"due":    second(New("001", date("1999-01-01"), 100, free)),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func second(_ Boleto, err error) error { return err }

func TestGeneralDigitNeverZero(t *testing.T) {
	// Whatever the free field, the general digit is 1 to 9.
	for i := range 200 {
		free := strings.Repeat(string('0'+byte(i%10)), 20) + "0000" + string('0'+byte(i/10%10))
		b, err := New("999", date("2026-03-01"), money.Cents(i*7919), free)
		if err != nil {
			t.Fatal(err)
		}
		if b.Barcode[4] == '0' {
			t.Fatalf("general digit 0 in %s", b.Barcode)
		}
		if bar, err := BarcodeOf(b.DigitableLine); err != nil || bar != b.Barcode {
			t.Fatalf("round trip of %s: %s, %v", b.Barcode, bar, err)
		}
	}
}

// decodeI25 reads the digits back from the widths, as a scanner would.
func decodeI25(t *testing.T, ws []int) string {
	t.Helper()
	if len(ws) < 7 || ws[0] != 1 || ws[1] != 1 || ws[2] != 1 || ws[3] != 1 {
		t.Fatalf("no start pattern: %v", ws[:4])
	}
	end := len(ws) - 3
	if ws[end] != 3 || ws[end+1] != 1 || ws[end+2] != 1 {
		t.Fatalf("no stop pattern: %v", ws[end:])
	}
	digit := func(p string) byte {
		for d, e := range i25Digits {
			if e == p {
				return '0' + byte(d)
			}
		}
		t.Fatalf("no digit has elements %s", p)
		return 0
	}
	var out []byte
	for i := 4; i < end; i += 10 {
		var a, b []byte
		for k := range 5 {
			a = append(a, "01"[ws[i+2*k]/3])
			b = append(b, "01"[ws[i+2*k+1]/3])
		}
		out = append(out, digit(string(a)), digit(string(b)))
	}
	return string(out)
}

func TestBarsEncodeTheBarcode(t *testing.T) {
	for _, p := range published {
		ws, err := Bars(p.barcode)
		if err != nil {
			t.Fatal(err)
		}
		if got := decodeI25(t, ws); got != p.barcode {
			t.Errorf("bars decode to %s, want %s", got, p.barcode)
		}
	}
	if _, err := Bars("123"); err == nil {
		t.Error("odd digit count accepted")
	}
	svg, err := SVG(published[0].barcode, 1, 50)
	if err != nil || !strings.HasPrefix(svg, "<svg") || strings.Count(svg, "<rect") != 2+44/2*5+2 {
		t.Errorf("SVG: %d bars, %v", strings.Count(svg, "<rect"), err)
	}
}

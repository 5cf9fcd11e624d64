package brcode

import (
	"errors"
	"strings"
	"testing"

	"github.com/jangada/jangada/money"
)

// A widely published static Pix code, used to check interoperability.
const publishedStatic = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"

func TestParsePublishedStatic(t *testing.T) {
	p, err := Parse(publishedStatic)
	if err != nil {
		t.Fatal(err)
	}
	want := Payload{
		Key:          "123e4567-e12b-12d1-a456-426655440000",
		MerchantName: "Fulano de Tal",
		MerchantCity: "BRASILIA",
		TxID:         "***",
	}
	if p != want {
		t.Fatalf("Parse = %+v, want %+v", p, want)
	}
	// Encoding the same payload must reproduce the published string byte
	// for byte, CRC included.
	got, err := Encode(want)
	if err != nil {
		t.Fatal(err)
	}
	if got != publishedStatic {
		t.Fatalf("Encode =\n%s\nwant\n%s", got, publishedStatic)
	}
}

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   Payload
		want Payload // what Parse returns; zero means same as in
	}{
		{
			name: "static with amount and description",
			in: Payload{
				Key: "ana@example.com", Amount: 12345, MerchantName: "Ana Lima",
				MerchantCity: "Recife", TxID: "PEDIDO42", Description: "Pedido 42",
			},
		},
		{
			name: "dynamic",
			in: Payload{
				URL: "pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25", Amount: 1,
				MerchantName: "Loja", MerchantCity: "Sao Paulo", TxID: "abcdefghijklmnopqrstuvwxyz0123456",
			},
		},
		{
			name: "no txid becomes ***",
			in:   Payload{Key: "+5511987654321", MerchantName: "X", MerchantCity: "Y"},
			want: Payload{Key: "+5511987654321", MerchantName: "X", MerchantCity: "Y", TxID: "***"},
		},
		{
			name: "accents folded and long names truncated",
			in: Payload{
				Key: "52998224725", MerchantName: "Padaria e Confeitaria São João Ltda",
				MerchantCity: "São José dos Campos", Amount: 9_999_999_999_99,
			},
			want: Payload{
				Key: "52998224725", MerchantName: "Padaria e Confeitaria Sao",
				MerchantCity: "Sao Jose dos Ca", Amount: 9_999_999_999_99, TxID: "***",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Encode(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Parse(s)
			if err != nil {
				t.Fatalf("Parse(%s): %v", s, err)
			}
			want := tt.want
			if want == (Payload{}) {
				want = tt.in
			}
			if got != want {
				t.Fatalf("round trip of %s\ngot  %+v\nwant %+v", s, got, want)
			}
		})
	}
}

func TestEncodeFields(t *testing.T) {
	tests := []struct {
		name     string
		in       Payload
		contains []string
		absent   []string
	}{
		{
			name:     "amount formatted with two decimals",
			in:       Payload{Key: "k", Amount: 1050, MerchantName: "N", MerchantCity: "C"},
			contains: []string{"540510.50", "5802BR", "5303986", "52040000"},
			absent:   []string{"00020101"},
		},
		{
			name:   "zero amount omitted",
			in:     Payload{Key: "k", MerchantName: "N", MerchantCity: "C"},
			absent: []string{"530398654"},
		},
		{
			name:     "dynamic sets initiation 12 and URL in 26-25",
			in:       Payload{URL: "pix.example.com/cob/1", MerchantName: "N", MerchantCity: "C"},
			contains: []string{"000201010212", "2643" + "0014br.gov.bcb.pix" + "2521pix.example.com/cob/1"},
		},
		{
			name:     "name truncated to 25 and city to 15",
			in:       Payload{Key: "k", MerchantName: strings.Repeat("N", 40), MerchantCity: strings.Repeat("C", 40)},
			contains: []string{"5925" + strings.Repeat("N", 25) + "60", "6015" + strings.Repeat("C", 15) + "62"},
		},
		{
			name:     "description kept when it fits",
			in:       Payload{Key: "k", Description: "Café", MerchantName: "N", MerchantCity: "C"},
			contains: []string{"0204Cafe"},
		},
		{
			name:   "description dropped when it does not fit",
			in:     Payload{Key: strings.Repeat("k", 77), Description: "Pagamento do pedido", MerchantName: "N", MerchantCity: "C"},
			absent: []string{"Pagamento"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Encode(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			body := s[:len(s)-8] // leave out the CRC, whose digits are arbitrary
			for _, c := range tt.contains {
				if !strings.Contains(body, c) {
					t.Errorf("%s does not contain %q", s, c)
				}
			}
			for _, c := range tt.absent {
				if strings.Contains(body, c) {
					t.Errorf("%s contains %q", s, c)
				}
			}
			if _, err := Parse(s); err != nil {
				t.Errorf("Parse(Encode()) = %v", err)
			}
		})
	}
}

func TestEncodeErrors(t *testing.T) {
	ok := Payload{Key: "k", MerchantName: "N", MerchantCity: "C"}
	with := func(f func(*Payload)) Payload { p := ok; f(&p); return p }
	tests := []struct {
		name string
		in   Payload
	}{
		{"no key or url", with(func(p *Payload) { p.Key = "" })},
		{"key and url", with(func(p *Payload) { p.URL = "pix.example.com/x" })},
		{"key too long", with(func(p *Payload) { p.Key = strings.Repeat("k", 78) })},
		{"key not ascii", with(func(p *Payload) { p.Key = "joão@example.com" })},
		{"url too long", Payload{URL: strings.Repeat("u", 78), MerchantName: "N", MerchantCity: "C"}},
		{"negative amount", with(func(p *Payload) { p.Amount = -1 })},
		{"amount too long", with(func(p *Payload) { p.Amount = money.Cents(10_000_000_000_00) })},
		{"no name", with(func(p *Payload) { p.MerchantName = " 日本 " })},
		{"no city", with(func(p *Payload) { p.MerchantCity = "" })},
		{"txid not alphanumeric", with(func(p *Payload) { p.TxID = "pedido-42" })},
		{"key-based txid too long", with(func(p *Payload) { p.TxID = strings.Repeat("A", 36) })},
		{"dynamic txid too short", Payload{URL: "u", TxID: strings.Repeat("A", 25), MerchantName: "N", MerchantCity: "C"}},
		{"dynamic txid too long", Payload{URL: "u", TxID: strings.Repeat("A", 36), MerchantName: "N", MerchantCity: "C"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if s, err := Encode(tt.in); !errors.Is(err, ErrEncode) {
				t.Fatalf("Encode(%+v) = %q, %v; want ErrEncode", tt.in, s, err)
			}
		})
	}
}

// withCRC recomputes the CRC so a test can reach the structural checks
// that come after it.
func withCRC(body string) string {
	s := body + "6304"
	return s + strings.ToUpper(hex4(CRC16([]byte(s))))
}

func hex4(v uint16) string {
	const digits = "0123456789ABCDEF"
	return string([]byte{digits[v>>12], digits[v>>8&0xF], digits[v>>4&0xF], digits[v&0xF]})
}

func TestParseErrors(t *testing.T) {
	body := publishedStatic[:len(publishedStatic)-8]
	tests := []struct {
		name   string
		in     string
		badCRC bool
	}{
		{"name tampered", strings.Replace(publishedStatic, "Fulano", "Fulanu", 1), true},
		{"key tampered", strings.Replace(publishedStatic, "123e4567", "123e4568", 1), true},
		{"length tampered", strings.Replace(publishedStatic, "5913Fulano", "5912Fulano", 1), true},
		{"crc tampered", publishedStatic[:len(publishedStatic)-1] + "C", true},
		{"empty", "", false},
		{"no crc field", body, false},
		{"crc not hex", body + "6304ZZZZ", false},
		{"wrong format", withCRC("000202" + body[6:]), false},
		{"format not first", withCRC(body[6:] + "000201"), false},
		{"wrong currency", withCRC(strings.Replace(body, "5303986", "5303840", 1)), false},
		{"wrong country", withCRC(strings.Replace(body, "5802BR", "5802US", 1)), false},
		{"wrong gui", withCRC(strings.Replace(body, "br.gov.bcb.pix", "br.gov.bcb.xip", 1)), false},
		{"no merchant account", withCRC("000201" + "52040000" + "5303986" + "5802BR" + "5901N" + "6001C"), false},
		{"bad initiation", withCRC("000201010213" + body[6:]), false},
		{"duplicate field", withCRC(body + "5802BR"), false},
		{"truncated field", withCRC(body + "59"), false},
		{"length overruns", withCRC(body + "5999X"), false},
		{"bad amount", withCRC(strings.Replace(body, "5802BR", "54041e-35802BR", 1)), false},
		{"negative amount", withCRC(strings.Replace(body, "5802BR", "5405-1.005802BR", 1)), false},
		{"exponent amount", withCRC(strings.Replace(body, "5802BR", "54031e25802BR", 1)), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.in)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Parse error = %v, want ErrInvalid", err)
			}
			if errors.Is(err, ErrBadCRC) != tt.badCRC {
				t.Fatalf("Parse error = %v, ErrBadCRC expected: %v", err, tt.badCRC)
			}
		})
	}
}

func TestParseLenient(t *testing.T) {
	body := publishedStatic[:len(publishedStatic)-8]
	fulano := Payload{Key: "123e4567-e12b-12d1-a456-426655440000", MerchantName: "Fulano de Tal", MerchantCity: "BRASILIA", TxID: "***"}
	withAmount := fulano
	withAmount.Amount = 1000
	accented := fulano
	accented.MerchantName, accented.MerchantCity = "Fulano de Tál", "BRASÍLIA"
	tests := []struct {
		name string
		in   string
		want Payload
	}{
		{"surrounding whitespace", " " + publishedStatic + "\n", fulano},
		{"lower-case crc", publishedStatic[:len(publishedStatic)-4] + strings.ToLower(publishedStatic[len(publishedStatic)-4:]), fulano},
		{"upper-case gui", withCRC(strings.Replace(body, "br.gov.bcb.pix", "BR.GOV.BCB.PIX", 1)), fulano},
		{"pix in slot 27", withCRC(strings.Replace(body, "26580014br.gov", "27580014br.gov", 1)), fulano},
		{"utf-8 lengths count characters", withCRC(strings.Replace(body, "Fulano de Tal6008BRASILIA", "Fulano de Tál6008BRASÍLIA", 1)), accented},
		{"amount without decimals", withCRC(strings.Replace(body, "5802BR", "540210"+"5802BR", 1)), withAmount},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("Parse = %+v, want %+v", got, tt.want)
			}
		})
	}
}

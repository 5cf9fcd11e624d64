package crypto

import (
	"crypto/sha256"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

func TestCryptoAddresses(t *testing.T) {
	t.Parallel()
	btc, eth, usdt, xrp := CryptoCurrencies["BTC"], CryptoCurrencies["ETH"], CryptoCurrencies["USDT"], CryptoCurrencies["XRP"]
	cases := []struct {
		name     string
		c        CryptoCurrency
		addr, id string
		err      string
	}{
		{"btc p2pkh", btc, "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "", ""},
		{"btc p2sh", btc, "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "", ""},
		{"btc bech32 v0", btc, "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "", ""},
		{"btc bech32 upper case", btc, "BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ", "", ""},
		{"btc taproot bech32m", btc, "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", "", ""},
		{"btc p2pkh bad checksum", btc, "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb", "", "address is not a valid BTC address"},
		{"btc bech32 bad checksum", btc, "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr", "", "address is not a valid BTC"},
		{"btc bech32 mixed case", btc, "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mDq", "", "address is not a valid BTC"},
		{"btc taproot with the v0 checksum", btc, "bc1pw508d6qejxtdg4c3zmgkqt9ldkrhkqwqnplsy", "", "address is not a valid BTC"},
		{"btc testnet", btc, "tb1qw508d6qejxtdg4c3zmgkqt9ldkrhkqwqnj7z", "", "address is not a valid BTC"},
		{"btc an ethereum address", btc, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "", "address is not a valid BTC"},
		{"eth eip-55", eth, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "", ""},
		{"eth eip-55 2", eth, "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "", ""},
		{"eth eip-55 3", eth, "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", "", ""},
		{"eth eip-55 4", eth, "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb", "", ""},
		{"eth lower case", eth, "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "", ""},
		{"eth upper case", eth, "0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED", "", ""},
		{"eth bad mixed case", eth, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", "", "address is not a valid ETH"},
		{"eth short", eth, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA", "", "address is not a valid ETH"},
		{"eth not hex", eth, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg", "", "address is not a valid ETH"},
		{"usdt erc-20", usdt, "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "", ""},
		{"usdt with extraId", usdt, "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "12", "extraId is only for memo currencies"},
		{"xrp with tag", xrp, "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "12345", ""},
		{"xrp account zero", xrp, "rrrrrrrrrrrrrrrrrrrrrhoLvTp", "0", ""},
		{"xrp without tag", xrp, "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "", "extraId is required for XRP"},
		{"xrp tag too big", xrp, "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "4294967296", "extraId must be a XRP destination tag"},
		{"xrp tag not a number", xrp, "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "memo", "extraId must be"},
		{"xrp bad checksum", xrp, "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTi", "1", "address is not a valid XRP"},
		{"xrp in bitcoin's alphabet", xrp, "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "1", "address is not a valid XRP"},
	}
	for _, c := range cases {
		err := c.c.CheckAddress(c.addr, c.id)
		if c.err == "" && err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.err)
		}
	}
}

// The addresses the sandbox derives pass the checks of their currency, and
// one changed character fails them.
func TestCryptoAddressForRoundTrips(t *testing.T) {
	t.Parallel()
	for _, code := range CryptoCodes() {
		c := CryptoCurrencies[code]
		for i := range 50 {
			h := sha256.Sum256([]byte{byte(i), code[0]})
			addr := c.CryptoAddressFor(h[:20])
			if err := c.CheckAddress(addr, map[bool]string{true: "7"}[c.Memo]); err != nil {
				t.Fatalf("%s address %s: %v", code, addr, err)
			}
			last := addr[len(addr)-1]
			swap := byte('q')
			if last == 'q' || last == 'Q' {
				swap = 'p'
			}
			if c.CheckAddress(addr[:len(addr)-1]+string(swap), "7") == nil && c.address != addressEthereum {
				t.Fatalf("%s address %s with its last character changed passed", code, addr)
			}
		}
	}
	if a := CryptoCurrencies["ETH"].CryptoAddressFor(make([]byte, 20)); a != "0x0000000000000000000000000000000000000000" {
		t.Fatalf("zero address %s", a)
	}
}

func TestCryptoAmounts(t *testing.T) {
	t.Parallel()
	btc := CryptoCurrencies["BTC"]
	// R$ 100.00 at R$ 350,000.00 per BTC = 0.000285714… BTC.
	if up, down := btc.PayUnits(10000, 35_000_000, true), btc.PayUnits(10000, 35_000_000, false); up != 28572 || down != 28571 {
		t.Fatalf("PayUnits up %d down %d", up, down)
	}
	if u := btc.PayUnits(35_000_000, 35_000_000, true); u != 100_000_000 {
		t.Fatalf("one coin = %d units", u)
	}
	for _, c := range []struct {
		a    domain.CryptoAmount
		want string
	}{{domain.CryptoAmount{Units: 28572, Decimals: 8}, "0.00028572"}, {domain.CryptoAmount{Units: 100_000_000, Decimals: 8}, "1.00000000"}, {domain.CryptoAmount{Units: 5, Decimals: 6}, "0.000005"}, {domain.CryptoAmount{Units: 1234567, Decimals: 6}, "1.234567"}} {
		b, _ := json.Marshal(c.a)
		if string(b) != c.want {
			t.Errorf("%+v = %s, want %s", c.a, b, c.want)
		}
	}
}

func TestCryptoRequests(t *testing.T) {
	t.Parallel()
	amt, btc, xrp, bad := money.Cents(10000), "btc", "XRP", "DOGE"
	addr, xaddr := "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"
	if n, err := (CryptoDepositRequest{Amount: &amt, PayCurrency: &btc}).Validate(); err != nil || n.Currency.Code != "BTC" {
		t.Fatalf("deposit: %+v %v", n, err)
	}
	if _, err := (CryptoDepositRequest{Amount: &amt, PayCurrency: &bad}).Validate(); err == nil || !strings.Contains(err.Error(), "payCurrency must be one of BTC, ETH, USDT, XRP") {
		t.Fatalf("unknown currency: %v", err)
	}
	if _, err := (CryptoQuoteRequest{PayCurrency: &btc}).Validate(); err == nil || !strings.Contains(err.Error(), "amount is required") {
		t.Fatalf("quote without amount: %v", err)
	}
	if n, err := (CryptoWithdrawalRequest{Address: &addr, PayCurrency: &btc, Amount: &amt}).Validate(); err != nil || n.Address != addr {
		t.Fatalf("withdrawal: %+v %v", n, err)
	}
	if _, err := (CryptoWithdrawalRequest{Address: &xaddr, PayCurrency: &xrp, Amount: &amt}).Validate(); err == nil || !strings.Contains(err.Error(), "extraId is required") {
		t.Fatalf("xrp without tag: %v", err)
	}
	if _, err := (CryptoWithdrawalRequest{Address: &xaddr, PayCurrency: &btc, Amount: &amt}).Validate(); err == nil || !strings.HasPrefix(err.Error(), "address ") {
		t.Fatalf("xrp address for btc: %v", err)
	}
}

func TestCryptoQuoteUsable(t *testing.T) {
	t.Parallel()
	now := time.Now()
	q := CryptoQuote{ID: "q1", Amount: 10000, PayCurrency: "BTC", ExpiresAt: domain.NewTime(now.Add(time.Minute))}
	if err := q.Usable(10000, "BTC", now); err != nil {
		t.Fatal(err)
	}
	used := "tx_1"
	for name, c := range map[string]struct {
		q        CryptoQuote
		amount   money.Cents
		currency string
		at       time.Time
		want     string
	}{
		"other amount":   {q, 9999, "BTC", now, "quoteId quotes 100.00 in BTC, not 99.99 in BTC"},
		"other currency": {q, 10000, "ETH", now, "not 100.00 in ETH"},
		"expired":        {q, 10000, "BTC", now.Add(time.Minute), "quoteId has expired"},
		"used":           {CryptoQuote{Amount: 10000, PayCurrency: "BTC", UsedBy: &used, ExpiresAt: q.ExpiresAt}, 10000, "BTC", now, "quoteId was already used by withdrawal tx_1"},
	} {
		if err := c.q.Usable(c.amount, c.currency, c.at); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

// Coins confirmed after their deposit expired bring what they are worth at
// the processor's price then, rounded down, never more than quoted.
func TestCryptoLateCredit(t *testing.T) {
	t.Parallel()
	// 55.00 BRL quoted at 5.50 per USDT: 10 USDT (10_000_000 units).
	usdt := domain.CryptoBlock{PayCurrency: "USDT", PayUnits: 10_000_000, Rate: 550}
	// 0.01 BRL of BTC at 350,000.00: 3 units (rounded up for the payer).
	btc := domain.CryptoBlock{PayCurrency: "BTC", PayUnits: 3, Rate: 35_000_000}
	for _, c := range []struct {
		name         string
		b            domain.CryptoBlock
		quoted, rate money.Cents
		want         money.Cents
	}{
		{"no price named: the quote", usdt, 5500, 0, 5500},
		{"the same price: the quote", usdt, 5500, 550, 5500},
		{"the coin rose: still the quote", usdt, 5500, 700, 5500},
		{"the coin fell: what the coins bring", usdt, 5500, 500, 5000},
		{"rounded down to the centavo", usdt, 5500, 333, 3330},
		{"units rounded up cap at the quote", btc, 1, 35_000_000, 1},
		{"a tiny deposit that fell to nothing", btc, 1, 3_000_000, 0},
	} {
		if got := LateCredit(c.b, c.quoted, c.rate); got != c.want {
			t.Errorf("%s: LateCredit(%d, %d) = %d, want %d", c.name, c.quoted, c.rate, got, c.want)
		}
	}
}

func TestDepositExpiry(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	window := now.Add(CryptoDepositWindow)
	sooner := now.Add(10*time.Minute + 1500*time.Nanosecond)
	for _, tt := range []struct {
		name  string
		asked time.Time
		want  time.Time
	}{
		{"none asked", time.Time{}, window},
		{"sooner asked", sooner, sooner.Truncate(time.Microsecond)},
		{"later asked", window.Add(time.Hour), window},
	} {
		if got := DepositExpiry(now, tt.asked); !got.Equal(tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

package crypto

import (
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// Address kinds: how a currency's addresses are checked.
const (
	addressBitcoin  = "bitcoin"
	addressEthereum = "ethereum"
	addressRipple   = "ripple"
)

// CryptoCurrency is a currency Jangada quotes, receives and sends.
type CryptoCurrency struct {
	Code string
	// Decimals is the precision of payAmount.
	Decimals int
	address  string
	// Memo currencies need extraId (a destination tag) beside the address.
	Memo bool
}

// CryptoCurrencies are the payCurrency values accepted (case-insensitive).
// USDT is the ERC-20 token: Ethereum addresses.
var CryptoCurrencies = map[string]CryptoCurrency{
	"BTC":  {Code: "BTC", Decimals: 8, address: addressBitcoin},
	"ETH":  {Code: "ETH", Decimals: 8, address: addressEthereum},
	"USDT": {Code: "USDT", Decimals: 6, address: addressEthereum},
	"XRP":  {Code: "XRP", Decimals: 6, address: addressRipple, Memo: true},
}

// CryptoCodes lists the accepted codes, sorted (for messages and docs).
func CryptoCodes() []string {
	codes := make([]string, 0, len(CryptoCurrencies))
	for c := range CryptoCurrencies {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	return codes
}

// CurrencyEnum is CryptoCodes as a request reads them: in any case.
var CurrencyEnum = domain.Folded(CryptoCodes()...)

// currencyEnums are the crypto requests' closed sets.
var currencyEnums = map[string]domain.Enum{"payCurrency": CurrencyEnum}

// Enums are the request's closed sets.
func (CryptoDepositRequest) Enums() map[string]domain.Enum { return currencyEnums }

// Enums are the request's closed sets.
func (CryptoQuoteRequest) Enums() map[string]domain.Enum { return currencyEnums }

// Enums are the request's closed sets.
func (CryptoWithdrawalRequest) Enums() map[string]domain.Enum { return currencyEnums }

// ParseCryptoCurrency requires a known payCurrency.
func ParseCryptoCurrency(field string, v *string) (CryptoCurrency, error) {
	if v == nil {
		return CryptoCurrency{}, domain.Invalid(field, "is required")
	}
	c, ok := CryptoCurrencies[strings.ToUpper(strings.TrimSpace(*v))]
	if !ok {
		return CryptoCurrency{}, domain.Invalid(field, "must be one of %s", strings.Join(CryptoCodes(), ", "))
	}
	return c, nil
}

// CheckAddress refuses an address (and extraId) that the currency's
// network would not accept, naming the field.
func (c CryptoCurrency) CheckAddress(address, extraID string) error {
	var ok bool
	switch c.address {
	case addressBitcoin:
		ok = bitcoinAddress(address)
	case addressEthereum:
		ok = ethereumAddress(address)
	case addressRipple:
		ok = rippleAddress(address)
	}
	if !ok {
		return domain.Invalid("address", "is not a valid %s address (its checksum or format does not hold)", c.Code)
	}
	switch {
	case c.Memo && extraID == "":
		return domain.Invalid("extraId", "is required for %s (the destination tag)", c.Code)
	case c.Memo && !destinationTag(extraID):
		return domain.Invalid("extraId", "must be a %s destination tag: an integer from 0 to 4294967295", c.Code)
	case !c.Memo && extraID != "":
		return domain.Invalid("extraId", "is only for memo currencies, not %s", c.Code)
	}
	return nil
}

// CryptoAddressFor is the address of the currency for a 20-byte key hash
// (the sandbox derives each deposit's own address this way): bech32 for
// Bitcoin, EIP-55 for Ethereum tokens, base58check for XRP.
func (c CryptoCurrency) CryptoAddressFor(hash20 []byte) string {
	switch c.address {
	case addressBitcoin:
		return segwitEncode("bc", hash20)
	case addressEthereum:
		return eip55(strings.ToLower(hexString(hash20)))
	}
	return base58CheckEncode(0x00, hash20, rippleAlphabet)
}

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 2*len(b))
	for i, v := range b {
		out[2*i], out[2*i+1] = digits[v>>4], digits[v&15]
	}
	return string(out)
}

// PayUnits converts a BRL amount at rate (BRL per whole coin) into the
// currency's units: rounded up for a deposit (the payer covers the amount),
// down for a withdrawal (never more than was paid for).
func (c CryptoCurrency) PayUnits(amount, rate money.Cents, roundUp bool) int64 {
	scale := int64(1)
	for range c.Decimals {
		scale *= 10
	}
	num := int64(amount) * scale // amount ≤ MaxTransfer, scale ≤ 10^8: no overflow
	units := num / int64(rate)
	if roundUp && num%int64(rate) != 0 {
		units++
	}
	return units
}

// LateCredit is what a deposit (its block b) of quoted BRL, paid after its quote
// expired, is credited when the processor prices its coins at rate (0: no
// price named, the quote holds): the coins' value at that rate, rounded
// down, never more than quoted (the payer paid for the quote; a coin that
// fell since credits less, so the platform never credits BRL the coins
// no longer bring).
func LateCredit(b domain.CryptoBlock, quoted, rate money.Cents) money.Cents {
	if rate <= 0 || rate >= b.Rate {
		return quoted
	}
	scale := uint64(1)
	for range CryptoCurrencies[b.PayCurrency].Decimals {
		scale *= 10
	}
	hi, lo := bits.Mul64(uint64(b.PayUnits), uint64(rate))
	if hi >= scale { // a value past int64: not a real amount, keep the quote's cap
		return quoted
	}
	v, _ := bits.Div64(hi, lo, scale)
	return money.Cents(min(v, uint64(quoted)))
}

// QuoteExpiry is when the block's withdrawal quote expired; a block stored
// before QuoteExpiresAt existed counts from createdAt (its quote was made
// before the withdrawal, so it expired no later).
func QuoteExpiry(b domain.CryptoBlock, createdAt time.Time) time.Time {
	if b.QuoteExpiresAt != nil {
		return b.QuoteExpiresAt.Time
	}
	return createdAt.Add(CryptoQuoteValidity)
}

// PayAmount is the block's crypto amount in its currency's precision.
func PayAmount(b domain.CryptoBlock) domain.CryptoAmount {
	return domain.CryptoAmount{Units: b.PayUnits, Decimals: CryptoCurrencies[b.PayCurrency].Decimals}
}

// CryptoDepositWindow is how long a deposit address waits for its payment:
// its quote's validity, after which the deposit closes unpaid (CANCELED).
const CryptoDepositWindow = 30 * time.Minute

// DepositExpiry is when a deposit opened at now closes unpaid: its window
// from now, or the expiry its owner asked (a checkout session's own),
// when that comes first. PostgreSQL's precision, so the record and its
// workflow agree.
func DepositExpiry(now, asked time.Time) time.Time {
	expires := now.Add(CryptoDepositWindow)
	if !asked.IsZero() && asked.Before(expires) {
		expires = asked.UTC().Truncate(time.Microsecond)
	}
	return expires
}

// CryptoQuoteValidity is how long a withdrawal quote may be used.
const CryptoQuoteValidity = 2 * time.Minute

// CryptoDepositRequest is the body of POST /payment-crypto/create.
type CryptoDepositRequest struct {
	Amount            *money.Cents `json:"amount" jsonschema:"required,minimum=0.01,maximum=1000000,description=BRL"`
	PayCurrency       *string      `json:"payCurrency" jsonschema:"required"`
	Description       *string      `json:"description" jsonschema:"maxLength=140"`
	ExternalReference *string      `json:"externalReference" jsonschema:"minLength=1,maxLength=120"`
}

// NewCryptoDeposit is a validated deposit request.
type NewCryptoDeposit struct {
	// IdempotencyKey is the request's scoped Idempotency-Key (see NewTransfer).
	IdempotencyKey    string
	Amount            money.Cents
	Currency          CryptoCurrency
	Description       string
	ExternalReference *string
	// Owner is set by another product's use case that takes a payment as a
	// crypto deposit (a checkout session's CRYPTO method): the deposit's
	// transitions tell it, as a charge's do (activities.RegisterChargeOwner).
	Owner *domain.ChargeOwner
	// ExpiresAt, when set by such a use case, is when the deposit closes
	// unpaid (its owner's own expiry, at most CryptoDepositWindow away);
	// zero is CryptoDepositWindow from now.
	ExpiresAt time.Time
}

// Validate checks the amount (BRL) and the currency.
func (b CryptoDepositRequest) Validate() (NewCryptoDeposit, error) {
	var n NewCryptoDeposit
	var err error
	if n.Amount, err = domain.Amount("amount", b.Amount, 1, domain.MaxTransfer); err != nil {
		return n, err
	}
	if n.Currency, err = ParseCryptoCurrency("payCurrency", b.PayCurrency); err != nil {
		return n, err
	}
	if n.Description, err = domain.Text("description", b.Description, 0, 140, false); err != nil {
		return n, err
	}
	n.ExternalReference, err = domain.OptionalText("externalReference", b.ExternalReference, 1, 120)
	return n, err
}

// CryptoQuoteRequest is the body of POST /transfer-crypto/quote.
type CryptoQuoteRequest struct {
	Amount      *money.Cents `json:"amount" jsonschema:"required,minimum=0.01,maximum=1000000,description=BRL"`
	PayCurrency *string      `json:"payCurrency" jsonschema:"required"`
}

// NewCryptoQuote is a validated quote request.
type NewCryptoQuote struct {
	Amount   money.Cents
	Currency CryptoCurrency
}

// Validate checks the amount (BRL) and the currency.
func (b CryptoQuoteRequest) Validate() (NewCryptoQuote, error) {
	var n NewCryptoQuote
	var err error
	if n.Amount, err = domain.Amount("amount", b.Amount, 1, domain.MaxTransfer); err != nil {
		return n, err
	}
	n.Currency, err = ParseCryptoCurrency("payCurrency", b.PayCurrency)
	return n, err
}

// CryptoWithdrawalRequest is the body of POST /transfer-crypto/create and
// /transfer-crypto-auto/create. quoteId names the quote to use (create
// without it uses the account's latest unused quote of that amount and
// currency; auto quotes by itself).
type CryptoWithdrawalRequest struct {
	Address           *string      `json:"address" jsonschema:"required,minLength=1,maxLength=128,description=checked with its currency's checksum: bech32 or base58check for BTC; EIP-55 when mixed case for ETH and USDT"`
	PayCurrency       *string      `json:"payCurrency" jsonschema:"required"`
	Amount            *money.Cents `json:"amount" jsonschema:"required,minimum=0.01,maximum=1000000,description=BRL"`
	ExtraID           *string      `json:"extraId" jsonschema:"maxLength=64,description=the destination tag: required for XRP (an integer from 0 to 4294967295); refused for the others"`
	QuoteID           *string      `json:"quoteId" jsonschema:"maxLength=64,description=transfer-crypto/create: the quote to use (default: the latest unused quote of that amount and currency); ignored by transfer-crypto-auto/create"`
	Description       *string      `json:"description" jsonschema:"maxLength=140"`
	ExternalReference *string      `json:"externalReference" jsonschema:"minLength=1,maxLength=120"`
}

// NewCryptoWithdrawal is a validated withdrawal request.
type NewCryptoWithdrawal struct {
	// IdempotencyKey is the request's scoped Idempotency-Key (see NewTransfer).
	IdempotencyKey    string
	Address           string
	Currency          CryptoCurrency
	Amount            money.Cents
	ExtraID           string
	QuoteID           string
	Description       string
	ExternalReference *string
}

// Validate checks the amount (BRL), the currency and the address with its
// network's checksum (and extraId for memo currencies).
func (b CryptoWithdrawalRequest) Validate() (NewCryptoWithdrawal, error) {
	var n NewCryptoWithdrawal
	var err error
	if n.Currency, err = ParseCryptoCurrency("payCurrency", b.PayCurrency); err != nil {
		return n, err
	}
	if n.Amount, err = domain.Amount("amount", b.Amount, 1, domain.MaxTransfer); err != nil {
		return n, err
	}
	if n.Address, err = domain.Text("address", b.Address, 1, 128, true); err != nil {
		return n, err
	}
	if n.ExtraID, err = domain.Text("extraId", b.ExtraID, 0, 64, false); err != nil {
		return n, err
	}
	if err := n.Currency.CheckAddress(n.Address, n.ExtraID); err != nil {
		return n, err
	}
	if n.QuoteID, err = domain.Text("quoteId", b.QuoteID, 0, 64, false); err != nil {
		return n, err
	}
	if n.Description, err = domain.Text("description", b.Description, 0, 140, false); err != nil {
		return n, err
	}
	n.ExternalReference, err = domain.OptionalText("externalReference", b.ExternalReference, 1, 120)
	return n, err
}

// CryptoQuote is a stored quote: amount BRL buys PayUnits of PayCurrency at
// Rate until ExpiresAt; a withdrawal uses it once (UsedBy).
type CryptoQuote struct {
	ID          string      `db:"id"`
	AccountID   string      `db:"account_id"`
	Amount      money.Cents `db:"amount"`
	PayCurrency string      `db:"pay_currency"`
	PayUnits    int64       `db:"pay_units"`
	Rate        money.Cents `db:"rate"`
	ExpiresAt   domain.Time `db:"expires_at"`
	UsedBy      *string     `db:"used_by"`
	CreatedAt   domain.Time `db:"created_at"`
}

// PublicCryptoQuote is a quote as the API answers it.
type PublicCryptoQuote struct {
	ID          string              `json:"id"`
	Amount      money.Cents         `json:"amount"`
	Currency    string              `json:"currency"`
	PayCurrency string              `json:"payCurrency"`
	PayAmount   domain.CryptoAmount `json:"payAmount"`
	Rate        money.Cents         `json:"rate"`
	ExpiresAt   domain.Time         `json:"expiresAt"`
	CreatedAt   domain.Time         `json:"createdAt"`
}

// Public is the quote's answer.
func (q CryptoQuote) Public() PublicCryptoQuote {
	b := domain.CryptoBlock{PayCurrency: q.PayCurrency, PayUnits: q.PayUnits}
	return PublicCryptoQuote{ID: q.ID, Amount: q.Amount, Currency: "BRL", PayCurrency: q.PayCurrency, PayAmount: PayAmount(b),
		Rate: q.Rate, ExpiresAt: q.ExpiresAt, CreatedAt: q.CreatedAt}
}

// Usable refuses a quote a withdrawal of amount in currency cannot use at
// now: another amount or currency, already used, or expired (400 naming
// quoteId).
func (q CryptoQuote) Usable(amount money.Cents, currency string, now time.Time) error {
	switch {
	case q.Amount != amount || q.PayCurrency != currency:
		return domain.Invalid("quoteId", "quotes %s in %s, not %s in %s", q.Amount, q.PayCurrency, amount, currency)
	case q.UsedBy != nil:
		return domain.Invalid("quoteId", "was already used by withdrawal %s", *q.UsedBy)
	case !now.Before(q.ExpiresAt.Time):
		return domain.Invalid("quoteId", "has expired (at %s): ask for a new quote", q.ExpiresAt.ISO())
	}
	return nil
}

// LedgerCryptoClearing is the counterpart of money entering and leaving
// through crypto (migration 00025).
const LedgerCryptoClearing = "platform:crypto_clearing"

var _ = domain.RegisterView(func(t domain.Transaction, p *domain.PublicTransaction) {
	if c := t.Details.V.Crypto; c != nil {
		amt, rate := PayAmount(*c), c.Rate
		p.PayCurrency, p.PayAmount, p.Rate, p.QuoteID = c.PayCurrency, &amt, &rate, c.QuoteID
		p.Address, p.ExtraID, p.TxHash, p.LatePayment = c.Address, c.ExtraID, c.TxHash, c.LatePayment
	}
}, domain.TypeCryptoIn, domain.TypeCryptoOut)

package brcode

import "github.com/jangada/jangada/money"

// Field IDs and length limits from the EMV MPM specification and the
// BCB's Pix BR Code manual.
const (
	idFormat          = "00"
	idInitiation      = "01"
	idMerchantAccount = "26"
	idCategory        = "52"
	idCurrency        = "53"
	idAmount          = "54"
	idCountry         = "58"
	idMerchantName    = "59"
	idMerchantCity    = "60"
	idAdditionalData  = "62"
	idCRC             = "63"
	// idRecurrence is the Pix Automático template (BCB BR Code manual,
	// recurrence section): GUI br.gov.bcb.pix and, in subfield 25, the URL
	// where the receiver's PSP serves the recurrence (its "locrec").
	idRecurrence       = "80"
	subGUI             = "00"
	subKey             = "01"
	subDescription     = "02"
	subURL             = "25"
	subTxID            = "05"
	pixGUI             = "br.gov.bcb.pix"
	currencyBRL        = "986"
	initiationDynamic  = "12"
	initiationStatic   = "11"
	noTxID             = "***"
	maxNameLen         = 25
	maxCityLen         = 15
	maxKeyLen          = 77
	maxURLLen          = 77
	maxAmountLen       = 13
	minDynamicTxIDLen  = 26
	maxDynamicTxIDLen  = 35
	maxTLVValueLen     = 99
	merchantCategoryNA = "0000"
)

// Payload is what a BR Code carries. A static code names the receiver by
// Key; a dynamic code instead points at URL, where the receiver's PSP
// serves the charge, so exactly one of the two is set.
type Payload struct {
	Key          string
	URL          string      // without scheme, e.g. "pix.example.com/qr/v2/abc"
	Amount       money.Cents // 0 means the payer chooses the amount
	MerchantName string
	MerchantCity string
	TxID         string // empty or "***" means no identifier
	Description  string
	// RecurrenceURL (without scheme), when set, makes the code a Pix
	// Automático consent: field 80 points at the recurrence the payer
	// authorises. With Key or URL it also carries an immediate payment, the
	// first instalment (the BCB's "jornada 3"); alone it carries only the
	// consent ("jornada 2"), and field 26 then holds only the GUI.
	RecurrenceURL string
}

// Dynamic reports whether the code points at a charge URL rather than
// carrying the key directly.
func (p Payload) Dynamic() bool { return p.URL != "" }

package brcode

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jangada/jangada/money"
)

// Parse decodes a BR Code, typically one pasted by a user, checking the
// CRC before anything else so that a copy error is reported as ErrBadCRC
// rather than as whatever structural error it happened to cause. It
// requires the fields that make a code a Pix payment in reais; all errors
// wrap ErrInvalid.
func Parse(s string) (Payload, error) {
	s = strings.TrimSpace(s)
	if len(s) < 8 || s[len(s)-8:len(s)-4] != idCRC+"04" {
		return Payload{}, invalidf("must end with the CRC field 6304")
	}
	given, err := strconv.ParseUint(s[len(s)-4:], 16, 16)
	if err != nil {
		return Payload{}, invalidf("CRC %q is not 4 hexadecimal digits", s[len(s)-4:])
	}
	if got := CRC16([]byte(s[:len(s)-4])); uint64(got) != given {
		return Payload{}, fmt.Errorf("%w (computed %04X, code has %s)", ErrBadCRC, got, s[len(s)-4:])
	}

	fields, err := parseTLVs(s)
	if err != nil {
		return Payload{}, err
	}
	if fields[0].id != idFormat || fields[0].value != "01" {
		return Payload{}, invalidf("must start with payload format 000201")
	}
	if last := fields[len(fields)-1]; last.id != idCRC {
		return Payload{}, invalidf("CRC field 63 must be last")
	}
	if v, ok := lookup(fields, idInitiation); ok && v != initiationStatic && v != initiationDynamic {
		return Payload{}, invalidf("field 01 must be 11 or 12, not %q", v)
	}
	if v, _ := lookup(fields, idCurrency); v != currencyBRL {
		return Payload{}, invalidf("field 53 must be 986 (BRL)")
	}
	if v, _ := lookup(fields, idCountry); v != "BR" {
		return Payload{}, invalidf("field 58 must be BR")
	}

	var p Payload
	if err := parseMerchantAccount(fields, &p); err != nil {
		return Payload{}, err
	}
	if v, ok := lookup(fields, idAmount); ok {
		amount, err := money.ParseBRL(v)
		if err != nil || amount < 0 || strings.ContainsAny(v, "eE") {
			return Payload{}, invalidf("field 54 amount %q is not a valid amount", v)
		}
		p.Amount = amount
	}
	p.MerchantName, _ = lookup(fields, idMerchantName)
	p.MerchantCity, _ = lookup(fields, idMerchantCity)
	if v, ok := lookup(fields, idAdditionalData); ok {
		sub, err := parseTLVs(v)
		if err != nil {
			return Payload{}, fmt.Errorf("in field 62: %w", err)
		}
		p.TxID, _ = lookup(sub, subTxID)
	}
	if v, ok := lookup(fields, idRecurrence); ok {
		sub, err := parseTLVs(v)
		if err != nil {
			return Payload{}, fmt.Errorf("in field 80: %w", err)
		}
		if gui, _ := lookup(sub, subGUI); strings.EqualFold(gui, pixGUI) {
			if p.RecurrenceURL, _ = lookup(sub, subURL); p.RecurrenceURL == "" {
				return Payload{}, invalidf("field 80 has no recurrence URL (25)")
			}
		}
	}
	return p, nil
}

// parseMerchantAccount looks through every template slot EMV reserves for
// merchant accounts (26 to 51), since a code may carry other schemes next
// to Pix, and takes the one whose GUI is Pix's.
func parseMerchantAccount(fields []field, p *Payload) error {
	for _, f := range fields {
		if f.id < "26" || f.id > "51" {
			continue
		}
		sub, err := parseTLVs(f.value)
		if err != nil {
			return fmt.Errorf("in field %s: %w", f.id, err)
		}
		if gui, _ := lookup(sub, subGUI); !strings.EqualFold(gui, pixGUI) {
			continue
		}
		p.Key, _ = lookup(sub, subKey)
		p.Description, _ = lookup(sub, subDescription)
		p.URL, _ = lookup(sub, subURL)
		if p.Key == "" && p.URL == "" && !hasRecurrence(fields) {
			return invalidf("field %s has neither a key (01) nor a URL (25)", f.id)
		}
		return nil
	}
	return invalidf("no merchant account with GUI %s", pixGUI)
}

// hasRecurrence reports whether the code carries a Pix Automático template
// (field 80): a consent-only code's field 26 holds just the GUI.
func hasRecurrence(fields []field) bool {
	_, ok := lookup(fields, idRecurrence)
	return ok
}

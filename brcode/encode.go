package brcode

import (
	"fmt"
	"strings"
)

// Encode builds the BR Code string for p. Merchant name and city are
// folded to ASCII and truncated to their field limits; the description is
// left out when it does not fit in the merchant account field. Anything
// else that breaks a rule is an error wrapping ErrEncode, because a code
// the payer's bank rejects is worse than no code.
func Encode(p Payload) (string, error) {
	switch {
	case p.Key == "" && p.URL == "" && p.RecurrenceURL == "":
		return "", encodef("either Key (static code) or URL (dynamic code) is required")
	case p.Key != "" && p.URL != "":
		return "", encodef("Key and URL are mutually exclusive")
	case len(p.Key) > maxKeyLen || !printableASCII(p.Key):
		return "", encodef("Key must be at most %d printable ASCII characters", maxKeyLen)
	case len(p.URL) > maxURLLen || !printableASCII(p.URL):
		return "", encodef("URL must be at most %d printable ASCII characters", maxURLLen)
	case len(p.RecurrenceURL) > maxURLLen || !printableASCII(p.RecurrenceURL):
		return "", encodef("RecurrenceURL must be at most %d printable ASCII characters", maxURLLen)
	case p.Amount < 0:
		return "", encodef("Amount must not be negative")
	}
	txid, err := encodeTxID(p.TxID, p.Dynamic())
	if err != nil {
		return "", err
	}
	name := foldASCII(p.MerchantName, maxNameLen)
	if name == "" {
		return "", encodef("MerchantName is required")
	}
	city := foldASCII(p.MerchantCity, maxCityLen)
	if city == "" {
		return "", encodef("MerchantCity is required")
	}
	account, err := merchantAccount(p)
	if err != nil {
		return "", err
	}
	var additional strings.Builder
	if err := writeTLV(&additional, subTxID, txid); err != nil {
		return "", err
	}

	var b strings.Builder
	fields := []field{{idFormat, "01"}}
	if p.Dynamic() {
		fields = append(fields, field{idInitiation, initiationDynamic})
	}
	fields = append(fields,
		field{idMerchantAccount, account},
		field{idCategory, merchantCategoryNA},
		field{idCurrency, currencyBRL},
	)
	if p.Amount != 0 {
		amount := p.Amount.String()
		if len(amount) > maxAmountLen {
			return "", encodef("Amount %s does not fit in %d characters", amount, maxAmountLen)
		}
		fields = append(fields, field{idAmount, amount})
	}
	fields = append(fields,
		field{idCountry, "BR"},
		field{idMerchantName, name},
		field{idMerchantCity, city},
		field{idAdditionalData, additional.String()},
	)
	if p.RecurrenceURL != "" {
		var rec strings.Builder
		if err := writeTLV(&rec, subGUI, pixGUI); err != nil {
			return "", err
		}
		if err := writeTLV(&rec, subURL, p.RecurrenceURL); err != nil {
			return "", err
		}
		fields = append(fields, field{idRecurrence, rec.String()})
	}
	for _, f := range fields {
		if err := writeTLV(&b, f.id, f.value); err != nil {
			return "", err
		}
	}
	b.WriteString(idCRC + "04")
	fmt.Fprintf(&b, "%04X", CRC16([]byte(b.String())))
	return b.String(), nil
}

// merchantAccount builds field 26. The description is optional payer-facing
// text, so it is the one subfield dropped when the template would exceed
// 99 characters.
func merchantAccount(p Payload) (string, error) {
	var head, tail strings.Builder
	if err := writeTLV(&head, subGUI, pixGUI); err != nil {
		return "", err
	}
	if p.Key != "" {
		if err := writeTLV(&head, subKey, p.Key); err != nil {
			return "", err
		}
	}
	if p.URL != "" {
		if err := writeTLV(&tail, subURL, p.URL); err != nil {
			return "", err
		}
	}
	if desc := foldASCII(p.Description, 0); desc != "" {
		var d strings.Builder
		if writeTLV(&d, subDescription, desc) == nil && head.Len()+d.Len()+tail.Len() <= maxTLVValueLen {
			head.WriteString(d.String())
		}
	}
	return head.String() + tail.String(), nil
}

// encodeTxID applies the txid limits: a dynamic (URL) code's txid has 26 to
// 35 alphanumerics and "***" means none. A key-based code may also carry a
// charge txid of up to 35, because Jangada's charges are key-based codes with
// a 26–35 character txid (CONTRACTS.md) so that they identify the charge.
func encodeTxID(txid string, dynamic bool) (string, error) {
	if txid == "" || txid == noTxID {
		return noTxID, nil
	}
	if !alphanumeric(txid) {
		return "", encodef("TxID must contain only letters and digits")
	}
	if dynamic && (len(txid) < minDynamicTxIDLen || len(txid) > maxDynamicTxIDLen) {
		return "", encodef("TxID of a dynamic code must have %d to %d characters", minDynamicTxIDLen, maxDynamicTxIDLen)
	}
	if !dynamic && len(txid) > maxDynamicTxIDLen {
		return "", encodef("TxID must have at most %d characters", maxDynamicTxIDLen)
	}
	return txid, nil
}

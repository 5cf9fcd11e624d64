package pixkey

import (
	"strings"

	"github.com/jangada/jangada/document"
)

// Normalize validates key as a key of type t and returns the canonical
// form the DICT stores: CPF and CNPJ as bare digits (letters allowed in a
// CNPJ), e-mail lower-cased, phone as +55DDNNNNNNNNN, random key as a
// lower-case hyphenated UUID. Surrounding whitespace is ignored because
// copy-pasted keys often carry it.
func Normalize(t Type, key string) (string, error) {
	key = strings.TrimSpace(key)
	switch t {
	case CPF:
		d := document.Digits(key)
		if !document.ValidCPF(d) {
			return "", invalid("pixKey is not a valid CPF")
		}
		return d, nil
	case CNPJ:
		d := document.Digits(key)
		if !document.ValidCNPJ(d) {
			return "", invalid("pixKey is not a valid CNPJ")
		}
		return d, nil
	case EMAIL:
		return normalizeEmail(key)
	case TELEFONE:
		return normalizePhone(key)
	case CHAVE_ALEATORIA:
		return normalizeUUID(key)
	}
	return "", &keyError{
		msg:  "pixKeyType must be one of " + typeList(),
		kind: ErrUnknownType,
	}
}

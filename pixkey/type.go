package pixkey

import "strings"

// Type is the kind of a Pix key, spelled as the DICT API spells it.
type Type string

// Key types. The names mirror the wire values so code and payloads read
// the same.
const (
	CPF             Type = "CPF"
	CNPJ            Type = "CNPJ"
	EMAIL           Type = "EMAIL"
	TELEFONE        Type = "TELEFONE"
	CHAVE_ALEATORIA Type = "CHAVE_ALEATORIA"
)

// Types lists every key type, in the order used in error messages.
var Types = []Type{CPF, CNPJ, EMAIL, TELEFONE, CHAVE_ALEATORIA}

// Valid reports whether t is one of the known key types, so request
// validation can reject a bad type before looking at the key.
func (t Type) Valid() bool {
	for _, k := range Types {
		if t == k {
			return true
		}
	}
	return false
}

// Names are Types as strings.
func Names() []string {
	names := make([]string, len(Types))
	for i, t := range Types {
		names[i] = string(t)
	}
	return names
}

func typeList() string { return strings.Join(Names(), ", ") }

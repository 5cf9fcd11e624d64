package document

// Kind names which document an identifier is, using the labels the Pix and
// banking APIs use.
type Kind string

// The two kinds of taxpayer identifier.
const (
	KindCPF  Kind = "CPF"
	KindCNPJ Kind = "CNPJ"
)

// Classify lets an API take a single "document" field for both people and
// companies. It always returns the normalized form (see Digits) and, when
// the length identifies one, the kind it was meant to be, so an error can
// say "not a valid CPF" rather than "not a valid document"; ok reports
// whether the check digits match.
func Classify(s string) (normalized string, k Kind, ok bool) {
	d := Digits(s)
	switch len(d) {
	case 11:
		return d, KindCPF, ValidCPF(d)
	case 14:
		return d, KindCNPJ, ValidCNPJ(d)
	}
	return d, "", false
}

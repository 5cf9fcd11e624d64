package document

var (
	cnpjWeights1 = []int{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
	cnpjWeights2 = []int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
)

// ValidCNPJ reports whether s, with or without punctuation, is a CNPJ whose
// two check digits match. The first twelve characters may be digits or
// letters, because the Receita Federal issues alphanumeric CNPJs from July
// 2026 and existing numeric ones keep validating under the same rule; the
// check digits are always numeric.
func ValidCNPJ(s string) bool {
	d := Digits(s)
	if len(d) != 14 || allSame(d) {
		return false
	}
	for i := 0; i < 12; i++ {
		if !isDigit(d[i]) && !('A' <= d[i] && d[i] <= 'Z') {
			return false
		}
	}
	if !isDigit(d[12]) || !isDigit(d[13]) {
		return false
	}
	return d[12] == checkDigit(d, cnpjWeights1) && d[13] == checkDigit(d, cnpjWeights2)
}

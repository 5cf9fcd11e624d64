package document

var (
	cpfWeights1 = []int{10, 9, 8, 7, 6, 5, 4, 3, 2}
	cpfWeights2 = []int{11, 10, 9, 8, 7, 6, 5, 4, 3, 2}
)

// ValidCPF reports whether s, with or without punctuation, is a CPF whose
// two check digits match.
func ValidCPF(s string) bool {
	d := Digits(s)
	if len(d) != 11 || allSame(d) {
		return false
	}
	for i := 0; i < len(d); i++ {
		if !isDigit(d[i]) {
			return false
		}
	}
	return d[9] == checkDigit(d, cpfWeights1) && d[10] == checkDigit(d, cpfWeights2)
}

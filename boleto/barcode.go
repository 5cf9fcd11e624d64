package boleto

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jangada/jangada/money"
)

// MaxAmount is the largest amount the barcode's ten digits hold.
const MaxAmount = money.Cents(99_999_999_99)

// Boleto is a built boleto: its barcode and digitable line.
type Boleto struct {
	// Barcode is the 44 digits the bars encode: bank (3), currency 9, the
	// general check digit, the due-date factor (4), the amount in cents
	// (10) and the bank's free field (25).
	Barcode string
	// DigitableLine is the 47 digits a payer types, without punctuation.
	DigitableLine string
}

// New builds the boleto of bank (3 digits) for amount due on due, with the
// bank's 25-digit free field (its agreement and our number).
func New(bank string, due time.Time, amount money.Cents, freeField string) (Boleto, error) {
	if len(bank) != 3 || !allDigits(bank) {
		return Boleto{}, errors.New("boleto: the bank code must be 3 digits")
	}
	if len(freeField) != 25 || !allDigits(freeField) {
		return Boleto{}, errors.New("boleto: the free field must be 25 digits")
	}
	if amount < 0 || amount > MaxAmount {
		return Boleto{}, fmt.Errorf("boleto: amount %s does not fit the barcode", amount)
	}
	f, err := Factor(due)
	if err != nil {
		return Boleto{}, err
	}
	body := fmt.Sprintf("%s9%04d%010d%s", bank, f, int64(amount), freeField) // 43 digits, no check digit
	bar := body[:4] + string('0'+byte(mod11(body))) + body[4:]
	return Boleto{Barcode: bar, DigitableLine: LineOf(bar)}, nil
}

// LineOf is the digitable line of a 44-digit barcode: three fields of the
// bank, currency and free field, each with its mod-10 check digit, then the
// general check digit, then the factor and amount.
func LineOf(bar string) string {
	f1 := bar[0:4] + bar[19:24]
	f2 := bar[24:34]
	f3 := bar[34:44]
	return f1 + dv10(f1) + f2 + dv10(f2) + f3 + dv10(f3) + bar[4:5] + bar[5:19]
}

// BarcodeOf is the barcode a 47-digit digitable line stands for, after
// checking its four check digits.
func BarcodeOf(line string) (string, error) {
	line = strings.NewReplacer(".", "", " ", "").Replace(line)
	if len(line) != 47 || !allDigits(line) {
		return "", errors.New("boleto: a digitable line has 47 digits")
	}
	for _, f := range [][2]int{{0, 9}, {10, 20}, {21, 31}} {
		if dv10(line[f[0]:f[1]]) != line[f[1]:f[1]+1] {
			return "", fmt.Errorf("boleto: the check digit at position %d is wrong", f[1]+1)
		}
	}
	bar := line[0:4] + line[32:33] + line[33:47] + line[4:9] + line[10:20] + line[21:31]
	if int(bar[4]-'0') != mod11(bar[:4]+bar[5:]) {
		return "", errors.New("boleto: the general check digit is wrong")
	}
	return bar, nil
}

// Format writes a digitable line the way a slip prints it:
// AAABC.CCCCX DDDDD.DDDDDY EEEEE.EEEEEZ K UUUUVVVVVVVVVV.
func Format(line string) string {
	if len(line) != 47 {
		return line
	}
	return line[0:5] + "." + line[5:10] + " " + line[10:15] + "." + line[15:21] + " " +
		line[21:26] + "." + line[26:32] + " " + line[32:33] + " " + line[33:47]
}

// dv10 is a field's mod-10 check digit: weights 2, 1, 2, … from the right,
// the digits of each product summed.
func dv10(s string) string {
	sum, w := 0, 2
	for i := len(s) - 1; i >= 0; i-- {
		p := int(s[i]-'0') * w
		sum += p/10 + p%10
		w = 3 - w
	}
	return string('0' + byte((10-sum%10)%10))
}

// mod11 is the barcode's general check digit over its other 43 digits:
// weights 2 to 9 from the right; 0, 10 and 11 become 1.
func mod11(s string) int {
	sum, w := 0, 2
	for i := len(s) - 1; i >= 0; i-- {
		sum += int(s[i]-'0') * w
		if w++; w > 9 {
			w = 2
		}
	}
	d := 11 - sum%11
	if d == 0 || d == 10 || d == 11 {
		return 1
	}
	return d
}

func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

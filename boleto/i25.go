package boleto

import (
	"fmt"
	"strings"
)

// i25Digits are the five elements of each digit in Interleaved 2 of 5:
// 1 wide, 0 narrow.
var i25Digits = [10]string{"00110", "10001", "01001", "11000", "00101", "10100", "01100", "00011", "10010", "01010"}

// Bars are the widths of an Interleaved 2 of 5 symbol, alternating bar and
// space from a bar: the start (narrow bar, space, bar, space), each pair of
// digits (the first in the bars, the second in the spaces) and the stop
// (wide bar, narrow space, narrow bar). Each width is 1 (narrow) or 3 (wide).
func Bars(digits string) ([]int, error) {
	if len(digits)%2 != 0 || !allDigits(digits) {
		return nil, fmt.Errorf("boleto: Interleaved 2 of 5 needs an even number of digits")
	}
	w := []int{1, 1, 1, 1}
	for i := 0; i < len(digits); i += 2 {
		a, b := i25Digits[digits[i]-'0'], i25Digits[digits[i+1]-'0']
		for k := range 5 {
			w = append(w, width(a[k]), width(b[k]))
		}
	}
	return append(w, 3, 1, 1), nil
}

func width(c byte) int {
	if c == '1' {
		return 3
	}
	return 1
}

// SVG draws the symbol of digits as an inline SVG, unit wide per narrow
// element and height tall (FEBRABAN's slip prints the 44 digits this way).
func SVG(digits string, unit float64, height int) (string, error) {
	ws, err := Bars(digits)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	total := 0
	for _, w := range ws {
		total += w
	}
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%d" viewBox="0 0 %d %d" preserveAspectRatio="none" shape-rendering="crispEdges">`,
		float64(total)*unit, height, total, height)
	x := 0
	for i, w := range ws {
		if i%2 == 0 {
			fmt.Fprintf(&b, `<rect x="%d" width="%d" height="%d"/>`, x, w, height)
		}
		x += w
	}
	b.WriteString(`</svg>`)
	return b.String(), nil
}

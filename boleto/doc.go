// Package boleto builds FEBRABAN boletos: the 44-digit barcode, its 47-digit
// digitable line (three mod-10 field check digits and the mod-11 general
// check digit), the due-date factor (with the February 2025 reset) and the
// Interleaved 2 of 5 bars the barcode is printed with. No I/O.
package boleto

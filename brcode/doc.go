// Package brcode encodes and decodes Pix BR Codes: the EMV Merchant
// Presented Mode strings behind Pix QR codes and "Pix copia e cola". Banks
// reject a code with a wrong length prefix or checksum outright, so the
// encoder validates everything it emits and the parser is strict.
package brcode

package document

// Format writes a CPF or CNPJ the way Brazilians read it (000.000.000-00,
// 00.000.000/0000-00, an alphanumeric CNPJ alike); anything else is
// returned as its digits.
func Format(s string) string {
	d := Digits(s)
	switch len(d) {
	case 11:
		return d[:3] + "." + d[3:6] + "." + d[6:9] + "-" + d[9:]
	case 14:
		return d[:2] + "." + d[2:5] + "." + d[5:8] + "/" + d[8:12] + "-" + d[12:]
	}
	return d
}

// Mask is a document as a page shows a person's: a CPF with its first
// three and last two digits hidden (***.982.247-**, the way Brazilian
// receipts print it); a CNPJ, a company's public identifier, in full.
func Mask(s string) string {
	d := Digits(s)
	if len(d) == 11 {
		return "***." + d[3:6] + "." + d[6:9] + "-**"
	}
	return Format(d)
}

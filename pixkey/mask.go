package pixkey

import "strings"

// Mask renders a key for receipts and logs while hiding enough of it that
// the owner's identity cannot be read back. A key that does not validate
// is hidden entirely, since there is no safe partial form of it.
func Mask(t Type, key string) string {
	k, err := Normalize(t, key)
	if err != nil {
		return "***"
	}
	switch t {
	case CPF:
		// The middle six digits, as the Receita Federal publishes them.
		return "***." + k[3:6] + "." + k[6:9] + "-**"
	case CNPJ:
		return "**." + k[2:5] + "." + k[5:8] + "/" + k[8:12] + "-**"
	case EMAIL:
		at := strings.LastIndexByte(k, '@')
		local, domain := k[:at], k[at:]
		keep := 2
		if len(local) <= 2 {
			keep = 1
		}
		return local[:keep] + "***" + domain
	case TELEFONE:
		ddd, num := k[3:5], k[5:]
		return "+55 " + ddd + " " + num[:1] + strings.Repeat("*", len(num)-5) + "-" + num[len(num)-4:]
	case CHAVE_ALEATORIA:
		return k[:8] + "…"
	}
	return "***"
}

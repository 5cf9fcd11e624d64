package document

import "testing"

func TestDigits(t *testing.T) {
	tests := []struct{ in, want string }{
		{"529.982.247-25", "52998224725"},
		{"11.222.333/0001-81", "11222333000181"},
		{"12.abc.345/01de-35", "12ABC34501DE35"},
		{" 529 982 247 25\t", "52998224725"},
		{"529_982", "529_982"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Digits(tt.in); got != tt.want {
			t.Errorf("Digits(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestValidCPF(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"529.982.247-25", true},
		{"52998224725", true},
		{"111.444.777-35", true},
		{"111 444 777 35", true},
		{"529.982.247-24", false}, // last check digit changed
		{"529.982.247-15", false}, // first check digit changed
		{"529.982.248-25", false}, // body digit changed
		{"111.444.777-36", false},
		{"111.111.111-11", false}, // passes mod 11 but never issued
		{"000.000.000-00", false},
		{"5299822472", false},
		{"529982247255", false},
		{"5299822472A", false},
		{"52998224725x", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := ValidCPF(tt.in); got != tt.want {
			t.Errorf("ValidCPF(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestValidCNPJ(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"11.222.333/0001-81", true},
		{"11222333000181", true},
		{"11.444.777/0001-61", true},
		{"12.ABC.345/01DE-35", true}, // Receita Federal's alphanumeric example
		{"12.abc.345/01de-35", true},
		{"12ABC34501DE35", true},
		{"11.222.333/0001-82", false}, // last check digit changed
		{"11.222.333/0001-71", false}, // first check digit changed
		{"11.222.333/0002-81", false}, // body digit changed
		{"11.444.777/0001-62", false},
		{"12.ABC.345/01DE-36", false},
		{"12.ABD.345/01DE-35", false}, // letter changed
		{"12.ABC.345/01DE-3A", false}, // check digits must be numeric
		{"12.AB#.345/01DE-35", false},
		{"00.000.000/0000-00", false},
		{"11.111.111/1111-11", false},
		{"1122233300018", false},
		{"112223330001811", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := ValidCNPJ(tt.in); got != tt.want {
			t.Errorf("ValidCNPJ(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		in       string
		wantNorm string
		wantKind Kind
		wantOK   bool
	}{
		{"529.982.247-25", "52998224725", KindCPF, true},
		{"529.982.247-24", "52998224724", KindCPF, false},
		{"11.222.333/0001-81", "11222333000181", KindCNPJ, true},
		{"12.abc.345/01de-35", "12ABC34501DE35", KindCNPJ, true},
		{"11.222.333/0001-80", "11222333000180", KindCNPJ, false},
		{"123", "123", "", false},
	}
	for _, tt := range tests {
		norm, kind, ok := Classify(tt.in)
		if norm != tt.wantNorm || kind != tt.wantKind || ok != tt.wantOK {
			t.Errorf("Classify(%q) = %q, %q, %v; want %q, %q, %v", tt.in, norm, kind, ok, tt.wantNorm, tt.wantKind, tt.wantOK)
		}
	}
}

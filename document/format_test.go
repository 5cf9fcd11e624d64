package document

import "testing"

func TestFormatAndMask(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, format, mask string }{
		{"52998224725", "529.982.247-25", "***.982.247-**"},
		{"529.982.247-25", "529.982.247-25", "***.982.247-**"},
		{"11222333000181", "11.222.333/0001-81", "11.222.333/0001-81"},
		{"12.ABC.345/01DE-35", "12.ABC.345/01DE-35", "12.ABC.345/01DE-35"},
		{"123", "123", "123"},
	} {
		if got := Format(c.in); got != c.format {
			t.Errorf("Format(%q) = %q, want %q", c.in, got, c.format)
		}
		if got := Mask(c.in); got != c.mask {
			t.Errorf("Mask(%q) = %q, want %q", c.in, got, c.mask)
		}
	}
}

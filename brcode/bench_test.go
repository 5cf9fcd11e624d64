package brcode

import "testing"

func BenchmarkEncode(b *testing.B) {
	b.ReportAllocs()
	p := Payload{Key: "123e4567-e12b-12d1-a456-426655440000", Amount: 15025, MerchantName: "Loja Demo",
		MerchantCity: "SAO PAULO", TxID: "019f0c0de00007000800000000000001"}
	for b.Loop() {
		if _, err := Encode(p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	s, _ := Encode(Payload{Key: "123e4567-e12b-12d1-a456-426655440000", Amount: 15025, MerchantName: "Loja Demo",
		MerchantCity: "SAO PAULO", TxID: "019f0c0de00007000800000000000001"})
	for b.Loop() {
		if _, err := Parse(s); err != nil {
			b.Fatal(err)
		}
	}
}

package crypto

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math/big"
	"strconv"
	"strings"

	"golang.org/x/crypto/sha3"
)

// Address checks of the crypto currencies Jangada pays out to, each with
// its network's checksum, so that a mistyped address is refused before any
// money moves: Bitcoin base58check (P2PKH, P2SH) and bech32/bech32m
// (segwit v0, taproot), Ethereum EIP-55 when the address is mixed case,
// XRP Ledger base58check in Ripple's alphabet. The encoders make the
// sandbox's deposit addresses (CryptoAddressFor).

const (
	bitcoinAlphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	rippleAlphabet  = "rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz"
	bech32Charset   = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
	bech32Const     = 1
	bech32mConst    = 0x2bc830a3
)

// base58Decode decodes s in alphabet (leading first-letters are zero bytes).
func base58Decode(s, alphabet string) ([]byte, bool) {
	n := new(big.Int)
	radix := big.NewInt(58)
	for _, r := range s {
		i := strings.IndexRune(alphabet, r)
		if i < 0 {
			return nil, false
		}
		n.Mul(n, radix).Add(n, big.NewInt(int64(i)))
	}
	zeros := 0
	for zeros < len(s) && s[zeros] == alphabet[0] {
		zeros++
	}
	return append(make([]byte, zeros), n.Bytes()...), true
}

// base58Encode is base58Decode's inverse.
func base58Encode(b []byte, alphabet string) string {
	n := new(big.Int).SetBytes(b)
	radix, mod := big.NewInt(58), new(big.Int)
	var out []byte
	for n.Sign() > 0 {
		n.DivMod(n, radix, mod)
		out = append(out, alphabet[mod.Int64()])
	}
	for _, c := range b {
		if c != 0 {
			break
		}
		out = append(out, alphabet[0])
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

func checksum4(b []byte) []byte {
	first := sha256.Sum256(b)
	second := sha256.Sum256(first[:])
	return second[:4]
}

// base58Check decodes a 25-byte base58check address and returns its version
// byte when the checksum holds.
func base58Check(s, alphabet string) (byte, bool) {
	b, ok := base58Decode(s, alphabet)
	if !ok || len(b) != 25 || !bytes.Equal(checksum4(b[:21]), b[21:]) {
		return 0, false
	}
	return b[0], true
}

func base58CheckEncode(version byte, payload []byte, alphabet string) string {
	b := append([]byte{version}, payload...)
	return base58Encode(append(b, checksum4(b)...), alphabet)
}

func bech32Polymod(values []byte) uint32 {
	gen := [5]uint32{0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3}
	chk := uint32(1)
	for _, v := range values {
		top := chk >> 25
		chk = (chk&0x1ffffff)<<5 ^ uint32(v)
		for i := range 5 {
			if (top>>i)&1 == 1 {
				chk ^= gen[i]
			}
		}
	}
	return chk
}

func bech32HRPExpand(hrp string) []byte {
	out := make([]byte, 0, 2*len(hrp)+1)
	for i := range len(hrp) {
		out = append(out, hrp[i]>>5)
	}
	out = append(out, 0)
	for i := range len(hrp) {
		out = append(out, hrp[i]&31)
	}
	return out
}

// convertBits regroups bits (8→5 with padding, 5→8 without).
func convertBits(data []byte, from, to uint, pad bool) ([]byte, bool) {
	var acc, bits uint
	var out []byte
	maxv := uint(1)<<to - 1
	for _, v := range data {
		if uint(v)>>from != 0 {
			return nil, false
		}
		acc = acc<<from | uint(v)
		bits += from
		for bits >= to {
			bits -= to
			out = append(out, byte(acc>>bits&maxv))
		}
	}
	if pad {
		if bits > 0 {
			out = append(out, byte(acc<<(to-bits)&maxv))
		}
	} else if bits >= from || acc<<(to-bits)&maxv != 0 {
		return nil, false
	}
	return out, true
}

// segwitAddress checks a bech32 (witness v0) or bech32m (v1+) address of
// the human-readable part hrp (BIP-173, BIP-350).
func segwitAddress(s, hrp string) bool {
	if len(s) > 90 || (strings.ToLower(s) != s && strings.ToUpper(s) != s) {
		return false
	}
	s = strings.ToLower(s)
	sep := strings.LastIndexByte(s, '1')
	if sep < 1 || s[:sep] != hrp || len(s)-sep-1 < 7 {
		return false
	}
	data := make([]byte, 0, len(s)-sep-1)
	for i := sep + 1; i < len(s); i++ {
		v := strings.IndexByte(bech32Charset, s[i])
		if v < 0 {
			return false
		}
		data = append(data, byte(v))
	}
	poly := bech32Polymod(append(bech32HRPExpand(hrp), data...))
	version := data[0]
	program, ok := convertBits(data[1:len(data)-6], 5, 8, false)
	switch {
	case !ok || version > 16 || len(program) < 2 || len(program) > 40:
		return false
	case version == 0:
		return poly == bech32Const && (len(program) == 20 || len(program) == 32)
	}
	return poly == bech32mConst
}

// segwitEncode makes the bech32 witness v0 address of a 20-byte key hash.
func segwitEncode(hrp string, program []byte) string {
	five, _ := convertBits(program, 8, 5, true)
	data := append([]byte{0}, five...)
	poly := bech32Polymod(append(append(bech32HRPExpand(hrp), data...), 0, 0, 0, 0, 0, 0)) ^ bech32Const
	var b strings.Builder
	b.WriteString(hrp + "1")
	for _, v := range data {
		b.WriteByte(bech32Charset[v])
	}
	for i := range 6 {
		b.WriteByte(bech32Charset[(poly>>(5*(5-i)))&31])
	}
	return b.String()
}

// bitcoinAddress checks a mainnet Bitcoin address: P2PKH ("1…") or P2SH
// ("3…") in base58check, or segwit ("bc1…") in bech32/bech32m.
func bitcoinAddress(s string) bool {
	if strings.HasPrefix(strings.ToLower(s), "bc1") {
		return segwitAddress(s, "bc")
	}
	v, ok := base58Check(s, bitcoinAlphabet)
	return ok && (v == 0x00 || v == 0x05)
}

// eip55 is the mixed-case checksum form of a 40-hex-digit address.
func eip55(hexAddr string) string {
	lower := strings.ToLower(hexAddr)
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte(lower))
	sum := h.Sum(nil)
	out := []byte(lower)
	for i, c := range out {
		nibble := sum[i/2] >> 4
		if i%2 == 1 {
			nibble = sum[i/2] & 0x0f
		}
		if c >= 'a' && c <= 'f' && nibble >= 8 {
			out[i] = c - 'a' + 'A'
		}
	}
	return "0x" + string(out)
}

// ethereumAddress checks "0x" and 40 hex digits; a mixed-case address must
// carry its EIP-55 checksum (all lower or all upper case carries none).
func ethereumAddress(s string) bool {
	if len(s) != 42 || !strings.HasPrefix(s, "0x") {
		return false
	}
	body := s[2:]
	if _, err := hex.DecodeString(body); err != nil {
		return false
	}
	if body == strings.ToLower(body) || body == strings.ToUpper(body) {
		return true
	}
	return eip55(body) == s
}

// rippleAddress checks a classic XRP Ledger address ("r…", base58check in
// Ripple's alphabet, account id version 0).
func rippleAddress(s string) bool {
	v, ok := base58Check(s, rippleAlphabet)
	return ok && v == 0x00
}

// destinationTag checks an XRP destination tag: an unsigned 32-bit integer.
func destinationTag(s string) bool {
	_, err := strconv.ParseUint(s, 10, 32)
	return err == nil
}

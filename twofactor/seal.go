package twofactor

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
)

// Sealer keeps TOTP secrets at rest: a secret cannot be hashed (the server
// computes its codes), so it is stored encrypted with AES-256-GCM under a
// key derived from the deployment's key, bound to its owner's id (a sealed
// secret copied to another row does not open there).
type Sealer struct{ aead cipher.AEAD }

// ErrSealed is the refusal of a sealed secret that does not open.
var ErrSealed = errors.New("twofactor: sealed secret does not open")

// NewSealer derives the sealing key from key (the payload key's bytes,
// or any secret of at least 16 bytes).
func NewSealer(key []byte) (*Sealer, error) {
	if len(key) < 16 {
		return nil, errors.New("twofactor: sealing key shorter than 16 bytes")
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte("jangada totp secret"))
	block, err := aes.NewCipher(m.Sum(nil))
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

// Seal encrypts secret for owner.
func (s *Sealer) Seal(owner, secret string) string {
	nonce := make([]byte, s.aead.NonceSize())
	_, _ = rand.Read(nonce)
	return base64.RawStdEncoding.EncodeToString(s.aead.Seal(nonce, nonce, []byte(secret), []byte(owner)))
}

// Open decrypts what Seal made for owner.
func (s *Sealer) Open(owner, sealed string) (string, error) {
	b, err := base64.RawStdEncoding.DecodeString(sealed)
	if err != nil || len(b) < s.aead.NonceSize() {
		return "", ErrSealed
	}
	n := s.aead.NonceSize()
	out, err := s.aead.Open(nil, b[:n], b[n:], []byte(owner))
	if err != nil {
		return "", ErrSealed
	}
	return string(out), nil
}

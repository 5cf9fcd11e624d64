package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
)

// NewAccount creates a merchant account with default features and fees.
func NewAccount(ctx context.Context, d *sqlx.DB, name, email, document string) (domain.Account, error) {
	return db.CreateAccount(ctx, d, accountOf(domain.NewAccount{Name: name, Email: email, Document: document}))
}

// accountOf is a new account with default features and fees, unverified.
func accountOf(n domain.NewAccount) domain.Account {
	return domain.Account{
		ID: compactID("acc_"), Name: n.Name, Email: strings.TrimSpace(n.Email), Document: n.Document,
		Status: domain.AccountActive, Features: domain.DefaultFeatures(), Fees: domain.DefaultFees(),
		PixKey: domain.NewID(""),
	}
}

// KeyHash is the stored form of a key secret.
func KeyHash(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// NewKey issues a key for the account and returns it with its secret, which
// is never stored: only its SHA-256 (the secret has 160 random bits, so a
// fast hash is safe and keeps authentication cheap).
func NewKey(ctx context.Context, d *sqlx.DB, accountID string, spec domain.NewKey) (domain.APIKey, string, error) {
	b := make([]byte, 20)
	rand.Read(b)
	secret := "jgd_live_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
	if spec.RateLimitPerMinute == 0 {
		spec.RateLimitPerMinute = 100
	}
	k, err := db.CreateKey(ctx, d, domain.APIKey{
		ID: compactID("key_"), AccountID: accountID, Name: spec.Name, Prefix: secret[:13],
		Permissions: spec.Permissions, IPAllowlist: spec.IPAllowlist, RateLimitPerMinute: spec.RateLimitPerMinute,
	}, KeyHash(secret))
	return k, secret, err
}

// compactID is a fresh id without hyphens, the form of account and key ids.
func compactID(prefix string) string { return prefix + strings.ReplaceAll(domain.NewID(""), "-", "") }

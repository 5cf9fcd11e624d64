package main

import (
	"os"
	"path/filepath"
	"strings"
)

// The dev secrets `jangada dev` keeps in JANGADA_DATA_DIR, so that a restart
// keeps them: the payload key (histories it sealed stay readable) and the
// admin token (what an operator copied still works, and `jangada admin`
// finds it without JANGADA_ADMIN_TOKEN).
const (
	payloadKeyFile = "payload.key"
	adminTokenFile = "admin.token"
)

// readDevSecret is the secret kept in dataDir/name, or "" if there is none.
func readDevSecret(dataDir, name string) string {
	b, err := os.ReadFile(filepath.Join(dataDir, name))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// devSecret is the secret kept in dataDir/name, made by make and written
// (mode 0600) on first use.
func devSecret(dataDir, name string, make func() string) (string, error) {
	if s := readDevSecret(dataDir, name); s != "" {
		return s, nil
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return "", err
	}
	s := make()
	return s, os.WriteFile(filepath.Join(dataDir, name), []byte(s+"\n"), 0o600)
}

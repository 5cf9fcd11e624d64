package processor

import (
	"context"
	"crypto/rand"
	"strings"
	"time"

	"github.com/jangada/jangada/brcode"
	"github.com/jangada/jangada/domain"
)

// SandboxISPB is the participant code the simulator puts in end-to-end ids.
const SandboxISPB = "99999908"

// Sandbox simulates the processor and the PIX network in process.
type Sandbox struct {
	City string
}

// NewSandbox returns the simulator.
func NewSandbox() *Sandbox { return &Sandbox{City: "SAO PAULO"} }

// NewCharge builds a real BR Code for the charge: the txid is the charge id
// without hyphens, so the payload identifies the charge on its own.
func (s *Sandbox) NewCharge(_ context.Context, r ChargeRequest) (ChargeQR, error) {
	code, err := brcode.Encode(brcode.Payload{
		Key:          r.MerchantKey,
		Amount:       r.Amount,
		MerchantName: r.MerchantName,
		MerchantCity: s.City,
		TxID:         TxID(r.ID),
	})
	if err != nil {
		return ChargeQR{}, err
	}
	return ChargeQR{ReferenceID: "sbx_" + TxID(r.ID)[:20], CopyPaste: code}, nil
}

// TxID derives a charge's BR Code txid (32 alphanumerics) from its id.
func TxID(id string) string { return strings.ReplaceAll(id, "-", "") }

// Deposit simulates the payer paying the QR: the notice the processor sends.
func (s *Sandbox) Deposit(payer *domain.Party, at time.Time) ChargeNotice {
	return ChargeNotice{Outcome: OutcomePaid, Payer: payer, EndToEndID: EndToEndID(SandboxISPB, at), At: at}
}

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// EndToEndID builds a PIX end-to-end id: E, the 8-digit ISPB, yyyyMMddHHmm
// in UTC and 11 random alphanumerics (32 characters).
func EndToEndID(ispb string, at time.Time) string {
	b := make([]byte, 11)
	rand.Read(b)
	for i := range b {
		b[i] = alnum[int(b[i])%len(alnum)]
	}
	return "E" + ispb + at.UTC().Format("200601021504") + string(b)
}

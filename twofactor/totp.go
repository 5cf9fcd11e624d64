package twofactor

import (
	"crypto/subtle"
	"errors"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

// Period is a TOTP step; Skew is how many steps a code may be off, either way.
const (
	Period = 30 * time.Second
	Skew   = 1
)

// ErrCode is the refusal of a wrong, stale or replayed code.
var ErrCode = errors.New("twofactor: wrong or used code")

// Enrollment is a new secret to show the user: typed (Secret) or scanned
// (URI, an otpauth://totp/… URI, drawn as a QR code).
type Enrollment struct {
	Secret string
	URI    string
}

// NewSecret makes a TOTP secret for account (an e-mail) at issuer.
func NewSecret(issuer, account string) (Enrollment, error) {
	k, err := totp.Generate(totp.GenerateOpts{Issuer: issuer, AccountName: account, Period: uint(Period / time.Second)})
	if err != nil {
		return Enrollment{}, err
	}
	return Enrollment{Secret: k.Secret(), URI: k.URL()}, nil
}

// Verify checks code against secret at now and answers the step it
// belongs to, which the caller stores: a code of a step not after lastStep
// (the last one accepted) is refused, so a code seen once cannot be used
// again inside its window.
func Verify(secret, code string, now time.Time, lastStep int64) (int64, error) {
	if len(code) != 6 {
		return 0, ErrCode
	}
	step := now.Unix() / int64(Period/time.Second)
	for d := int64(-Skew); d <= Skew; d++ {
		s := step + d
		want, err := totp.GenerateCodeCustom(secret, time.Unix(s*int64(Period/time.Second), 0),
			totp.ValidateOpts{Period: uint(Period / time.Second), Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
		if err != nil {
			return 0, ErrCode
		}
		if subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			if s <= lastStep {
				return 0, ErrCode
			}
			return s, nil
		}
	}
	return 0, ErrCode
}

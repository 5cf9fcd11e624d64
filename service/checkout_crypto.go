package service

import (
	"context"
	"errors"

	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/checkout"
	"github.com/jangada/jangada/domain/crypto"
	"github.com/jangada/jangada/money"
	"github.com/jangada/jangada/qr"
)

// A session is paid through one payment of its own, by method: an ordinary
// PIX charge (Charges.Create) or a crypto deposit (Crypto.CreateDeposit),
// each owned by the session (activities.OwnerCheckout), so that the
// payment's own transitions pay or expire it (activities.CheckoutChargeMoved)
// and its own workflow's timer is the session's expiry.

// CheckoutCrypto is what a CRYPTO session's payer sends: the deposit's own
// address (and destination tag for a memo currency) and its amount in the
// coin at the quoted rate (BRL per coin).
type CheckoutCrypto struct {
	Address     string
	ExtraID     string
	PayCurrency string
	PayAmount   domain.CryptoAmount
	Rate        money.Cents
}

// sessionPaymentID is the id of the session's payment: the id its use case
// derives from the Idempotency-Key "checkout <sessionId>" for a payment the
// session owns (ownedID), so that every attempt of the session finds the
// one payment.
func sessionPaymentID(accountID, sessionID, method string) string {
	owner := &domain.ChargeOwner{Kind: activities.OwnerCheckout, ID: sessionID}
	if method == checkout.MethodCrypto {
		return ownedID("", accountID, "crypto-deposit", "checkout "+sessionID, owner)
	}
	return ownedID("", accountID, "charge", "checkout "+sessionID, owner)
}

// sessionPaymentType is the transaction type of a session's payment.
func sessionPaymentType(method string) string {
	if method == checkout.MethodCrypto {
		return domain.TypeCryptoIn
	}
	return domain.TypePixIn
}

// pay makes the session's payment by its method (or finds it) and answers
// with the session and what its payer needs.
func (s *Checkouts) pay(ctx context.Context, acct domain.Account, linkName string, sess checkout.CheckoutSession, coin crypto.CryptoCurrency) (CheckoutResult, error) {
	if sess.Method == checkout.MethodCrypto {
		return s.deposit(ctx, acct, linkName, sess, coin)
	}
	return s.charge(ctx, acct, linkName, sess)
}

// deposit makes the CRYPTO session's deposit: its amount in BRL, quoted in
// coin, expiring with the session. A deposit that cannot be made expires
// the session at once, as a charge does.
func (s *Checkouts) deposit(ctx context.Context, acct domain.Account, linkName string, sess checkout.CheckoutSession, coin crypto.CryptoCurrency) (CheckoutResult, error) {
	keyID := ""
	if sess.APIKeyID != nil {
		keyID = *sess.APIKeyID
	}
	t, err := s.Crypto.CreateDeposit(ctx, acct, domain.APIKey{ID: keyID}, crypto.NewCryptoDeposit{
		IdempotencyKey: "checkout " + sess.ID, Amount: sess.Amount, Currency: coin, Description: chargeDescription(linkName),
		Owner: &domain.ChargeOwner{Kind: activities.OwnerCheckout, ID: sess.ID}, ExpiresAt: sess.ExpiresAt.Time,
	})
	if err != nil {
		if retryable(ctx, err) { // the retry's to finish (Checkouts.earlier makes its payment)
			return CheckoutResult{}, err
		}
		if xerr := db.ExpireSession(context.WithoutCancel(ctx), s.DB, sess.ID); xerr != nil {
			err = errors.Join(err, xerr)
		}
		return CheckoutResult{}, err
	}
	return CheckoutResult{Session: sess, Crypto: checkoutCrypto(t)}, nil
}

// checkoutCrypto is what the payer of a session's deposit sends.
func checkoutCrypto(t domain.Transaction) *CheckoutCrypto {
	c := t.Details.V.Crypto
	if c == nil {
		return nil
	}
	return &CheckoutCrypto{Address: c.Address, ExtraID: c.ExtraID, PayCurrency: c.PayCurrency, PayAmount: crypto.PayAmount(*c), Rate: c.Rate}
}

// result is a stored session with its payment's code or address. A
// session whose payment is not stored yet (its checkout still under way)
// has none.
func (s *Checkouts) result(ctx context.Context, sess checkout.CheckoutSession) (CheckoutResult, error) {
	r := CheckoutResult{Session: sess}
	t, err := db.TransactionByID(ctx, s.DB, sess.TransactionID, sessionPaymentType(sess.Method))
	if errors.Is(err, domain.ErrNotFound) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	if sess.Method == checkout.MethodCrypto {
		r.Crypto = checkoutCrypto(t)
		return r, nil
	}
	if t.CopyPaste != nil {
		r.CopyPaste = *t.CopyPaste
		if r.QRCodeBase64, err = qr.DataURI(r.CopyPaste); err != nil {
			return r, err
		}
	}
	return r, nil
}

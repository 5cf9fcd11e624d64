package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/jangada/jangada/db"
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/dashboard"
	"github.com/jangada/jangada/domain/subaccount"
	"github.com/jangada/jangada/twofactor"
)

// Dashboard is the merchant dashboard's use cases: its users (sign-up,
// invitations, login, second factor), what they manage (keys, webhook
// endpoints) and what they read (money, payments, the audit log). Every
// change is recorded in the account's audit log (docs/dashboard.md).
type Dashboard struct {
	DB *sqlx.DB
	// Throttle counts failed logins per e-mail and per address, as the
	// portal's does; FailuresPerEmail and FailuresPerAddress are its
	// budgets (0 takes the defaults).
	Throttle                             LoginThrottle
	FailuresPerEmail, FailuresPerAddress int
	// Signups counts sign-ups per address over an hour;
	// SignupsPerAddress is its budget (0 takes the default).
	Signups           LoginThrottle
	SignupsPerAddress int
	// Sealer keeps TOTP secrets at rest.
	Sealer *twofactor.Sealer
	// PublicURL makes an invitation's link absolute.
	PublicURL string
	// Webhooks manages the account's endpoints and their deliveries.
	Webhooks *Webhooks
	// KeyRevoked closes a revoked key's WebSocket connections in this
	// process at once (the others hear of it through PostgreSQL).
	KeyRevoked func(keyID string)
	// RateLimitPerMinute is a new key's default budget.
	RateLimitPerMinute int
	// Now is the clock of the codes and the invitations; nil is time.Now.
	Now func() time.Time
}

// DefaultSignupsPerAddress is the sign-ups one address may make in an
// hour (CONTRACTS.md).
const DefaultSignupsPerAddress = 20

// DashboardUser is who a dashboard session stands for: the user, its
// account and the epoch the session holds.
type DashboardUser struct {
	User    dashboard.User
	Account domain.Account
	Epoch   int64
	// Address is where the request came from (the audit log's "from").
	Address string
}

// DashboardLogin is a login form with where it came from.
type DashboardLogin struct {
	Email, Password, Code string
	Address, UserAgent    string
}

// Invitation is a user invited: the link that sets its password, shown
// once (only its hash is kept).
type Invitation struct {
	User dashboard.User
	URL  string
}

func (s *Dashboard) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Login checks a user's e-mail, password and, once enrolled, code, with
// the portal's throttles and records (loginGate).
func (s *Dashboard) Login(ctx context.Context, in DashboardLogin) (DashboardUser, error) {
	email := strings.ToLower(strings.TrimSpace(in.Email))
	attempt := db.LoginAttempt{Email: truncate(email, 320), Address: in.Address, UserAgent: truncate(in.UserAgent, 512)}
	var u DashboardUser
	gate := loginGate{area: "dashboard", throttle: s.Throttle, perEmail: s.FailuresPerEmail, perAddress: s.FailuresPerAddress}
	err := gate.run(ctx, email, in.Address, func() error {
		var err error
		u, err = s.check(ctx, email, in)
		if u.User.ID != "" {
			attempt.UserID = &u.User.ID
		}
		return err
	}, func(outcome string) error {
		attempt.Outcome = outcome
		return db.DashboardLogins.RecordAttempt(ctx, s.DB, attempt, s.now(), subaccount.LoginSucceeded)
	})
	if err != nil {
		return DashboardUser{}, err
	}
	u.Address = in.Address
	return u, s.audit(ctx, u, "user.login", u.User.ID)
}

// check is Login's verdict on the credentials; the user is set when the
// e-mail names one, whatever the verdict.
func (s *Dashboard) check(ctx context.Context, email string, in DashboardLogin) (DashboardUser, error) {
	user, hash, secrets, err := db.UserLogin(ctx, s.DB, email)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return DashboardUser{}, err
	}
	if !passwordMatches(hash, in.Password) || err != nil {
		return DashboardUser{User: user}, ErrLoginFailed
	}
	u := DashboardUser{User: user, Epoch: user.Epoch}
	if user.TwoFactor {
		f := secondFactor{db: s.DB, logins: db.DashboardLogins, sealer: s.Sealer, now: s.now()}
		if err := f.take(ctx, user.ID, secrets, in.Code); err != nil {
			return u, err
		}
	}
	if u.Account, err = db.GetAccount(ctx, s.DB, user.AccountID); err != nil {
		return u, err
	}
	return u, nil
}

// User is the user of a session opened under epoch, or ErrSessionEnded
// when that session may not go on (the user removed, its password set
// again, its second factor enrolled by another session).
func (s *Dashboard) User(ctx context.Context, id string, epoch int64, address string) (DashboardUser, error) {
	user, err := db.GetUser(ctx, s.DB, "", id)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && user.Epoch != epoch) {
		return DashboardUser{}, ErrSessionEnded
	}
	if err != nil {
		return DashboardUser{}, err
	}
	acct, err := db.GetAccount(ctx, s.DB, user.AccountID)
	if err != nil {
		return DashboardUser{}, err
	}
	return DashboardUser{User: user, Account: acct, Epoch: epoch, Address: address}, nil
}

// Signup makes an unverified account and its owner, logged in; an
// address that made SignupsPerAddress sign-ups within the hour is
// refused (ThrottledError) before anything is checked.
func (s *Dashboard) Signup(ctx context.Context, in dashboard.Signup, address string) (DashboardUser, error) {
	limit, key := orDefault(s.SignupsPerAddress, DefaultSignupsPerAddress), "dashboard-signup:"+address
	if wait := s.Signups.Blocked(ctx, key, limit); wait > 0 {
		return DashboardUser{}, &ThrottledError{RetryAfter: wait}
	}
	s.Signups.Fail(ctx, key, limit) // every try counts, taken or refused
	hash, err := subaccount.HashPassword(in.Password)
	if err != nil {
		return DashboardUser{}, err
	}
	a := accountOf(in.Account)
	owner := dashboard.User{ID: compactID("usr_"), AccountID: a.ID, Email: in.Account.Email, Role: dashboard.RoleOwner}
	acct, user, err := db.Signup(ctx, s.DB, a, owner, hash)
	if err != nil {
		return DashboardUser{}, err
	}
	u := DashboardUser{User: user, Account: acct, Epoch: user.Epoch, Address: address}
	return u, s.audit(ctx, u, "account.signup", acct.ID)
}

// Invite adds a user to accountID with a link that sets its password,
// valid for dashboard.InviteValid. by is the user inviting (nil: an
// operator, through the admin API), who may grant only what its role
// allows (dashboard.CanGrant).
func (s *Dashboard) Invite(ctx context.Context, accountID string, by *DashboardUser, in dashboard.Invite) (Invitation, error) {
	if by != nil {
		if !dashboard.CanGrant(by.User.Role, in.Role) {
			return Invitation{}, domain.Forbidden("a %s cannot invite a user with the role %s", by.User.Role, in.Role)
		}
		accountID = by.Account.ID
	}
	acct, err := db.GetAccount(ctx, s.DB, accountID)
	if err != nil {
		return Invitation{}, err
	}
	token := newToken()
	expires := s.now().Add(dashboard.InviteValid)
	user, err := db.InsertUser(ctx, s.DB, dashboard.User{ID: compactID("usr_"), AccountID: acct.ID, Email: in.Email, Role: in.Role},
		nil, tokenHash(token), &expires)
	if err != nil {
		return Invitation{}, err
	}
	actor := DashboardUser{Account: acct, Address: "admin API"}
	if by != nil {
		actor = *by
	}
	return Invitation{User: user, URL: strings.TrimRight(s.PublicURL, "/") + "/dashboard/set-password/" + token},
		s.audit(ctx, actor, "user.invite", user.Email+" ("+user.Role+")")
}

// InviteLive reports whether the invitation's token still sets a
// password.
func (s *Dashboard) InviteLive(ctx context.Context, token string) (bool, error) {
	return db.InviteLive(ctx, s.DB, tokenHash(token), s.now())
}

// SetPassword sets the password of the invitation's user and spends the
// invitation; an unknown, used or expired one is not found.
func (s *Dashboard) SetPassword(ctx context.Context, token string, password *string) error {
	p, err := subaccount.Password("password", password)
	if err != nil {
		return err
	}
	hash, err := subaccount.HashPassword(p)
	if err != nil {
		return err
	}
	user, err := db.TakeInvite(ctx, s.DB, tokenHash(token), hash, s.now())
	if err != nil {
		return err
	}
	return db.Audit(ctx, s.DB, db.AuditEntry{AccountID: user.AccountID, UserID: &user.ID, Actor: user.Email,
		Action: "user.password_set", Target: user.ID})
}

// BeginTwoFactor makes a new TOTP secret for the user to enroll.
func (s *Dashboard) BeginTwoFactor(_ context.Context, u DashboardUser) (Enrollment, error) {
	return beginTOTP(s.Sealer, u.User.ID, u.User.Email)
}

// ConfirmTwoFactor enrolls the sealed secret once code is one of its
// codes (secondFactor.confirm): the recovery codes to show once and the
// epoch the enrolling session goes on under.
func (s *Dashboard) ConfirmTwoFactor(ctx context.Context, u DashboardUser, sealed, code string) ([]string, int64, error) {
	f := secondFactor{db: s.DB, logins: db.DashboardLogins, sealer: s.Sealer, now: s.now()}
	codes, epoch, err := f.confirm(ctx, u.User.ID, u.Epoch, sealed, code)
	if err != nil {
		return nil, 0, err
	}
	return codes, epoch, s.audit(ctx, u, "user.two_factor_enrolled", u.User.ID)
}

// Users is the account's users; only those who manage users see them.
func (s *Dashboard) Users(ctx context.Context, u DashboardUser) ([]dashboard.User, error) {
	if err := may(u, dashboard.ManageUsers); err != nil {
		return nil, err
	}
	return db.ListUsers(ctx, s.DB, u.Account.ID)
}

// RemoveUser removes one of the account's users (its sessions end at
// once); nobody removes themselves, and only an owner removes an owner.
func (s *Dashboard) RemoveUser(ctx context.Context, u DashboardUser, id string) error {
	if err := may(u, dashboard.ManageUsers); err != nil {
		return err
	}
	target, err := db.GetUser(ctx, s.DB, u.Account.ID, id)
	if err != nil {
		return err
	}
	if target.ID == u.User.ID || !dashboard.CanGrant(u.User.Role, target.Role) {
		return domain.Forbidden("a %s cannot remove this user", u.User.Role)
	}
	if err := db.RemoveUser(ctx, s.DB, u.Account.ID, id); err != nil {
		return err
	}
	return s.audit(ctx, u, "user.remove", target.Email)
}

// AuditLog is the account's latest 100 audit entries before the entry
// before (0: the newest).
func (s *Dashboard) AuditLog(ctx context.Context, u DashboardUser, before int64) ([]db.AuditEntry, error) {
	if err := may(u, dashboard.ReadAudit); err != nil {
		return nil, err
	}
	return db.AuditLog(ctx, s.DB, u.Account.ID, before, 100)
}

// may refuses what the user's role does not allow (403).
func may(u DashboardUser, action string) error {
	if !dashboard.Can(u.User.Role, action) {
		return domain.Forbidden("the role %s cannot do this", u.User.Role)
	}
	return nil
}

// audit appends what u did to the account's log.
func (s *Dashboard) audit(ctx context.Context, u DashboardUser, action, target string) error {
	e := db.AuditEntry{AccountID: u.Account.ID, Actor: u.User.Email, Action: action, Target: target, Address: u.Address}
	if u.User.ID != "" {
		e.UserID = &u.User.ID
	} else {
		e.Actor = "operator"
	}
	return db.Audit(ctx, s.DB, e)
}

// newToken is an invitation's token: 32 random bytes, hex.
func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// tokenHash is the stored form of a token.
func tokenHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

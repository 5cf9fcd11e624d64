package app

import (
	"log/slog"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/ratelimit"
	"github.com/jangada/jangada/service"
)

// budgets are a process's rate limits and caps: shared by every API
// process through Redis when JANGADA_REDIS_URL is set, this process's own
// otherwise (docs/security.md: the budgets).
type budgets struct {
	requests ratelimit.Counter
	logins   service.LoginThrottle
	signups  service.LoginThrottle
	slots    ratelimit.Slots
	close    func()
}

// newBudgets builds the budgets the configuration asks for.
func newBudgets(cfg config.Config) (budgets, error) {
	if cfg.RedisURL == "" {
		return budgets{requests: ratelimit.New(), logins: ratelimit.NewFailures(LoginWindow),
			signups: ratelimit.NewFailures(SignupWindow), slots: ratelimit.NewLocalSlots(), close: func() {}}, nil
	}
	r, err := ratelimit.NewRedis(cfg.RedisURL, cfg.APIReplicas, cfg.RedisTimeout)
	if err != nil {
		return budgets{}, err
	}
	if cfg.RedisPrefix != "" {
		r.Prefix = cfg.RedisPrefix
	}
	slots := ratelimit.NewSharedSlots(r)
	slog.Info("budgets shared through Redis", "replicas", r.Replicas, "timeout", r.Timeout)
	return budgets{requests: ratelimit.NewShared(r), logins: ratelimit.NewSharedFailures(r, LoginWindow),
		signups: ratelimit.NewSharedFailures(r, SignupWindow), slots: slots,
		close: func() { slots.Close(); _ = r.Close() }}, nil
}

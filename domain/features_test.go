package domain_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/jangada/jangada/domain"
)

// TestEveryFeatureReadsItsSwitch turns each switch of Features on alone
// and checks that exactly the feature of the same JSON name reads it (and
// the features that depend on it, as subaccountPix on subaccounts): a
// switch without a JSON name, or a rule reading another switch, fails.
func TestEveryFeatureReadsItsSwitch(t *testing.T) {
	t.Parallel()
	always := map[string]bool{domain.FeatureMED: true}
	needs := map[string]string{domain.FeatureSubaccountPix: domain.FeatureSubaccounts}
	ft := reflect.TypeFor[domain.Features]()
	names := map[string]bool{}
	for _, n := range domain.FeatureNames() {
		names[n] = true
	}
	for i := range ft.NumField() {
		field := ft.Field(i)
		name := field.Tag.Get("json")
		if !names[name] {
			t.Errorf("Features.%s (json %q) is not a feature by that name", field.Name, name)
			continue
		}
		var f domain.Features
		reflect.ValueOf(&f).Elem().Field(i).SetBool(true)
		if dep, ok := needs[name]; ok {
			b, _ := json.Marshal(map[string]bool{name: true, dep: true})
			_ = json.Unmarshal(b, &f)
		}
		for n := range names {
			want := n == name || always[n] || (needs[name] == n)
			if got := f.Enabled(n); got != want {
				t.Errorf("with only %s on: Enabled(%s) = %v, want %v", name, n, got, want)
			}
		}
	}
	fields := map[string]bool{}
	for i := range ft.NumField() {
		fields[ft.Field(i).Tag.Get("json")] = true
	}
	for n := range names {
		if !always[n] && !fields[n] {
			t.Errorf("feature %s is a feature without a switch in Features", n)
		}
	}
	if (domain.Features{}).Enabled("no-such-feature") {
		t.Error("an unknown feature is on")
	}
}

func TestRequire(t *testing.T) {
	t.Parallel()
	acct := domain.Account{Features: domain.Features{Crypto: true}}
	if err := acct.Require(domain.FeatureCrypto); err != nil {
		t.Fatalf("crypto on: %v", err)
	}
	err := acct.Require(domain.FeatureCreditBureau)
	wantForbidden(t, err)
}

func wantForbidden(t *testing.T, err error) {
	t.Helper()
	if err == nil || !errors.Is(err, domain.ErrForbidden) {
		t.Fatalf("Require of an off feature = %v, want ErrForbidden", err)
	}
}

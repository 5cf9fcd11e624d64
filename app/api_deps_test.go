package app

import (
	"reflect"
	"testing"

	"github.com/jangada/jangada/config"
	"github.com/jangada/jangada/dispatch"
	"github.com/jangada/jangada/ws"
)

// TestEveryUseCaseIsWired builds the use cases and the HTTP layer's Deps
// as New does and checks that every use case, hook and stream of Deps is
// set: a product whose handlers the app does not hand its use case would
// answer 500 on each of its routes.
func TestEveryUseCaseIsWired(t *testing.T) {
	b, err := newBudgets(config.Config{})
	if err != nil {
		t.Fatal(err)
	}
	a := &App{Hub: &ws.Hub{}, Watchers: &dispatch.Watchers{}, budgets: b}
	internal := a.useCases(nil)
	deps := a.apiDeps(nil, internal)
	optional := map[string]bool{"Config": true, "DB": true, "Temporal": true, "Logger": true}
	v, typ := reflect.ValueOf(deps), reflect.TypeOf(deps)
	for i := range typ.NumField() {
		name, f := typ.Field(i).Name, v.Field(i)
		if optional[name] {
			continue
		}
		switch f.Kind() {
		case reflect.Interface, reflect.Func, reflect.Pointer:
			if f.IsNil() || (f.Kind() == reflect.Interface && f.Elem().Kind() == reflect.Pointer && f.Elem().IsNil()) {
				t.Errorf("api.Deps.%s is not wired (app/api_deps.go)", name)
			}
		}
	}
}

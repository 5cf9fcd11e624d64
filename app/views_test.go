package app

import (
	"reflect"
	"testing"

	"github.com/jangada/jangada/domain"
)

// TestEveryDetailsBlockIsShown sets each product block of domain.Details
// on a record of every type with a registered view and checks that some
// view shows it: a product that adds its block (and its public fields)
// without registering its view from its own file would answer without
// them. The app links every product, so every view is registered here.
func TestEveryDetailsBlockIsShown(t *testing.T) {
	// Blocks the shared Public shows itself, and PIX automatic's, which
	// merchants read through its own routes, not the record.
	shared := map[string]bool{"Split": true, "Owner": true, "SecurityReview": true, "Refund": true, "PixAutomatic": true}
	dt := reflect.TypeFor[domain.Details]()
	for i := range dt.NumField() {
		f := dt.Field(i)
		if f.Type.Kind() != reflect.Pointer || f.Type.Elem().Kind() != reflect.Struct || shared[f.Name] {
			continue
		}
		shown := false
		for _, ty := range domain.ViewTypes() {
			bare := domain.Transaction{Type: ty, Status: domain.StatusPending}
			with := bare
			reflect.ValueOf(&with.Details.V).Elem().Field(i).Set(reflect.New(f.Type.Elem()))
			with.Details.Valid = true
			if !reflect.DeepEqual(bare.Public(""), with.Public("")) {
				shown = true
				break
			}
		}
		if !shown {
			t.Errorf("Details.%s is shown by no registered view (domain.RegisterView)", f.Name)
		}
	}
}

package domain_test

import (
	"testing"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/domaintest"
)

func TestOneOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		values   []string
		want     string
		wantErr  string // the message; "" = no error
	}{
		{name: "absent", in: "", values: []string{"A", "B"}},
		{name: "blank", in: "  ", values: []string{"A", "B"}},
		{name: "exact", in: "ACTIVE", values: []string{"ACTIVE", "INACTIVE"}, want: "ACTIVE"},
		{name: "lower and spaced", in: " inactive ", values: []string{"ACTIVE", "INACTIVE"}, want: "INACTIVE"},
		{name: "two values", in: "USED", values: []string{"ACTIVE", "INACTIVE"}, wantErr: "status must be ACTIVE or INACTIVE"},
		{name: "more values", in: "X", values: []string{"A", "B", "C"}, wantErr: "status must be one of A, B, C"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := domain.OneOf("status", tt.in, tt.values...)
			if tt.wantErr != "" {
				domaintest.WantFieldErr(t, err, domain.ErrInvalid, "status")
				if err.Error() != tt.wantErr {
					t.Fatalf("error %q, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("OneOf(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

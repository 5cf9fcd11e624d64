package devserver

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"
)

// ensureSearchAttributes registers the custom search attributes that the
// namespace does not have yet. A fresh store already got them offline in
// prepareStore; this covers attributes added to Options after the store was
// created. Only missing names are sent, because the server logs a warning for
// every already-existing one and we want restarts to be silent.
func ensureSearchAttributes(ctx context.Context, c client.Client, ns string, want map[string]enums.IndexedValueType) error {
	if len(want) == 0 {
		return nil
	}
	missing, err := missingSearchAttributes(ctx, c, ns, want)
	if err != nil || len(missing) == 0 {
		return err
	}
	_, err = c.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{
		Namespace:        ns,
		SearchAttributes: missing,
	})
	if err != nil {
		return fmt.Errorf("devserver: adding search attributes: %w", err)
	}
	// The frontend serves aliases from its namespace cache, refreshed every
	// few seconds; wait so callers can query the new names right away.
	for {
		missing, err = missingSearchAttributes(ctx, c, ns, want)
		if err != nil || len(missing) == 0 {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("devserver: search attributes %v not visible yet: %w", keys(missing), ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// missingSearchAttributes returns the wanted attributes the namespace lacks,
// and fails if one exists with another type: SQL visibility maps each alias
// to a typed column, so the type can never be changed in place.
func missingSearchAttributes(ctx context.Context, c client.Client, ns string, want map[string]enums.IndexedValueType) (map[string]enums.IndexedValueType, error) {
	resp, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: ns})
	if err != nil {
		return nil, fmt.Errorf("devserver: listing search attributes: %w", err)
	}
	have := resp.GetCustomAttributes()
	missing := map[string]enums.IndexedValueType{}
	var conflicts []string
	for name, typ := range want {
		got, ok := have[name]
		switch {
		case !ok:
			missing[name] = typ
		case got != typ:
			conflicts = append(conflicts, fmt.Sprintf("%s is %s, want %s", name, got, typ))
		}
	}
	if len(conflicts) > 0 {
		sort.Strings(conflicts)
		return nil, fmt.Errorf("devserver: search attribute type conflict in namespace %q (delete %s to reset): %s",
			ns, dbFileName, strings.Join(conflicts, "; "))
	}
	return missing, nil
}

func keys(m map[string]enums.IndexedValueType) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

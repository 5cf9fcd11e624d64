package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// jsonAt reads the value at a path of keys in a decoded document.
func jsonAt(t *testing.T, v any, keys ...string) any {
	t.Helper()
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("no %q at %v", k, keys)
		}
		v = m[k]
	}
	return v
}

func decodedDoc(t *testing.T, doc []byte) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// The fields that had no enum have the domain's list, each value once.
func TestOpenAPIEnumsAreTheDomainsLists(t *testing.T) {
	t.Parallel()
	d := decodedDoc(t, MerchantOpenAPI())
	body := func(path string) []string {
		return []string{"paths", path, "post", "requestBody", "content", "application/json", "schema", "properties"}
	}
	schemas := []string{"components", "schemas"}
	for _, c := range []struct {
		at   []string
		want []string
	}{
		{append(body("/billings/create"), "method", "enum"), []string{"BOLETO", "CARD_CREDIT", "CARD_DEBIT", "CARD_VOUCHER", "PIX"}},
		{append(body("/transfer-scheduled/create"), "triggerType", "enum"), []string{"ONCE", "RECURRING", "BALANCE_THRESHOLD"}},
		{append(body("/transfer-scheduled/create"), "payload", "properties", "method", "enum"), []string{"pix_padrao", "interna", "cripto"}},
		{append(body("/transfer-scheduled/create"), "recurrenceRule", "properties", "interval", "enum"), []string{"daily", "weekly", "monthly", "custom_days"}},
		{append(schemas, "Record", "properties", "triggerType", "enum"), []string{"once", "recurring", "balance_threshold"}},
		{append(schemas, "Record", "properties", "status", "enum"), []string{"active", "paused", "completed", "failed"}},
		{append(schemas, "PublicBilling", "properties", "status", "enum"), []string{"PENDING", "CONFIRMED", "RECEIVED", "OVERDUE", "CANCELED", "REFUNDED", "PARTIALLY_REFUNDED", "FAILED"}},
	} {
		got, _ := json.Marshal(jsonAt(t, d, c.at...))
		want, _ := json.Marshal(c.want)
		if string(got) != string(want) {
			t.Errorf("%s: enum %s, want %s", strings.Join(c.at, "."), got, want)
		}
	}
	for field, wants := range map[string][]string{"type": {"PIX_IN", "SUBACCOUNT_TRANSFER", "BILLING", "MED"}, "status": {"PENDING", "OPEN", "PAID"}} {
		enum, _ := jsonAt(t, d, append(schemas, "PublicTransaction", "properties", field, "enum")...).([]any)
		for _, v := range wants {
			if !slices.Contains(enum, any(v)) {
				t.Errorf("PublicTransaction.%s lacks %s: %v", field, v, enum)
			}
		}
	}
}

// No enum of either document lists a value twice in two cases, and a
// request's enum read in any case says so.
func TestOpenAPIEnumsListEachValueOnce(t *testing.T) {
	t.Parallel()
	for name, doc := range map[string][]byte{"merchant": MerchantOpenAPI(), "admin": AdminOpenAPI()} {
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch n := v.(type) {
			case map[string]any:
				if enum, ok := n["enum"].([]any); ok {
					seen := map[string]bool{}
					for _, e := range enum {
						s, _ := e.(string)
						if seen[strings.ToUpper(s)] {
							t.Errorf("%s %s: %q listed twice: %v", name, path, s, enum)
						}
						seen[strings.ToUpper(s)] = true
					}
				}
				for k, sub := range n {
					walk(path+"."+k, sub)
				}
			case []any:
				for _, sub := range n {
					walk(path, sub)
				}
			}
		}
		walk("", decodedDoc(t, doc))
	}
	status := jsonAt(t, decodedDoc(t, MerchantOpenAPI()), "paths", "/billings/create", "post", "requestBody", "content",
		"application/json", "schema", "properties", "method", "description")
	if status != "case-insensitive" {
		t.Errorf("billing method's description %v, want case-insensitive", status)
	}
}

// An enum is never a hand-kept tag: the schema reads the type's Enums.
func TestNoEnumTags(t *testing.T) {
	t.Parallel()
	tag := regexp.MustCompile("jsonschema:\"[^\"]*enum=")
	for _, dir := range []string{".", "../domain"} {
		_ = filepath.WalkDir(dir, func(path string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			src, err := os.ReadFile(path)
			if err == nil && tag.Match(src) {
				t.Errorf("%s has an enum= jsonschema tag: give the type an Enums method over the domain's list", path)
			}
			return err
		})
	}
}

// Each request enum is the one its Validate reads: a value outside it is
// refused with a 400 naming the field, each value inside is not refused
// for being outside it.
func TestRequestEnumsAreWhatValidateReads(t *testing.T) {
	t.Parallel()
	checked := 0
	for key, doc := range merchantDocs {
		if doc.Body == nil || doc.Example == nil {
			continue
		}
		sets := enumsOf(reflect.TypeOf(doc.Body))
		validate, ok := validatorOf(reflect.TypeOf(doc.Body))
		if len(sets) == 0 || !ok {
			continue
		}
		fields, err := exampleFields(doc.Example)
		if err != nil {
			t.Fatal(err)
		}
		for field, set := range sets {
			if _, sent := fields[field]; !sent || reflect.TypeOf(doc.Body).Kind() != reflect.Struct {
				continue
			}
			with := func(v any) error {
				f := map[string]json.RawMessage{}
				for k, raw := range fields {
					f[k] = raw
				}
				if isList(fields[field]) {
					v = []any{v}
				}
				f[field], _ = json.Marshal(v)
				return validate(f)
			}
			outside := with("NOT_A_VALUE")
			if !names(outside, field) {
				t.Errorf("%s: %s NOT_A_VALUE: %v, want a 400 naming it", key, field, outside)
				continue
			}
			for _, v := range set.Values {
				if err := with(v); err != nil && err.Error() == outside.Error() {
					t.Errorf("%s: %s %q refused as NOT_A_VALUE is: %v", key, field, v, err)
				}
			}
			checked++
		}
	}
	if checked < 10 {
		t.Fatalf("only %d enum fields checked", checked)
	}
}

func isList(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '[' }

// pixRail is refused by the server, so it is no field of any schema.
func TestOpenAPIHasNoPixRail(t *testing.T) {
	t.Parallel()
	if strings.Contains(string(MerchantOpenAPI()), `"pixRail"`) {
		t.Fatal("the document names pixRail, an internal field a client must not send")
	}
}

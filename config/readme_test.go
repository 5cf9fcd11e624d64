package config

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// The README's configuration table names every variable the processes
// read, so a setting is never known only to its code.
func TestReadmeListsEveryVariable(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeOf(Config{})
	for i := range typ.NumField() {
		name := typ.Field(i).Tag.Get("envconfig")
		if name == "" {
			continue
		}
		if !strings.Contains(string(readme), "`JANGADA_"+name+"`") {
			t.Errorf("README.md does not list JANGADA_%s (config.Config.%s)", name, typ.Field(i).Name)
		}
	}
}

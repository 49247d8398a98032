package golangci

import (
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/soacgen/soacgen/analyzer/soacvet"
	"github.com/soacgen/soacgen/rewrite/stale"
)

// TestRegistered checks that importing the package registers the plugin
// under the name .golangci.yml uses, with soacvet as its analyzer and type
// information as its load mode.
func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin("soacvet")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil)
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || as[0] != stale.Vet {
		t.Errorf("BuildAnalyzers = %v, want [stale.Vet] (soacvet's analyzer and the stale analyzer)", as)
	}
	if m := p.GetLoadMode(); m != register.LoadModeTypesInfo {
		t.Errorf("GetLoadMode = %q, want %q", m, register.LoadModeTypesInfo)
	}
}

// TestSettings checks that the settings reach the analyzer's flags and
// that bad settings are errors naming what is wrong.
func TestSettings(t *testing.T) {
	flags := soacvet.Analyzer.Flags
	defer func() {
		flags.Set("categories", "all")
		flags.Set("fuse.gas", "0")
	}()
	for _, tc := range []struct {
		name       string
		conf       any
		categories string // the -categories value after BuildAnalyzers
		gas        string
		err        string // substring of New's error; "" for none
	}{
		{"none", nil, "all", "0", ""},
		{"empty", map[string]any{}, "all", "0", ""},
		{"categories", map[string]any{"categories": []any{"stale", "unfused"}}, "unfused,stale", "0", ""},
		{"fallback", map[string]any{"categories": []any{"fallback", "stale"}}, "stale,fallback", "0", ""},
		{"gas", map[string]any{"fuse-gas": 3}, "all", "3", ""},
		{"unknown category", map[string]any{"categories": []any{"stael"}}, "", "", `unknown category "stael"`},
		{"unknown setting", map[string]any{"category": []any{"stale"}}, "", "", `unknown field "category"`},
		{"negative gas", map[string]any{"fuse-gas": -1}, "", "", "fuse-gas is -1"},
		{"wrong type", map[string]any{"categories": "stale"}, "", "", "cannot unmarshal"},
	} {
		flags.Set("categories", "blocked")
		flags.Set("fuse.gas", "7")
		p, err := New(tc.conf)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: New error %v, want one containing %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: New: %v", tc.name, err)
			continue
		}
		if _, err := p.BuildAnalyzers(); err != nil {
			t.Errorf("%s: BuildAnalyzers: %v", tc.name, err)
			continue
		}
		if got := flags.Lookup("categories").Value.String(); got != tc.categories {
			t.Errorf("%s: categories = %q, want %q", tc.name, got, tc.categories)
		}
		if got := flags.Lookup("fuse.gas").Value.String(); got != tc.gas {
			t.Errorf("%s: fuse.gas = %q, want %q", tc.name, got, tc.gas)
		}
	}
}

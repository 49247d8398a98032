package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/report"
	"github.com/soacgen/soacgen/analyzer/soacvet"
	"github.com/soacgen/soacgen/rewrite/stale"
)

// contractDoc is the user contract, relative to this package.
const contractDoc = "../../docs/contract.md"

// readContract returns docs/contract.md.
func readContract(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(contractDoc))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// soacgenFlags returns the names of soacgen's flags, as its usage message
// (-h) lists them.
func soacgenFlags(t *testing.T) []string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-h"}, "", &stdout, &stderr); code != exitOK {
		t.Fatalf("soacgen -h: exit %d\n%s", code, stderr.String())
	}
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^  -([\w.]+)`).FindAllStringSubmatch(stderr.String(), -1) {
		names = append(names, m[1])
	}
	if len(names) == 0 {
		t.Fatalf("soacgen -h lists no flags:\n%s", stderr.String())
	}
	return names
}

// flagNames returns the names of the flags in fs.
func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// jsonFields returns the JSON names of the fields of t and of the structs
// it reaches through pointers, slices and embedded structs.
func jsonFields(t reflect.Type) []string {
	var names []string
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for f := range t.Fields() {
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if tag == "-" || !f.IsExported() {
				continue
			}
			if tag == "" && f.Anonymous {
				walk(f.Type) // embedded: its fields are the parent's
				continue
			}
			if tag == "" {
				tag = f.Name
			}
			if !slices.Contains(names, tag) {
				names = append(names, tag)
			}
			walk(f.Type)
		}
	}
	walk(t)
	return names
}

// undocumented returns the names of which doc has no row or mention in
// form, a format with one %s for the name.
func undocumented(doc, form string, names []string) []string {
	var missing []string
	for _, n := range names {
		if !strings.Contains(doc, strings.ReplaceAll(form, "%s", n)) {
			missing = append(missing, n)
		}
	}
	return missing
}

// TestContractDocumentsEverything fails when a flag of soacgen or
// soacvet, a category of soacvet or a field of the JSON report is not
// described in docs/contract.md: soacgen's and soacvet's flags as a
// table row "| `-NAME", categories as "| `NAME` |", report fields as
// "| `NAME` |".
func TestContractDocumentsEverything(t *testing.T) {
	doc := readContract(t)
	checks := []struct {
		what, form string
		names      []string
	}{
		{"soacgen flag", "| `-%s", soacgenFlags(t)},
		{"soacvet flag", "| `-%s", flagNames(&stale.Vet.Flags)},
		{"soacvet category", "| `%s` |", soacvet.Categories},
		{"JSON field of the report", "| `%s` |", jsonFields(reflect.TypeFor[report.Report]())},
	}
	for _, c := range checks {
		if len(c.names) == 0 {
			t.Errorf("found no %ss to check", c.what)
		}
		for _, n := range undocumented(doc, c.form, c.names) {
			t.Errorf("%s %q is not documented in docs/contract.md (want a table row %q)", c.what, n, strings.ReplaceAll(c.form, "%s", n))
		}
	}
}

// TestContractCheckFindsGaps checks that the checks above can fail: a
// contract without a flag's row, and a report type with a field the
// contract does not list, are reported.
func TestContractCheckFindsGaps(t *testing.T) {
	doc := readContract(t)
	if !strings.Contains(doc, "| `-check`") {
		t.Fatal("docs/contract.md has no row for -check")
	}
	cut := strings.ReplaceAll(doc, "| `-check`", "| check")
	if got := undocumented(cut, "| `-%s", soacgenFlags(t)); !slices.Equal(got, []string{"check"}) {
		t.Errorf("without the -check row: undocumented = %q, want [check]", got)
	}
	type extra struct {
		report.Report
		Added []struct {
			Deep int `json:"deepField"`
		} `json:"addedField,omitempty"`
	}
	got := undocumented(doc, "| `%s` |", jsonFields(reflect.TypeFor[extra]()))
	if !slices.Equal(got, []string{"addedField", "deepField"}) {
		t.Errorf("with two new fields: undocumented = %q, want [addedField deepField]", got)
	}
}

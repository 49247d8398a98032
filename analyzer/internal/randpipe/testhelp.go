package randpipe

// This file holds what the tests of this package and of packages shapes
// and pipelines share beyond the generator and the harness: the batches
// of random packages, loading a temporary module, and counts for their
// logs.

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// MoreConfig enables every construct beyond the default ones: the steps
// of optionalsteps.go, divisions that may panic, the path shapes (one
// spec in ten each) and, for the cpu backend, operators that are not
// associative.
var MoreConfig = Config{Specs: 10, FlagBranches: true, ZipGenerators: true, IndexedStreams: true, DivideRate: 0.5, NonAssociative: true,
	ReturnPathRate: 0.1, ClosureCallRate: 0.1}

// Batch returns the packages the random-pipeline tests run: 30 packages
// (6 under -short) of cfg, with seeds from base.
func Batch(base int64, cfg Config) []Package {
	nPkgs := 30
	if testing.Short() {
		nPkgs = 6
	}
	var ps []Package
	for i := range nPkgs {
		ps = append(ps, Generate(base+int64(i), cfg))
	}
	return ps
}

// LoadModule loads every package of the module in dir with syntax.
func LoadModule(t testing.TB, dir string) []*packages.Package {
	t.Helper()
	return LoadPatterns(t, dir, "./...")
}

// LoadPatterns loads the packages matching patterns in dir with syntax,
// failing t on a package that does not load.
func LoadPatterns(t testing.TB, dir string, patterns ...string) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Env: append(os.Environ(), "GOFLAGS=-mod=mod")}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	bad := false
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
			bad = true
		}
	})
	if bad {
		t.FailNow()
	}
	return pkgs
}

// FormatCounts writes m as "key=count " pairs in the order of the keys.
func FormatCounts(m map[string]int) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var b strings.Builder
	for _, k := range ks {
		fmt.Fprintf(&b, "%s=%d ", k, m[k])
	}
	return b.String()
}

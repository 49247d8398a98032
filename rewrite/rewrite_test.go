package rewrite

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/soacgen/soacgen/rewrite/internal/diffrun"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

// cases returns the spec packages under testdata.
func cases(t *testing.T) []string { return diffrun.Cases(t) }

var (
	loadOnce sync.Once
	loadPkgs []*packages.Package // the testdata cases, loaded together
	loaded   map[string][]Output // by testdata case
	loadErr  error
)

// byCase groups outputs by their testdata case directory.
func byCase(outs []Output) map[string][]Output {
	m := map[string][]Output{}
	for _, o := range outs {
		dir := filepath.Join("testdata", filepath.Base(filepath.Dir(o.Path)))
		m[dir] = append(m[dir], o)
	}
	return m
}

// generateDir generates the outputs of the package in testdata/name. All
// cases are loaded and analysed together, once, so that the standard
// library is analysed once.
func generateDir(t *testing.T, dir string) []Output {
	t.Helper()
	loadOnce.Do(func() {
		var patterns []string
		for _, c := range cases(t) {
			patterns = append(patterns, "./testdata/"+c)
		}
		pkgs, err := packages.Load(&packages.Config{Mode: LoadMode}, patterns...)
		if err != nil {
			loadErr = err
			return
		}
		if packages.PrintErrors(pkgs) > 0 {
			loadErr = fmt.Errorf("testdata does not load")
			return
		}
		specTypes.Add(pkgs)
		loadPkgs = pkgs
		outs, err := GeneratePackages(pkgs)
		if err != nil {
			loadErr = err
			return
		}
		loaded = byCase(outs)
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loaded[dir]
}

func TestGolden(t *testing.T) {
	for _, c := range cases(t) {
		t.Run(c, func(t *testing.T) {
			outs := generateDir(t, filepath.Join("testdata", c))
			if len(outs) == 0 {
				t.Fatal("no output")
			}
			var files []File
			for _, o := range outs {
				files = append(files, o.Files()...)
			}
			for _, o := range files {
				if !IsGenerated(o.Content) {
					t.Errorf("%s: no header", o.Path)
				}
				golden := o.Path + ".golden"
				if *update {
					if err := os.WriteFile(golden, o.Content, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test -update)", err)
				}
				if !bytes.Equal(want, o.Content) {
					t.Errorf("%s differs from %s (run go test -update to accept):\n%s", filepath.Base(o.Path), filepath.Base(golden), firstDiff(string(want), string(o.Content)))
				}
			}
		})
	}
}

// TestLoweredGolden compares the lowered kernels of every spec of every
// case (lowered.Dump) with the case's .lowered.golden file: what the
// lowering decided (form, spaces, roles, stores, selects, split folds,
// chunk loops, asserts), before any code is rendered.
func TestLoweredGolden(t *testing.T) {
	for _, c := range cases(t) {
		t.Run(c, func(t *testing.T) {
			outs := generateDir(t, filepath.Join("testdata", c))
			for _, o := range outs {
				if o.Lowered == "" {
					t.Errorf("%s: no lowered kernels", o.Path)
				}
				golden := strings.TrimSuffix(o.Path, "_soac.go") + ".lowered.golden"
				if *update {
					if err := os.WriteFile(golden, []byte(o.Lowered), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test -update)", err)
				}
				if string(want) != o.Lowered {
					t.Errorf("%s differs from %s (run go test -update to accept):\n%s", o.Path, filepath.Base(golden), firstDiff(string(want), o.Lowered))
				}
			}
		})
	}
}

// TestDeterministic generates every case a second time, in a run of the
// analyzers of its own, and compares the outputs with the first run's.
func TestDeterministic(t *testing.T) {
	generateDir(t, "testdata")
	outs, err := GeneratePackages(loadPkgs)
	if err != nil {
		t.Fatal(err)
	}
	again := byCase(outs)
	for _, c := range cases(t) {
		dir := filepath.Join("testdata", c)
		a, b := generateDir(t, dir), again[dir]
		if len(a) != len(b) {
			t.Errorf("%s: %d outputs, then %d", c, len(a), len(b))
			continue
		}
		for i := range a {
			if !bytes.Equal(a[i].Content, b[i].Content) {
				t.Errorf("%s: two runs differ", c)
			}
			if strings.Contains(string(a[i].Content), "/work/") || strings.Contains(string(a[i].Content), "go1.") {
				t.Errorf("%s: output names a path or a Go version", c)
			}
		}
	}
}

// firstDiff shows the first line where got differs from want, with
// context.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		if i < len(w) && i < len(g) && w[i] == g[i] {
			continue
		}
		lo := max(0, i-3)
		line := func(ls []string) string {
			if i < len(ls) {
				return ls[i]
			}
			return "(end of file)"
		}
		return fmt.Sprintf("line %d:\n  want %q\n  got  %q\ncontext:\n%s", i+1, line(w), line(g), strings.Join(g[lo:min(len(g), i+4)], "\n"))
	}
	return "(same lines)"
}

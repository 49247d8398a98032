// Package soactest prepares testdata for the analyzers' tests: it builds a
// temporary GOPATH-layout tree holding an analyzer's testdata/src packages
// and a copy of runtime/soac, so that testdata can import
// "github.com/soacgen/soacgen/runtime/soac" and analysistest can load it.
package soactest

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// RuntimeImportPath is the import path testdata uses for the reference
// runtime.
const RuntimeImportPath = "github.com/soacgen/soacgen/runtime/soac"

// repoRoot returns the root of the soacgen repository, found from this
// file's location.
func repoRoot() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("soactest: cannot locate source file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// Dir returns a temporary directory laid out for analysistest.Run: it holds
// src/ with every package of testdata (the calling test's testdata
// directory, which must contain src/) and src/<RuntimeImportPath> with the
// non-test Go files of runtime/soac. The directory is removed when the test
// ends.
func Dir(t testing.TB, testdata string) string {
	t.Helper()
	dir := t.TempDir()
	if err := copyTree(filepath.Join(testdata, "src"), filepath.Join(dir, "src")); err != nil {
		t.Fatalf("soactest: copying testdata: %v", err)
	}
	rt := filepath.Join(dir, "src", filepath.FromSlash(RuntimeImportPath))
	if err := os.MkdirAll(rt, 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(repoRoot(), "runtime", "soac")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatalf("soactest: reading runtime: %v", err)
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if err := copyFile(filepath.Join(src, name), filepath.Join(rt, name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		return copyFile(path, target)
	})
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

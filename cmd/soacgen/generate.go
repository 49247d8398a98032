package main

// This file handles what is particular to running inside go generate,
// which lists a package's files before it runs their directives and stops
// (go generate ./... included) at a listed file it cannot read: a stale
// output that go generate still has to read is replaced by a tombstone
// (rewrite.SyncPending) whose own //go:generate line runs soacgen again,
// which then deletes it (deleteTombstone). It does not decide which
// outputs are stale: rewrite.Sync does.

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/soacgen/soacgen/rewrite"
)

// defaultDirective is the tombstone's directive when the one that ran
// soacgen cannot be read back.
const defaultDirective = "//go:generate go run github.com/soacgen/soacgen/cmd/soacgen"

// deleteTombstone reports whether soacgen runs from a tombstone's
// directive (go generate sets GOFILE to the file of the directive it runs,
// relative to the package directory wd), after deleting the tombstone:
// go generate has read the file already, so it is safe to delete.
func deleteTombstone(wd string) (bool, error) {
	gofile := os.Getenv("GOFILE")
	if gofile == "" {
		return false, nil
	}
	path := filepath.Join(wd, gofile)
	src, err := os.ReadFile(path)
	if err != nil || !rewrite.IsTombstone(src) {
		return false, nil
	}
	return true, os.Remove(path)
}

// pendingUnderGenerate returns the function rewrite.SyncPending needs, or
// nil when soacgen does not run inside go generate (GOFILE unset). files
// are the listed Go files of the loaded packages (those go generate reads
// too); wd is the package directory go generate runs soacgen in. A stale
// output is still to be read when it is listed and either lies in another
// directory (another package of go generate ./...) or sorts after GOFILE
// (go generate reads a package's files in name order, test files last).
func pendingUnderGenerate(wd string, files []string) func(string) string {
	gofile := os.Getenv("GOFILE")
	if gofile == "" {
		return nil
	}
	line := directiveLine(filepath.Join(wd, gofile), os.Getenv("GOLINE"))
	return func(path string) string {
		if !slices.Contains(files, path) {
			return "" // not listed (build-ignored): go generate never reads it
		}
		if filepath.Dir(path) == wd && (strings.HasSuffix(gofile, "_test.go") || filepath.Base(path) < gofile) {
			return "" // read already
		}
		return line
	}
}

// directiveLine returns the //go:generate line at line goline of file, the
// directive that runs soacgen now, or defaultDirective.
func directiveLine(file, goline string) string {
	n, err := strconv.Atoi(goline)
	if err != nil || n < 1 {
		return defaultDirective
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return defaultDirective
	}
	lines := strings.Split(string(src), "\n")
	if n > len(lines) {
		return defaultDirective
	}
	l := strings.TrimSpace(lines[n-1])
	if !strings.HasPrefix(l, "//go:generate ") || strings.ContainsAny(l, "\r") {
		return defaultDirective
	}
	return l
}

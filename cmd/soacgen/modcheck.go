package main

// This file checks that the module can build what soacgen writes: the
// opencl backend's code imports runtime/opencl/launch, which imports
// github.com/ebitengine/purego, a module that a go.mod made for the
// combinators and the generator alone does not require, so go build of
// the generated file fails ("missing go.sum entry", "updates to go.mod
// needed"). soacgen says so, with the command that fixes it. It does not
// change go.mod: the go command does, when the user runs it.

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/soacgen/soacgen/rewrite"
)

// buildable returns the import paths of pkgs and their dependencies that
// loaded without errors: the module builds them already.
func buildable(pkgs []*packages.Package) map[string]bool {
	ok := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if len(p.Errors) == 0 {
			ok[p.PkgPath] = true
		}
	})
	return ok
}

// importWarnings returns a warning for each generated file of outs that
// imports packages the module cannot build (its go.mod or go.sum lacks
// a requirement of their dependencies), naming the imported packages,
// the packages that fail and why, and the command that adds the
// requirements. known are the packages the module builds already
// (buildable), which are not checked again; the others are listed with
// the go command, once per module, as go build would load them. Nothing
// is checked when GOFLAGS has -mod=mod: the go command then updates
// go.mod itself.
func importWarnings(outs []rewrite.Output, known map[string]bool, wd string) []string {
	if slices.Contains(strings.Fields(os.Getenv("GOFLAGS")), "-mod=mod") {
		return nil
	}
	// The imports to check of each output, and of each module (by its
	// root directory) the union of its outputs'.
	imports := make([][]string, len(outs))
	byModule := map[string][]string{}
	var modules []string
	for i, o := range outs {
		root := moduleRoot(filepath.Dir(o.Path))
		for _, p := range generatedImports(o.Content) {
			if known[p] || standard(p) {
				continue
			}
			imports[i] = append(imports[i], p)
			if _, ok := byModule[root]; !ok {
				modules = append(modules, root)
			}
			if !slices.Contains(byModule[root], p) {
				byModule[root] = append(byModule[root], p)
			}
		}
	}
	broken := map[string]map[string][]string{} // module root -> import -> why
	var warnings []string
	for _, root := range modules {
		why, err := unbuildable(root, byModule[root])
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: cannot check that the module builds the generated files' imports: %v", relFile(root, wd), err))
			continue
		}
		broken[root] = why
	}
	for i, o := range outs {
		why := broken[moduleRoot(filepath.Dir(o.Path))]
		var imported, reasons []string
		for _, p := range imports[i] {
			if len(why[p]) == 0 {
				continue
			}
			imported = append(imported, p)
			for _, w := range why[p] {
				if !slices.Contains(reasons, w) {
					reasons = append(reasons, w)
				}
			}
		}
		if len(imported) > 0 {
			warnings = append(warnings, fmt.Sprintf("%s: the generated code imports %s, which this module's go.mod and go.sum cannot build yet (%s); run `go get %s` (or `go mod tidy`), then go build",
				relFile(o.Path, wd), strings.Join(imported, " and "), strings.Join(reasons, "; "), strings.Join(imported, " ")))
		}
	}
	return warnings
}

// moduleRoot returns the directory of the go.mod that dir belongs to, or
// dir when there is none.
func moduleRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// unbuildable loads the packages paths from dir with their dependencies
// and returns, for each whose dependencies have errors, those
// dependencies, each with the first line of its error.
func unbuildable(dir string, paths []string) (map[string][]string, error) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps, Dir: dir}, paths...)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, root := range pkgs {
		packages.Visit([]*packages.Package{root}, nil, func(p *packages.Package) {
			for _, e := range p.Errors {
				msg, _, _ := strings.Cut(e.Msg, "\n")
				msg = strings.TrimSuffix(strings.TrimSpace(msg), "; to add:")
				if s := p.PkgPath + ": " + msg; !slices.Contains(out[root.PkgPath], s) {
					out[root.PkgPath] = append(out[root.PkgPath], s)
				}
			}
		})
	}
	return out, nil
}

// generatedImports returns the import paths of a generated file.
func generatedImports(src []byte) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
	if err != nil {
		return nil
	}
	var paths []string
	for _, is := range f.Imports {
		if p, err := strconv.Unquote(is.Path.Value); err == nil {
			paths = append(paths, p)
		}
	}
	return paths
}

// standard reports whether path is a standard library package's (its
// first element has no dot, as the go command decides).
func standard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

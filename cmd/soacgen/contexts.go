package main

// This file generates the specs of files that the current build context
// excludes (x_windows.go on Linux, //go:build ignore-free constraints such
// as !linux or a custom tag): they are the user's code too, and their
// outputs must exist when those files build. For each such file it finds a
// build context that includes it (a GOOS/GOARCH pair of the go command's
// ports and a set of the tags its constraint names), loads the package in
// that context and generates the file's specs there, checked by that
// context's type checker. It does not decide how outputs are named or
// constrained (rewrite/buildname.go) nor which outputs are stale
// (rewrite.Sync).

import (
	"bytes"
	"fmt"
	gobuild "go/build"
	"go/build/constraint"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/soacgen/soacgen/analyzer/build"
	"github.com/soacgen/soacgen/rewrite"
)

// ports are the GOOS/GOARCH pairs a context may use (go tool dist list,
// Go 1.26), tried after the host's pair, in this order.
var ports = strings.Fields(`linux/amd64 linux/arm64 windows/amd64 darwin/arm64 darwin/amd64 windows/arm64 linux/386 linux/arm
	freebsd/amd64 openbsd/amd64 netbsd/amd64 dragonfly/amd64 illumos/amd64 solaris/amd64 aix/ppc64 android/arm64 ios/arm64
	js/wasm wasip1/wasm plan9/amd64 linux/loong64 linux/mips linux/mips64 linux/mips64le linux/mipsle linux/ppc64 linux/ppc64le
	linux/riscv64 linux/s390x windows/386 freebsd/386 freebsd/arm freebsd/arm64 netbsd/386 netbsd/arm netbsd/arm64 openbsd/386
	openbsd/arm openbsd/arm64 openbsd/ppc64 openbsd/riscv64 plan9/386 plan9/arm android/386 android/amd64 android/arm ios/amd64`)

// buildCtx is a build context in which soacgen loads a package.
type buildCtx struct {
	goos, goarch string
	tags         string // comma-separated, sorted
	cgo          bool
}

func (c buildCtx) String() string {
	s := "GOOS=" + c.goos + " GOARCH=" + c.goarch
	if c.tags != "" {
		s += " -tags=" + c.tags
	}
	if c.cgo {
		s += " CGO_ENABLED=1"
	}
	return s
}

// maxTags bounds the custom tags of one constraint whose subsets are
// tried (2^maxTags contexts per port).
const maxTags = 6

// contextFor returns the first context (host port first, then ports; fewer
// tags first) in which the go command builds the file at path, or false.
func contextFor(path string) (buildCtx, bool) {
	src, err := os.ReadFile(path)
	if err != nil {
		return buildCtx{}, false
	}
	tags := customTags(src)
	if len(tags) > maxTags {
		tags = tags[:maxTags]
	}
	cands := append([]string{runtime.GOOS + "/" + runtime.GOARCH}, ports...)
	dir, name := filepath.Split(path)
	for _, cgo := range []bool{false, true} {
		for _, p := range cands {
			goos, goarch, _ := strings.Cut(p, "/")
			for mask := 0; mask < 1<<len(tags); mask++ {
				var on []string
				for i, t := range tags {
					if mask&(1<<i) != 0 {
						on = append(on, t)
					}
				}
				ctx := gobuild.Default
				ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled, ctx.BuildTags = goos, goarch, cgo, on
				if ok, err := ctx.MatchFile(dir, name); err == nil && ok {
					return buildCtx{goos, goarch, strings.Join(on, ","), cgo}, true
				}
			}
		}
	}
	return buildCtx{}, false
}

// customTags returns the tags of src's //go:build line that are neither a
// GOOS, a GOARCH nor a tag the go command sets itself, sorted.
func customTags(src []byte) []string {
	var tags []string
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			break
		}
		if !constraint.IsGoBuild(line) {
			continue
		}
		expr, err := constraint.Parse(line)
		if err != nil {
			return nil
		}
		expr.Eval(func(tag string) bool {
			if !isPortTag(tag) && !slices.Contains(tags, tag) {
				tags = append(tags, tag)
			}
			return false
		})
	}
	slices.Sort(tags)
	return tags
}

// isPortTag reports whether tag is set by the go command from the context
// rather than by -tags.
func isPortTag(tag string) bool {
	if tag == "unix" || tag == "cgo" || tag == "gc" || tag == "gccgo" || strings.HasPrefix(tag, "go1.") {
		return true
	}
	for _, p := range ports {
		goos, goarch, _ := strings.Cut(p, "/")
		if tag == goos || tag == goarch {
			return true
		}
	}
	return false
}

// otherContexts generates the specs of pkg's files that the current build
// context excludes, each in a context that includes it, loading through
// overlay. It returns their outputs, the excluded outputs already on disk
// (for Sync to keep or delete; not those of spec files it does not
// generate, which are never deleted), the errors (the load's and the
// directives', each naming the context) and an error for failures to run.
func otherContexts(pkg *packages.Package, overlay map[string][]byte, backend string, gas int, cluster string, wd string) ([]rewrite.Output, []string, []string, error) {
	var outputs []string
	groups := map[buildCtx][]string{}
	var order []buildCtx
	var errs []string
	protect := map[string]bool{} // outputs of spec files not generated here
	for _, f := range goFiles(pkg.IgnoredFiles) {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if rewrite.IsGenerated(src) {
			if rewrite.IsOutputName(f) && !rewrite.IsTombstone(src) {
				outputs = append(outputs, f)
			}
			continue
		}
		if !bytes.Contains(src, []byte("\n//soac:fuse ")) {
			continue
		}
		if slices.Contains(customTags(src), "ignore") {
			// //go:build ignore: a file no build includes (a script
			// of another package, by convention); its output, if
			// any, is left alone.
			protect[rewrite.OutputPath(f)] = true
			continue
		}
		ctx, ok := contextFor(f)
		if !ok {
			protect[rewrite.OutputPath(f)] = true
			errs = append(errs, fmt.Sprintf("%s: no build context (GOOS/GOARCH of the go command's ports, tags of its //go:build line) includes this file; its specs cannot be generated", relFile(f, wd)))
			continue
		}
		if groups[ctx] == nil {
			order = append(order, ctx)
		}
		groups[ctx] = append(groups[ctx], f)
	}
	outputs = slices.DeleteFunc(outputs, func(f string) bool { return protect[f] })
	var outs []rewrite.Output
	for _, ctx := range order {
		o, cerrs, err := generateIn(ctx, filepath.Dir(groups[ctx][0]), overlay, backend, gas, cluster, wd)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("in build context %s: %v", ctx, err)
		}
		for _, e := range cerrs {
			errs = append(errs, e+" (in build context "+ctx.String()+")")
		}
		for _, out := range o {
			if slices.Contains(groups[ctx], out.Source) {
				outs = append(outs, out)
			}
		}
	}
	return outs, outputs, errs, nil
}

// generateIn loads the package in dir in build context ctx and generates
// its specs.
func generateIn(ctx buildCtx, dir string, overlay map[string][]byte, backend string, gas int, cluster string, wd string) ([]rewrite.Output, []string, error) {
	cgo := "0"
	if ctx.cgo {
		cgo = "1"
	}
	cfg := &packages.Config{
		Mode:    packages.LoadAllSyntax | packages.NeedModule,
		Dir:     dir,
		Env:     append(os.Environ(), "GOOS="+ctx.goos, "GOARCH="+ctx.goarch, "CGO_ENABLED="+cgo),
		Overlay: overlay,
	}
	if ctx.tags != "" {
		cfg.BuildFlags = []string{"-tags=" + ctx.tags}
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return nil, nil, err
	}
	if errs := loadErrors(pkgs, wd); len(errs) > 0 {
		return nil, errs, nil
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{build.Analyzer}, pkgs, nil)
	if err != nil {
		return nil, nil, err
	}
	var outs []rewrite.Output
	var errs []string
	for _, act := range graph.Roots {
		o, _, perrs, err := generateAct(act, backend, gas, cluster, wd)
		if err != nil {
			return nil, nil, err
		}
		outs = append(outs, o...)
		errs = append(errs, perrs...)
	}
	return outs, errs, nil
}

// goFiles returns the non-test Go files among files.
func goFiles(files []string) []string {
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") {
			out = append(out, f)
		}
	}
	return out
}

// testSpecWarnings returns a warning for each //soac:fuse directive in a
// _test.go file of the packages: soacgen generates no code for test files
// (they are not part of the package's build, and go vet's soacvet does
// not look at them either), so such a spec would be ignored without a
// word. Each warning is file:line:col, relative to wd.
func testSpecWarnings(pkgs []*packages.Package, wd string) []string {
	var warns []string
	seen := map[string]bool{}
	for _, p := range pkgs {
		if len(p.GoFiles)+len(p.IgnoredFiles) == 0 {
			continue
		}
		dir := filepath.Dir(slices.Concat(p.GoFiles, p.IgnoredFiles)[0])
		if seen[dir] {
			continue
		}
		seen[dir] = true
		tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		for _, f := range tests {
			src, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			for i, line := range strings.Split(string(src), "\n") {
				if strings.HasPrefix(line, "//soac:fuse") {
					warns = append(warns, fmt.Sprintf("%s:%d:1: //soac:fuse in a test file: soacgen generates no code for _test.go files; move the spec to a non-test file", relFile(f, wd), i+1))
				}
			}
		}
	}
	return warns
}

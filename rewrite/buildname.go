package rewrite

// This file names outputs and carries build constraints over: the output
// of a spec file builds exactly when the spec file does. It copies the
// spec file's //go:build line (and // +build lines) and keeps a GOOS/GOARCH
// file-name suffix last (x_linux_amd64.go -> x_soac_linux_amd64.go), where
// the go command reads it. It does not decide which build contexts to
// generate for: the caller loads the package in them.

import (
	"go/ast"
	"go/build/constraint"
	"path/filepath"
	"strings"
)

// knownOS and knownArch are the GOOS and GOARCH values that the go command
// recognises as file-name suffixes (go/build's lists, Go 1.26, which also
// reserves names of past and future ports).
var (
	knownOS   = setOf("aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos")
	knownArch = setOf("386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le " +
		"ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm")
)

func setOf(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// OutputPath returns the path of the file generated from the spec file
// source: x.go -> x_soac.go beside it, with a GOOS, GOARCH or GOOS_GOARCH
// suffix kept last (x_amd64.go -> x_soac_amd64.go), so that the go command
// applies it to the output as to the source.
func OutputPath(source string) string {
	return outputPath(source, "_soac")
}

// The companions of an output (x_soac.go) that has vector kernels
// (rewrite/vector): x_soacsimd.go holds the vector forms and builds only
// with GOEXPERIMENT=simd on amd64; x_soacscalar.go holds their scalar
// stubs and builds otherwise.
const (
	simdStem   = "_soacsimd"
	scalarStem = "_soacscalar"
	// simdBuild and scalarBuild are their build constraints, combined
	// with the spec file's.
	simdBuild   = "goexperiment.simd && amd64"
	scalarBuild = "!goexperiment.simd || !amd64"
)

// outputPath is OutputPath with another stem suffix (a companion's).
func outputPath(source, suffixStem string) string {
	dir, base := filepath.Split(source)
	stem, suffix := splitOSArch(strings.TrimSuffix(base, ".go"))
	return dir + stem + suffixStem + suffix + ".go"
}

// IsOutputName reports whether path is named as soacgen names outputs:
// x_soac.go or its companions x_soacsimd.go and x_soacscalar.go, each
// possibly followed by a GOOS/GOARCH suffix.
func IsOutputName(path string) bool {
	base := filepath.Base(path)
	if !strings.HasSuffix(base, ".go") || strings.HasSuffix(base, "_test.go") {
		return false
	}
	stem, _ := splitOSArch(strings.TrimSuffix(base, ".go"))
	return strings.HasSuffix(stem, "_soac") || strings.HasSuffix(stem, simdStem) || strings.HasSuffix(stem, scalarStem)
}

// companionHeader is the header of a companion of spec file f's output:
// soacgen's header and one //go:build line, f's constraint and build.
func companionHeader(f *ast.File, build string) string {
	expr, _ := constraint.Parse("//go:build " + build)
	for _, cg := range f.Comments {
		if cg.Pos() >= f.Package {
			break
		}
		for _, c := range cg.List {
			if constraint.IsGoBuild(c.Text) {
				if own, err := constraint.Parse(c.Text); err == nil {
					expr = &constraint.AndExpr{X: own, Y: expr}
				}
			}
		}
	}
	return Header + "\n\n//go:build " + expr.String()
}

// splitOSArch splits a file name without ".go" into its stem and the
// GOOS/GOARCH suffix the go command reads from it ("_linux_amd64",
// "_amd64", "_linux" or ""): the last one or two "_"-separated parts after
// the first "_", as go/build's goodOSArchFile reads them.
func splitOSArch(name string) (stem, suffix string) {
	i := strings.Index(name, "_")
	if i < 0 {
		return name, ""
	}
	l := strings.Split(name[i:], "_") // l[0] == ""
	n := len(l)
	switch {
	case n >= 3 && knownOS[l[n-2]] && knownArch[l[n-1]]:
		suffix = "_" + l[n-2] + "_" + l[n-1]
	case n >= 2 && (knownOS[l[n-1]] || knownArch[l[n-1]]):
		suffix = "_" + l[n-1]
	}
	return strings.TrimSuffix(name, suffix), suffix
}

// buildLines returns f's build constraint lines (//go:build and the old
// // +build), one per line, as written before its package clause, or "".
func buildLines(f *ast.File) string {
	var lines []string
	for _, cg := range f.Comments {
		if cg.Pos() >= f.Package {
			break
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:build ") || strings.HasPrefix(c.Text, "// +build ") {
				lines = append(lines, c.Text)
			}
		}
	}
	return strings.Join(lines, "\n")
}

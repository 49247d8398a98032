package rewrite

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/rewrite/internal/diffrun"
)

// premiseSrc holds, as one package, the shapes the floating-point
// contraction rules of doc.go rest on: each lambda run as its own compiled
// body (through a call the compiler does not inline, as runtime/soac's
// combinators run it) and the same lambda inlined into a loop, as the
// generated code would write it.
const premiseSrc = `package premise

//go:noinline
func opaque[F any](f F) F { return f }

func mulAdd(x, y float64) float64 { return x*y + 0.1 }

// MulAddOwn runs mulAdd's own body: its arguments arrive in registers.
func MulAddOwn(xs, ys, out []float64) {
	f := opaque(mulAdd)
	for i := range out {
		out[i] = f(xs[i], ys[i])
	}
}

// MulAddInlined is mulAdd's expression copied into the loop: its
// operands are loaded from memory.
func MulAddInlined(xs, ys, out []float64) {
	for i := range out {
		out[i] = float64(xs[i]*ys[i] + 0.1)
	}
}

func mulAddRounded(x, y float64) float64 { return float64(x*y) + 0.1 }

func MulAddRoundedOwn(xs, ys, out []float64) {
	f := opaque(mulAddRounded)
	for i := range out {
		out[i] = f(xs[i], ys[i])
	}
}

func MulAddRoundedInlined(xs, ys, out []float64) {
	for i := range out {
		out[i] = float64(float64(xs[i]*ys[i]) + 0.1)
	}
}

type Moments struct{ Sum, SumSq float64 }

// MomentsOwn is the spec's variance pipeline: Map to moments{x, x*x},
// Reduce adding both fields, each lambda its own body.
func MomentsOwn(xs []float64) Moments {
	f := opaque(func(x float64) Moments { return Moments{x, x * x} })
	add := opaque(func(a, b Moments) Moments { return Moments{a.Sum + b.Sum, a.SumSq + b.SumSq} })
	var acc Moments
	for _, x := range xs {
		acc = add(acc, f(x))
	}
	return acc
}

// MomentsInlined inlines both lambdas verbatim.
func MomentsInlined(xs []float64) Moments {
	var acc Moments
	for _, x := range xs {
		m := Moments{x, x * x}
		acc = Moments{acc.Sum + m.Sum, acc.SumSq + m.SumSq}
	}
	return acc
}

// MomentsRounded inlines them with the map's result fields rounded, as
// soacgen generates it.
func MomentsRounded(xs []float64) Moments {
	var acc Moments
	for _, x := range xs {
		m := Moments{x, x * x}
		m.Sum = float64(m.Sum)
		m.SumSq = float64(m.SumSq)
		acc = Moments{acc.Sum + m.Sum, acc.SumSq + m.SumSq}
	}
	return acc
}
`

// premiseTestSrc compares the bits of premiseSrc's functions on random
// inputs: with contraction (the build tag amd64.v3) verbatim inlining
// must give other bits than the own bodies somewhere, and the rounded
// forms the same bits everywhere; without it, every form the same bits.
const premiseTestSrc = `package premise

import (
	"math"
	"math/rand/v2"
	"testing"
)

func floats(r *rand.Rand, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = (r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(8)-4)
	}
	return xs
}

func TestPremises(t *testing.T) {
	diffMulAdd, diffMoments := 0, 0
	for seed := uint64(1); seed <= 20; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		n := 1 + r.IntN(2000)
		xs, ys := floats(r, n), floats(r, n)
		own, inl := make([]float64, n), make([]float64, n)
		MulAddOwn(xs, ys, own)
		MulAddInlined(xs, ys, inl)
		for i := range own {
			if math.Float64bits(own[i]) != math.Float64bits(inl[i]) {
				diffMulAdd++
			}
		}
		MulAddRoundedOwn(xs, ys, own)
		MulAddRoundedInlined(xs, ys, inl)
		for i := range own {
			if math.Float64bits(own[i]) != math.Float64bits(inl[i]) {
				t.Fatalf("seed %d: float64(x*y)+0.1 inlined gives %v, its own body %v", seed, inl[i], own[i])
			}
		}
		mo, mi, mr := MomentsOwn(xs), MomentsInlined(xs), MomentsRounded(xs)
		if math.Float64bits(mo.SumSq) != math.Float64bits(mi.SumSq) {
			diffMoments++
		}
		if math.Float64bits(mo.Sum) != math.Float64bits(mr.Sum) || math.Float64bits(mo.SumSq) != math.Float64bits(mr.SumSq) {
			t.Fatalf("seed %d: the moments inlined with rounded fields give %v, the lambdas' own bodies %v", seed, mr, mo)
		}
	}
	if !contracts && (diffMulAdd > 0 || diffMoments > 0) {
		t.Fatalf("without contraction, inlining changed %d products x*y+0.1 and %d sums of squares", diffMulAdd, diffMoments)
	}
	if contracts && (diffMulAdd == 0 || diffMoments == 0) {
		t.Fatalf("with contraction, inlining verbatim changed %d products x*y+0.1 and %d sums of squares: the compiler no longer fuses as doc.go says", diffMulAdd, diffMoments)
	}
	t.Logf("contracts=%v: verbatim inlining changed %d products x*y+0.1 and %d of 20 sums of squares", contracts, diffMulAdd, diffMoments)
}
`

// TestFMAPremises builds premiseSrc under GOAMD64=v1 and GOAMD64=v3 and
// runs premiseTestSrc, which checks the facts doc.go's "Floating-point
// contraction" rests on, on random inputs: under v3 the Go compiler fuses
// x*y + 0.1 in the function's own body (arguments in registers) but not
// once it is copied into a loop reading slices (a multiplication whose
// operand is a load from memory is merged with the load first), so a
// lambda whose product reaches an addition must run its own body; the
// map lambda of a variance (a struct of x and x*x), inlined verbatim,
// has its product fused with the reduction's addition, and inlined with
// its result's fields rounded gives the own bodies' bits; float64(x*y) +
// z is the same everywhere. Under v1 every form gives the same bits. The
// runs are made on amd64 hosts only (arm64 merges no loads, so there
// mulAdd fuses inlined too). It also compiles the package for arm64 and
// reads the assembly: the verbatim variance has a fused multiply-add, the
// rounded one none.
func TestFMAPremises(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	dir := t.TempDir()
	diffrun.Write(t, filepath.Join(dir, "go.mod"), []byte("module example.com/premise\n\ngo 1.26\n"))
	diffrun.Write(t, filepath.Join(dir, "premise.go"), []byte(premiseSrc))
	diffrun.Write(t, filepath.Join(dir, "premise_test.go"), []byte(premiseTestSrc))
	// The premises are amd64's (load merging): the test runs there only.
	diffrun.Write(t, filepath.Join(dir, "contracts.go"), []byte("//go:build amd64.v3\n\npackage premise\n\nconst contracts = true\n"))
	diffrun.Write(t, filepath.Join(dir, "exact.go"), []byte("//go:build !amd64.v3\n\npackage premise\n\nconst contracts = false\n"))
	run := func(env ...string) string {
		t.Helper()
		cmd := exec.Command("go", "test", "-count=1", "-v", ".")
		cmd.Dir = dir
		cmd.Env = diffrun.OfflineEnv(env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v go test: %v\n%s", env, err, out)
		}
		return string(out)
	}
	if runtime.GOARCH == "amd64" {
		t.Log(strings.TrimSpace(run("GOAMD64=v1")))
		if diffrun.HostHasFMA() {
			t.Log(strings.TrimSpace(run("GOAMD64=v3")))
		}
	}
	cmd := exec.Command("go", "build", "-gcflags=-S", "-o", filepath.Join(dir, "premise.a"), ".")
	cmd.Dir = dir
	cmd.Env = diffrun.OfflineEnv("GOARCH=arm64", "GOOS=linux")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("arm64 build: %v\n%s", err, out)
	}
	fused := regexp.MustCompile(`\bF(N?MADD|N?MSUB)[SD]\b`)
	for name, want := range map[string]bool{"MomentsInlined": true, "MomentsRounded": false, "MulAddRoundedInlined": false} {
		asm := asmOf(string(out), "example.com/premise."+name)
		if asm == "" {
			t.Fatalf("no arm64 assembly of %s in\n%s", name, out)
		}
		if got := fused.MatchString(asm); got != want {
			t.Errorf("arm64 %s has a fused multiply-add: %v, want %v\n%s", name, got, want, asm)
		}
	}
}

// asmOf returns the lines of fn's text in the output of go build
// -gcflags=-S.
func asmOf(out, fn string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, " ") {
			in = strings.HasPrefix(l, fn+" STEXT")
		}
		if in {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

package rewrite

import (
	"maps"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/ir"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/internal/diffrun"
)

// TestStreamThenBackends generates testdata/streamrules with every
// backend: every kernel whose StreamMap feeds scans, filters, maps or
// folds in its chunk loop (lower.ChunkedThen, at depth 0; a nested
// kernel runs inside its parent's element) is rendered by the cpu
// backend with no fallback, by the parallel backend with no fallback
// (then.go), and by the opencl backend in two device steps
// (streamthen.go) where both halves translate, else it falls back
// to the parallel backend with the half's reason (never the form's).
func TestStreamThenBackends(t *testing.T) {
	pkgs := casePkgs(t, "streamrules")
	want := map[string]string{backend.CPU: backend.CPU, backend.Parallel: backend.Parallel, backend.OpenCL: backend.Parallel}
	// mayFall: the backends whose refusals are expected, with a reason.
	mayFall := map[string]bool{backend.OpenCL: true}
	onDevice := 0
	for _, b := range []string{backend.CPU, backend.Parallel, backend.OpenCL} {
		results, err := RunPackages(pkgs, Options{Check: true, Backend: b})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, o := range results[0].Outputs {
			for k, g := range o.Generated {
				si := slices.IndexFunc(k.SOACs, (*ir.SOAC).IsStream)
				if si < 0 || si == len(k.SOACs)-1 || k.Depth > 0 {
					continue
				}
				n++
				if b == backend.OpenCL && g.Backend == backend.OpenCL && len(g.Fallbacks) == 0 {
					onDevice++
					continue
				}
				if g.Backend != want[b] {
					t.Errorf("%s: kernel at %v runs on %s, want %s (fallbacks %+v)", b, k.At.Pos(), g.Backend, want[b], g.Fallbacks)
				}
				if !mayFall[b] {
					if len(g.Fallbacks) != 0 {
						t.Errorf("%s: kernel at %v fell back: %+v", b, k.At.Pos(), g.Fallbacks)
					}
					continue
				}
				found := false
				for _, f := range g.Fallbacks {
					found = found || f.Backend == b && f.Reason != "" && !strings.Contains(f.Reason, "its form is")
				}
				if !found {
					t.Errorf("%s: kernel at %v: fallbacks %+v, want %s's with a reason other than its form", b, k.At.Pos(), g.Fallbacks, b)
				}
			}
		}
		if n < 12 {
			t.Errorf("%s: %d kernels with a stream and more members, want at least 12", b, n)
		}
	}
	if onDevice < 6 {
		t.Errorf("opencl: %d kernels with a stream and more members on the device, want at least 6", onDevice)
	}
}

// TestParallelStreamThen generates testdata/streamrules with
// backend=parallel: every ChunkedThen kernel at depth 0 runs, above its
// grain, in one parallel step (the stream's chunks and the members over
// them: parallel.StreamCarried) or, where its members carry in levels,
// in two (the stream's output, then the members), and (unless
// -short) every generated function equals its spec, results bit for bit
// and panics by message, on random inputs of up to 6e5 elements under
// GOMAXPROCS 1, 2 and 8; panics at two indices, in either order, are
// the spec's (the lowest index's), and leave no goroutine behind. A
// mutant of the generated code whose parallel scan drops its carry must
// fail the same test.
func TestParallelStreamThen(t *testing.T) {
	pkgs := casePkgs(t, "streamrules")
	results, err := RunPackages(pkgs, Options{Check: true, Backend: backend.Parallel})
	if err != nil {
		t.Fatal(err)
	}
	var specs []diffrun.Spec
	srcs := map[string][]byte{}
	for _, o := range results[0].Outputs {
		if len(o.Warnings) != 0 {
			t.Errorf("warnings %q, want none", o.Warnings)
		}
		specs = append(specs, specsOf(t, o)...)
		for _, gf := range o.Files() {
			srcs[filepath.Base(gf.Path)] = gf.Content
		}
	}
	then := 0
	for name, src := range srcs {
		if !strings.HasSuffix(name, "_soac.go") {
			continue // a vector companion
		}
		for _, part := range strings.Split(string(src), "\nfunc ")[1:] {
			body := part
			if i := strings.Index(part, "\n}\n"); i >= 0 {
				body = part[:i]
			}
			// The cpu chunk loop's length check, before the members'
			// loop over the chunk, is a ChunkedThen kernel's.
			if !strings.Contains(body, "has %d elements but f returned %d") {
				continue
			}
			then++
			name := part[:strings.IndexAny(part, "([")]
			// One parallel step (parallel.StreamCarried), except where
			// the members' carries come in levels (a filter of a scan's
			// elements): the stream's output first, then the members'
			// loop. (MapStreamBadLength is a Chunked kernel, maps
			// feeding a stream: parallel.StreamMapChunks.)
			twoStep := name == "StreamScanFilter" || name == "MapStreamBadLength"
			one := strings.Contains(body, "parallel.StreamCarried(")
			two := strings.Contains(body, "parallel.StreamMapChunks(") || strings.Contains(body, "parallel.StreamMapOr(")
			if one == twoStep || two != twoStep {
				t.Errorf("%s: one parallel step %v, two %v; want two steps %v", name, one, two, twoStep)
			}
		}
	}
	if then < 12 {
		t.Errorf("%d functions with a ChunkedThen kernel, want at least 12", then)
	}
	if testing.Short() {
		return
	}
	// Three specs break docs/contract.md's promise that a scan's operator is
	// associative (a + 10/b, a + b*last): the parallel scan associates
	// as the runtime's chunks do, so only the panics of the first two
	// are compared (streamThenPanicTest).
	broken := []string{"StreamScanPanics", "StreamScanBadLength", "StreamScanWhole"}
	specs = slices.DeleteFunc(specs, func(s diffrun.Spec) bool { return slices.Contains(broken, s.Label) })
	if out, err := runStreamRules(t, srcs, specs); err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	// The mutant: StreamScan's parallel scan of the stream's output
	// starts every chunk but the first from the neutral element, not its
	// carry (parallel.StreamCarried's pass 2).
	file := "streamrules_soac.go"
	src := string(srcs[file])
	start := strings.Index(src, "\nfunc StreamScan(")
	end := start + strings.Index(src[start:], "\n}\n")
	fn := src[start:end]
	mut := regexp.MustCompile(`= carry\.s0\b`).ReplaceAllString(fn, "= 0*carry.s0")
	if mut == fn {
		t.Fatalf("no carry to drop in StreamScan:\n%s", fn)
	}
	mutant := maps.Clone(srcs)
	mutant[file] = []byte(src[:start] + mut + src[end:])
	scan := slices.DeleteFunc(slices.Clone(specs), func(s diffrun.Spec) bool { return s.Label != "StreamScan" })
	if out, err := runStreamRules(t, mutant, scan); err == nil || !regexp.MustCompile(`StreamScan, n=(100000|600000)`).Match(out) {
		t.Errorf("the mutant dropping StreamScan's carry passes: %v\n%s", err, out)
	}
}

// runStreamRules runs the differential test of specs (diffTest, with
// inputs of 6e5 elements too, above every grain) and
// streamThenPanicTest on testdata/streamrules with generated files srcs,
// under GOMAXPROCS 1, 2 and 8, and returns go test's output.
func runStreamRules(t *testing.T, srcs map[string][]byte, specs []diffrun.Spec) ([]byte, error) {
	t.Helper()
	dir := filepath.Join("testdata", "streamrules")
	tmp := diffrun.CaseModule(t, dir, "streamrules")
	for name, b := range srcs {
		diffrun.Write(t, filepath.Join(tmp, name), b)
	}
	diffrun.Write(t, filepath.Join(tmp, "soacdiff_test.go"), diffrun.TestSource("streamrules", specs))
	diffrun.Write(t, filepath.Join(tmp, "soacpanic_test.go"), []byte(streamThenPanicTest))
	cmd := exec.Command("go", "test", "-count=1", "-cpu=1,2,8", ".")
	cmd.Dir = tmp
	cmd.Env = diffrun.OfflineEnv()
	return cmd.CombinedOutput()
}

// streamThenPanicTest is a test file of package streamrules: inputs of
// 6e5 elements to the differential test, the spec's panic where two
// elements panic (a 60: the scan's operator or the predicate divides by
// zero; a trigger: the chunk function panics or returns a short chunk)
// at indices in either order and in chunks far apart or next to each
// other, and no goroutine left after those panics.
const streamThenPanicTest = `package streamrules

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/soacgen/soacgen/rewrite/difftest"
)

func init() { difftest.Sizes = append(difftest.Sizes, 600_000) }

func panicOf(f func()) (v string) {
	defer func() { v = fmt.Sprint(recover()) }()
	f()
	return "no panic"
}

type panicking struct {
	name          string
	spec, fused   func([]int) []int
	trigger       int
}

var panickers = []panicking{
	{"StreamScanPanics", streamScanPanicsSpec, StreamScanPanics, 13},
	{"StreamScanBadLength", streamScanBadLengthSpec, StreamScanBadLength, 77},
	{"StreamFilterPanics", streamFilterPanicsSpec, StreamFilterPanics, 77},
}

func ones(n int) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = 1
	}
	return xs
}

func TestTwoPanics(t *testing.T) {
	const n = 600_000
	at := []int{0, 3, 4095, 4096, 70_001, 299_999, 300_000, 599_999}
	for _, p := range panickers {
		for _, i := range at {
			for _, j := range at {
				if i == j {
					continue
				}
				xs := ones(n)
				xs[i], xs[j] = 60, p.trigger
				want := panicOf(func() { p.spec(append([]int(nil), xs...)) })
				if got := panicOf(func() { p.fused(xs) }); got != want {
					t.Errorf("%s, 60 at %d, %d at %d: panic %q, spec panics %q", p.name, i, p.trigger, j, got, want)
				}
			}
		}
	}
}

func bits(xs []float64) []uint64 {
	b := make([]uint64, len(xs))
	for i, x := range xs {
		b[i] = math.Float64bits(x)
	}
	return b
}

// The float scans and sums of finite values (whose association shows
// in their bits) give the same bits under GOMAXPROCS 1, 2, 3 and 8.
func TestFloatsSameBits(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{100_000, 600_000, 1_000_003} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = r.NormFloat64() * 1e3
		}
		var first [][]uint64
		for _, p := range []int{1, 2, 3, 8} {
			runtime.GOMAXPROCS(p)
			scan := StreamScanFloat(slices.Clone(xs))
			ys, sum := StreamFilterFloat(slices.Clone(xs))
			zs, run, top := StreamFilterScan(slices.Clone(xs))
			got := [][]uint64{bits(scan), bits(ys), bits([]float64{sum, top}), bits(zs), bits(run)}
			if first == nil {
				first = got
				continue
			}
			for k := range got {
				if !slices.Equal(got[k], first[k]) {
					t.Errorf("n=%d, GOMAXPROCS=%d: result %d differs from GOMAXPROCS=1's", n, p, k)
				}
			}
		}
	}
}

func TestPanicLeavesNoGoroutine(t *testing.T) {
	xs := ones(600_000)
	StreamScan(xs) // grows the worker pool
	before := runtime.NumGoroutine()
	for k := range 20 {
		for _, p := range panickers {
			ys := ones(600_000)
			ys[1000*k+5], ys[300_000+k] = p.trigger, 60
			panicOf(func() { p.fused(ys) })
			ys[1000*k+5], ys[300_000+k] = 60, p.trigger
			panicOf(func() { p.fused(ys) })
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%d goroutines after the panics, %d before", after, before)
	}
}
`

package clbench

// Auto's host path: with the device ruled out
// (launch.NeverDevice), a backend=auto function runs the parallel
// backend's code after its choice, so it must cost what the parallel
// variant costs plus the choice (launch's Use: tens of nanoseconds).

import (
	"math"
	"testing"
	"time"

	"github.com/soacgen/soacgen/examples/internal/extest"
	"github.com/soacgen/soacgen/examples/sumsq"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// hostSizes and hostSides are the lengths and matmul sides of
// TestAutoHostAllocs and BenchmarkAutoHost: from a call that is nearly
// all overhead to one on every core.
var (
	hostSizes = []int{0, 1, 1_000, 100_000}
	hostSides = []int{0, 1, 8, 64}
)

// sessionAllocs are the allocations a call of an auto function makes on
// the host beyond its parallel variant's, by example: Normalize2Auto's
// launch.Session and the *launch.Array of xs, which its two kernels share
// on the device (launch.Share), are moved to the heap (their addresses
// go into the device runs) where they are declared, at the start of the
// call, whichever way it goes: two small objects, the only difference
// (with the device branches they cost 43-73 ns a call at n ≤ 1 and
// about 120 ns, 1.6%, at 1e3 on the 2-core VM, loaded, 2026-11-26:
// BenchmarkAutoHost).
var sessionAllocs = map[string]float64{"Normalize2": 2}

// TestAutoHostAllocs checks that each example's auto variant, on the
// host, allocates per call what its parallel variant does (plus
// sessionAllocs), at every size of hostSizes and hostSides: a closure, a
// boxed argument or a buffer that auto's code added to the host path
// would show here.
func TestAutoHostAllocs(t *testing.T) {
	if extest.Race {
		t.Skip("the race detector allocates")
	}
	defer launch.SetChoice(launch.SetChoice(launch.NeverDevice))
	for _, c := range autoCasesAt(hostSizes, hostSides) {
		t.Run(c.name, func(t *testing.T) {
			_, par, auto := c.setup()
			// The parallel pool's occasional allocation depends on
			// timing; an allocation auto's code adds shows in every try.
			var p, a, want float64
			for try := 0; try < 5; try++ {
				p, a = allocs(par, auto)
				if want = p + sessionAllocs[exampleOf(c.name)]; a == want {
					return
				}
			}
			t.Errorf("auto allocates %v times per call on the host, the parallel variant %v: want %v (in each of 5 tries)", a, p, want)
		})
	}
}

// allocs returns the allocations per call of par and of auto: of three
// averages over 20 calls (after one untimed) each, the least. A parallel
// kernel's pool may allocate now and then depending on timing (under
// the load of a full `go test ./...`, MatMul at 64² once averaged 67
// allocations a call against 66 alone); an allocation the code makes on
// every call stays in the least (TestAllocsCounts).
func allocs(par, auto func()) (p, a float64) {
	const runs, tries = 20, 3
	p, a = math.Inf(1), math.Inf(1)
	for range tries {
		p = min(p, testing.AllocsPerRun(runs, par))
		a = min(a, testing.AllocsPerRun(runs, auto))
	}
	return p, a
}

// sink keeps TestAllocsCounts's allocations on the heap.
var sink *[4]int

// TestAllocsCounts checks that allocs tells an auto variant allocating
// one object more per call apart from its parallel variant (what
// TestAutoHostAllocs would report), and that it finds none where both
// are the same function.
func TestAllocsCounts(t *testing.T) {
	if extest.Race {
		t.Skip("the race detector allocates")
	}
	xs := floats(1000, 1)
	par := func() { sumsq.SumSqPar(xs) }
	if p, a := allocs(par, func() { sink = new([4]int); sumsq.SumSqPar(xs) }); a != p+1 {
		t.Errorf("an extra object: %v allocations against %v, want one more", a, p)
	}
	if p, a := allocs(par, par); a != p {
		t.Errorf("the same function: %v allocations against %v", a, p)
	}
}

// exampleOf returns the example of a case name, the part before its
// first "/".
func exampleOf(name string) string {
	for i := range name {
		if name[i] == '/' {
			return name[:i]
		}
	}
	return name
}

// BenchmarkAutoHost times each example's auto variant against its
// parallel variant with the device ruled out (launch.NeverDevice), call
// by call in turns (extest.Paired, enough calls a turn for about 50 µs
// of the parallel variant's), at hostSizes and hostSides. It reports the
// medians par-ns/op and auto-ns/op, their difference extra-ns/op (the
// choice and sessionAllocs: tens of nanoseconds), the median ratio
// auto/par, and the allocations per call of each (par-allocs,
// auto-allocs). On the 16-core host it tells auto's own cost apart from
// the order effects of BenchmarkAutoRounds; filter with -test.bench
// 'AutoHost/Normalize2/n=100000$' and the like.
func BenchmarkAutoHost(b *testing.B) {
	defer launch.SetChoice(launch.SetChoice(launch.NeverDevice))
	for _, c := range autoCasesAt(hostSizes, hostSides) {
		b.Run(c.name, func(b *testing.B) {
			_, par, auto := c.setup()
			pa, aa := testing.AllocsPerRun(10, par), testing.AllocsPerRun(10, auto)
			t0 := time.Now()
			par()
			one := time.Since(t0)
			calls := 1
			for one*time.Duration(calls) < 50*time.Microsecond && calls < 1<<16 {
				calls *= 2
			}
			p, a, r := extest.Paired(b, calls, par, auto)
			b.ReportMetric(p, "par-ns/op")
			b.ReportMetric(a, "auto-ns/op")
			b.ReportMetric(a-p, "extra-ns/op")
			b.ReportMetric(r, "auto/par")
			b.ReportMetric(pa, "par-allocs")
			b.ReportMetric(aa, "auto-allocs")
		})
	}
}

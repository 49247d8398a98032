package minmax

import (
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/examples/internal/extest"
)

func TestBoundsKnown(t *testing.T) {
	if lo, hi := boundsSpec([]int32{3, -7, 12, 0}); lo != -7 || hi != 12 {
		t.Errorf("boundsSpec = %d, %d, want -7, 12", lo, hi)
	}
	if lo, hi := Bounds(nil); lo != math.MaxInt32 || hi != math.MinInt32 {
		t.Errorf("Bounds(nil) = %d, %d, want MaxInt32, MinInt32", lo, hi)
	}
}

func readings(r *rand.Rand, n int) []int32 {
	xs := make([]int32, n)
	for i := range xs {
		xs[i] = r.Int32() - math.MaxInt32/2
	}
	return xs
}

// TestBounds compares every implementation with the spec, at the sizes of
// every example and at every length modulo the four accumulators: on the
// input as drawn, and with the extremes placed in each accumulator's lane
// (index j and n-1-j), and at the first and the last index, where a wrong
// remainder loop or combination would lose them.
func TestBounds(t *testing.T) {
	sizes := append(extest.Sizes(testing.Short()), 2, 3, 4, 5, 6, 8, 9)
	for _, n := range sizes {
		drawn := readings(extest.Rand(21, n), n)
		for j := -1; j < min(n, 4); j++ {
			xs := drawn
			if j >= 0 {
				xs = append([]int32(nil), drawn...)
				xs[j], xs[n-1-j] = math.MinInt32, math.MaxInt32
			}
			wantLo, wantHi := boundsSpec(xs)
			for _, im := range impls[1:] {
				if lo, hi := im.fn(xs); lo != wantLo || hi != wantHi {
					t.Errorf("n=%d extremes at %d %s = %d, %d, want %d, %d", n, j, im.name, lo, hi, wantLo, wantHi)
				}
			}
		}
	}
}

// TestBoundsAllocs checks that the fused loop allocates nothing.
func TestBoundsAllocs(t *testing.T) {
	xs := readings(extest.Rand(22, 1000), 1000)
	if a := testing.AllocsPerRun(20, func() { Bounds(xs) }); a != 0 {
		t.Errorf("Bounds allocates %v times per run, want 0", a)
	}
}

// TestUnrolledLoopHasNoBoundsChecks compiles the package with the
// compiler's bounds-check report and checks that the unrolled loop of
// Bounds (the one that steps by 4) indexes its input without checks: the
// generator writes its condition as i < n-3 so that the compiler can
// prove every index.
func TestUnrolledLoopHasNoBoundsChecks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	src, err := os.ReadFile("minmax_soac.go")
	if err != nil {
		t.Fatal(err)
	}
	// The unrolled loop: from its header to the remainder loop after it.
	first, last := 0, 0
	for i, l := range strings.Split(string(src), "\n") {
		switch {
		case first == 0 && strings.Contains(l, "for ; ") && strings.Contains(l, "+= 4"):
			first = i + 1
		case first != 0 && last == 0 && strings.HasPrefix(strings.TrimSpace(l), "for "):
			last = i + 1
		}
	}
	if first == 0 || last == 0 {
		t.Fatalf("no unrolled loop followed by a remainder loop in minmax_soac.go")
	}
	out, err := exec.Command("go", "build", "-o", os.DevNull, "-gcflags=-d=ssa/check_bce/debug=1", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, m := range regexp.MustCompile(`minmax_soac\.go:(\d+):\d+: Found IsInBounds`).FindAllStringSubmatch(string(out), -1) {
		if line, _ := strconv.Atoi(m[1]); line > first && line < last {
			t.Errorf("bounds check in the unrolled loop (lines %d-%d): %s", first, last, m[0])
		}
	}
}

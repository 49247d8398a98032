package extest

import (
	"testing"
	"time"
)

// TestTurns checks Turns' medians and ratios on known rows: the ratio is
// the median of the turns' ratios, not the ratio of the medians.
func TestTurns(t *testing.T) {
	ts := Turns{{1, 2}, {2, 8}, {4, 4}}
	if got := ts.Median(0); got != 2 {
		t.Errorf("Median(0) = %v, want 2", got)
	}
	if got := ts.Median(1); got != 4 {
		t.Errorf("Median(1) = %v, want 4", got)
	}
	// Ratios 1/0: 2, 4, 1: median 2 (the medians' ratio would be 2 too;
	// 0/1: 0.5, 0.25, 1: median 0.5, where the medians' ratio is 0.5).
	if got := ts.Ratio(1, 0); got != 2 {
		t.Errorf("Ratio(1, 0) = %v, want 2", got)
	}
	ts = Turns{{1, 3}, {3, 3}, {3, 9}}
	// Ratios 1/0: 3, 1, 3: median 3; the medians' ratio is 1.
	if got := ts.Ratio(1, 0); got != 3 {
		t.Errorf("Ratio(1, 0) = %v, want 3", got)
	}
}

// TestPairedN checks that PairedN times every function on every turn:
// a function that sleeps 2 ms reads at least that, one that returns at
// once far less, and the process CPU time of the sleep stays below its
// wall time.
func TestPairedN(t *testing.T) {
	calls := map[int]int{}
	res := testing.Benchmark(func(b *testing.B) {
		wall, cpu := PairedN(b, 2,
			func() { calls[0]++ },
			func() { calls[1]++; time.Sleep(2 * time.Millisecond) })
		if len(wall) != b.N || len(cpu) != b.N {
			b.Fatalf("%d and %d turns, want %d", len(wall), len(cpu), b.N)
		}
		if b.N > 0 && (wall.Median(1) < 2e6 || wall.Median(0) >= wall.Median(1)) {
			b.Fatalf("medians %v and %v ns, want the second at least 2 ms and above the first", wall.Median(0), wall.Median(1))
		}
		if b.N > 0 && cpu.Median(1) >= wall.Median(1) {
			b.Fatalf("CPU time of a sleep %v ns, wall %v ns", cpu.Median(1), wall.Median(1))
		}
	})
	if res.N == 0 || calls[0] != calls[1] {
		t.Fatalf("calls %v over %d turns", calls, res.N)
	}
}

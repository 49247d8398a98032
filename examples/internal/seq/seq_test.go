package seq

import (
	"reflect"
	"slices"
	"testing"
)

func TestChain(t *testing.T) {
	xs := []int{3, -1, 4, -1, 5, -9, 2, 6}
	pos := Filter(Values(xs), func(x int) bool { return x > 0 })
	sq := Map(pos, func(x int) int { return x * x })
	if got, want := slices.Collect(sq), []int{9, 16, 25, 4, 36}; !reflect.DeepEqual(got, want) {
		t.Errorf("Map(Filter) = %v, want %v", got, want)
	}
	if got := Reduce(sq, 0, func(a, b int) int { return a + b }); got != 90 {
		t.Errorf("Reduce = %d, want 90", got)
	}
	if got, want := slices.Collect(Scan(Values(xs), 10, func(a, b int) int { return a + b })),
		[]int{13, 12, 16, 15, 20, 11, 13, 19}; !reflect.DeepEqual(got, want) {
		t.Errorf("Scan = %v, want %v", got, want)
	}
	// Reduce is a left fold: subtraction shows the order.
	if got := Reduce(Values([]int{1, 2, 3}), 10, func(a, b int) int { return a - b }); got != 4 {
		t.Errorf("Reduce(-) = %d, want ((10-1)-2)-3 = 4", got)
	}
	if got, want := slices.Collect(Map2([]int{1, 2}, []string{"a", "b"}, func(n int, s string) string { return s + string(rune('0'+n)) })),
		[]string{"a1", "b2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Map2 = %v, want %v", got, want)
	}
}

// TestEarlyStop checks that every adapter stops when its consumer does.
func TestEarlyStop(t *testing.T) {
	xs := []int{1, 2, 3, 4, 5, 6}
	seqs := map[string]func(yield func(int) bool){
		"Values": Values(xs),
		"Map":    Map(Values(xs), func(x int) int { return x }),
		"Map2":   Map2(xs, xs, func(x, y int) int { return x }),
		"Filter": Filter(Values(xs), func(int) bool { return true }),
		"Scan":   Scan(Values(xs), 0, func(a, b int) int { return b }),
	}
	for name, s := range seqs {
		var got []int
		for x := range s {
			got = append(got, x)
			if x == 3 {
				break
			}
		}
		if !reflect.DeepEqual(got, []int{1, 2, 3}) {
			t.Errorf("%s: got %v before the break, want [1 2 3]", name, got)
		}
	}
}

func TestMap2Panics(t *testing.T) {
	s := Map2([]int{1}, []int{1, 2}, func(x, y int) int { return x })
	defer func() {
		if r := recover(); r != "soac.Map2: unequal lengths 1 and 2" {
			t.Errorf("panic %v", r)
		}
	}()
	for range s {
		t.Fatal("Map2 yielded on unequal lengths")
	}
}

package parallel

import (
	"sync"
	"testing"
)

// TestScratchListReuse checks that a buffer given back is handed out
// again, whole, and that a list with every slot taken drops what it is
// given rather than losing a buffer someone holds.
func TestScratchListReuse(t *testing.T) {
	s := newScratchList[int](5, 2)
	a := s.get(0)
	if len(a) != 5 {
		t.Fatalf("len(get) = %d, want 5", len(a))
	}
	a[4] = 7
	s.put(0, a)
	b := s.get(1) // another hint still finds it
	if &b[0] != &a[0] || len(b) != 5 || b[4] != 7 {
		t.Fatalf("get after put returned another buffer (%p, len %d), want %p", &b[0], len(b), &a[0])
	}
	if c := s.get(0); &c[0] == &b[0] {
		t.Fatal("a buffer already handed out was handed out again")
	}
	full := newScratchList[int](3, 1)
	x, y := full.get(0), full.get(0)
	full.put(0, x)
	full.put(0, y) // dropped: the one slot holds x
	if z := full.get(0); &z[0] != &x[0] {
		t.Fatal("the list did not keep the first buffer given back")
	}
	empty := newScratchList[int](0, 4)
	empty.put(0, empty.get(3)) // size 0: nothing to keep, no panic
}

// TestScratchListExclusive has goroutines take buffers, fill them with
// their own mark, check the mark after a yield and give them back: a
// buffer handed to two goroutines at once would show another's mark.
func TestScratchListExclusive(t *testing.T) {
	s := newScratchList[int](64, 4)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 2000 {
				buf := s.get(g + round)
				mark := g*1_000_000 + round
				for i := range buf {
					buf[i] = mark
				}
				for i := range buf {
					if buf[i] != mark {
						errs <- "a buffer was in two goroutines' hands at once"
						return
					}
				}
				s.put(g+round, buf)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

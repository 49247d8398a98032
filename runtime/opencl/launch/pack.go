package launch

// This file packs the rows of a [][]T kernel input back to back, the
// copy a call makes before its upload. One goroutine copying tens of
// megabytes into fresh memory is bound by the page faults and one core's
// copy rate (a 2048×2048 float64 matrix took longer than the kernel and
// the link together); the rows are split into parts of about equal
// bytes, each copied by its own goroutine, up to GOMAXPROCS, into memory
// allocated uncleared (parallel.Alloc: every element is written), so
// that its pages are first touched by the copying goroutines.

import (
	"runtime"
	"sort"
	"sync"
	"unsafe"
)

// packPart is the least number of bytes a packing goroutine gets: below
// it a goroutine costs more than the copy it takes over.
const packPart = 1 << 20

// packRows copies the rows of xss into dst back to back, row i at
// off[i] (off has len(xss)+1 offsets, the last the total).
func packRows[T any](dst []T, xss [][]T, off []int64) {
	total := off[len(xss)]
	var zero T
	bytes := total * int64(unsafe.Sizeof(zero))
	w := int(min(int64(runtime.GOMAXPROCS(0)), bytes/packPart))
	if w <= 1 || len(xss) < 2 {
		for i, r := range xss {
			copy(dst[off[i]:off[i+1]], r)
		}
		return
	}
	var wg sync.WaitGroup
	lo := 0
	for p := 1; p <= w && lo < len(xss); p++ {
		// The part ends at the first row that starts at or after its
		// share of the elements.
		target := total * int64(p) / int64(w)
		hi := sort.Search(len(xss), func(i int) bool { return off[i] >= target })
		if p == w {
			hi = len(xss)
		}
		if hi <= lo {
			continue
		}
		from := lo
		wg.Go(func() {
			for i := from; i < hi; i++ {
				copy(dst[off[i]:off[i+1]], xss[i])
			}
		})
		lo = hi
	}
	wg.Wait()
}

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
	"sync/atomic"
	"unsafe"

	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/pinned"
	"github.com/soacgen/soacgen/runtime/parallel"
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

// A GPU reads only page-locked host memory: rows packed into Go memory
// are copied once more, into the staging buffers, on their way up. Rows
// packs them straight into a page-locked slab of the device instead,
// which its upload sends with one direct transfer; the slabs are kept
// for later calls (allocating and locking pages costs more than the
// copy), up to slabLimit bytes in all. A CPU device, or one whose
// driver refuses the allocation, packs into Go memory as before.

// slabLimit bounds the bytes of page-locked slabs a process allocates
// for packing, per device: beyond it (many concurrent calls, or huge
// rows) the rows are packed into Go memory. The slabs are kept until the
// process exits: page-locked memory is taken from what the system can
// page, so the bound is kept small (the two 32 MB inputs of each of four
// concurrent 2048² float64 products).
const slabLimit = 256 << 20

// slabs are the packing slabs of one device.
type slabs struct {
	mu       sync.Mutex
	free     [][]byte
	held     int64 // bytes of every slab allocated
	unpinned bool  // the device gives no page-locked memory
}

var (
	slabsMu    sync.Mutex
	slabsByDev = map[*device.Device]*slabs{}
)

// slabRef is a slab lent to one call: returned once, by the call's
// release, or by the collector's cleanup when the call never ran.
type slabRef struct {
	pool *slabs
	b    []byte
	done *atomic.Bool
}

// put returns the slab to its pool, once.
func (r *slabRef) put() {
	if r == nil || !r.done.CompareAndSwap(false, true) {
		return
	}
	r.pool.mu.Lock()
	r.pool.free = append(r.pool.free, r.b)
	r.pool.mu.Unlock()
}

// takeSlab lends a page-locked slab of at least n bytes of device d (at
// most twice that, so that a large slab is not spent on small rows), or
// returns nil when there is none to lend.
func takeSlab(d *device.Device, n int) *slabRef {
	if d == nil || n < packPart {
		return nil
	}
	slabsMu.Lock()
	p := slabsByDev[d]
	if p == nil {
		p = &slabs{}
		slabsByDev[d] = p
	}
	slabsMu.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.unpinned {
		return nil
	}
	best := -1
	for i, b := range p.free {
		if len(b) >= n && len(b) <= 2*n && (best < 0 || len(b) < len(p.free[best])) {
			best = i
		}
	}
	var b []byte
	switch {
	case best >= 0:
		b = p.free[best]
		p.free = append(p.free[:best], p.free[best+1:]...)
	case p.held+int64(n) <= slabLimit:
		s, ok := allocSlab(d, n)
		if !ok {
			p.unpinned = true
			return nil
		}
		p.held += int64(n)
		b = s
	default:
		return nil
	}
	r := &slabRef{pool: p, b: b, done: new(atomic.Bool)}
	// A call that drops its arguments without running returns the slab
	// when they are collected (the cleanup must not hold r itself).
	pool, done := p, r.done
	runtime.AddCleanup(r, func(b []byte) {
		(&slabRef{pool: pool, b: b, done: done}).put()
	}, b)
	return r
}

// allocSlab allocates a page-locked slab of n bytes of d, or reports
// that d gives none (a CPU device, or a driver that refused). Tests
// replace it to exercise the slabs without a GPU.
var allocSlab = func(d *device.Device, n int) ([]byte, bool) {
	s, free := pinned.MakeOn[byte](d, n)
	if !pinned.Is(s) {
		free()
		return nil, false
	}
	return s, true
}

// packInto returns the memory rows of total elements of T are packed
// into: a page-locked slab of the default device where it lends one
// (with the slab, which the call's release returns), else uncleared Go
// memory.
func packInto[T any](total int64) ([]T, *slabRef) {
	var zero T
	size := int(total) * int(unsafe.Sizeof(zero))
	if d, err := device.Default(); err == nil {
		if r := takeSlab(d, size); r != nil {
			return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(r.b))), total), r
		}
	}
	return parallel.Alloc[T](int(total)), nil
}

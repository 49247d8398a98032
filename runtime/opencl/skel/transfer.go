package skel

// This file moves Go slices to and from device buffers through pinned
// staging memory. It does not decide what a run uploads (host.go does)
// and keeps no device data between runs.
//
// A write from pageable Go memory makes the driver copy it into its own
// pinned buffers first, with one thread, before the DMA engine can read
// it. Here each transfer is cut into pieces (an eighth of it, 16 to 32
// MiB) that alternate between two staging buffers allocated with
// CL_MEM_ALLOC_HOST_PTR and mapped once (page-locked host memory on
// discrete GPUs): while the DMA engine moves piece i from one buffer,
// several goroutines copy piece i+1 into the other, so that the host
// copy overlaps the DMA. The copy, which shares the host's memory
// bandwidth with the DMA, then bounds the transfer: on the H100's host
// the copy alone reaches at most 80% of the link (BenchmarkTransfer's
// copy/host-staged), a staged transfer 62-65%; slices in pinned memory
// move at the link's speed. Downloads run the same pipeline the other
// way. Slices
// that package pinned allocated are page-locked already: they skip the
// pipeline and move with one transfer each (write, read).

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/pinned"
)

// Staging policy. Each constant says why it has its value.
const (
	// stageChunk: 32 MiB per chunk keeps the per-transfer overhead (tens
	// of microseconds) under 1% at ~10 GB/s, while the first chunk's
	// unhidden host copy costs about a millisecond.
	stageChunk = 32 << 20
	// stageMin: below 4 MiB a transfer takes well under a millisecond
	// either way; staging would only add the host copy.
	stageMin = 4 << 20
	// stagePieces: a transfer of up to stagePieces chunks is cut into
	// stagePieces pieces (of at least stagePieceMin bytes), so that the
	// host copy of one piece overlaps the DMA of the previous one even
	// when the whole transfer fits in one chunk. With one piece a chunk
	// the copy and the DMA of a 32 MiB transfer ran one after the other:
	// on the H100's host, PrefixSumsCL over 2^22 ints spent about half of
	// its 3.5 ms end to end in runtime.memmove (72% of its CPU profile).
	stagePieces = 8
	// stagePieceMin: each transfer enqueued on the H100 costs about 65 µs
	// more than its bytes (eight 4 MiB pieces each way made PrefixSumsCL
	// 1 ms slower, 3.5 → 4.6 ms); 16 MiB pieces (two for 32 MiB) gained
	// 7-9% end to end over one: PrefixSums 3.62 → 3.29 ms, SumSq 1.66 →
	// 1.55, FilterMax 4.85 → 4.50 (H100, 2026-11-26).
	stagePieceMin = 16 << 20
	// copyPart: the least each copying goroutine gets; smaller copies run
	// on the calling goroutine. A 4 MiB copy is split 8 ways.
	copyPart = 512 << 10
)

// pieceLen returns the bytes a staged transfer of total bytes moves per
// piece under pol: total/stagePieces rounded up to a page, at least
// pol.pieceMin and at most pol.chunk (its staging buffers' size).
func (pol stagePolicy) pieceLen(total int) int {
	p := (total + stagePieces - 1) / stagePieces
	p = (p + 4095) &^ 4095
	return min(pol.chunk, max(pol.pieceMin, p))
}

// copyWorkersUp and copyWorkersDown are the most goroutines per host
// copy of an upload and of a download. A core copies 5-10 GB/s
// (on the 2-core VM and the H100's host) and the H100's link moves 55 GB/s each way from
// pinned memory (BenchmarkLink), so the host copy, which shares the
// host's memory bandwidth with the DMA, bounds a staged transfer. On the
// H100's host (16 cores), uploading 1 GiB ran at 28.6, 35.8 and 33.8
// GB/s with 4, 8 and 16 goroutines, downloading at 22.8, 28.3 and 35.1
// (BenchmarkTransfer). Variables, so that benchmarks can vary them.
var copyWorkersUp, copyWorkersDown = 8, 16

// stagePolicy says whether and how transfers of a device are staged.
type stagePolicy struct {
	on       bool
	chunk    int // bytes per staging buffer: the largest piece
	min      int // smallest staged transfer in bytes
	pieceMin int // smallest piece in bytes (pieceLen)
}

// stageOverride, when set (by tests, to stage on CPU devices with small
// chunks), replaces the policy.
var stageOverride *stagePolicy

// policyFor stages on GPUs, whose transfers cross a link; CPU devices
// share host memory, where staging would only add a copy.
func policyFor(d *device.Device) stagePolicy {
	if stageOverride != nil {
		return *stageOverride
	}
	return stagePolicy{on: d.Info.IsGPU(), chunk: stageChunk, min: stageMin, pieceMin: stagePieceMin}
}

// stager holds one device's two mapped staging buffers. Transfers hold
// mu from their first chunk to their last.
type stager struct {
	mu   sync.Mutex
	bufs [2]*cl.MemObject
	host [2][]byte // the buffers' mappings, valid for the process
}

type stagerKey struct {
	d     *device.Device
	chunk int
	role  int // 0: every transfer's; 1: a pipelined run's downloads (overlap.go)
}

var (
	stagersMu sync.Mutex
	stagers   = map[stagerKey]*stager{}
)

// stagerFor returns the device's stager for chunks of the given size,
// creating and mapping its buffers on first use.
func stagerFor(d *device.Device, chunk int) (*stager, error) {
	return stagerRole(d, chunk, 0)
}

// stagerRole is stagerFor with the stager's role: a pipelined run
// (overlap.go) holds role 0's for its uploads and role 1's for its
// downloads from its first piece to its last.
func stagerRole(d *device.Device, chunk, role int) (*stager, error) {
	stagersMu.Lock()
	defer stagersMu.Unlock()
	k := stagerKey{d, chunk, role}
	if s := stagers[k]; s != nil {
		return s, nil
	}
	s := new(stager)
	for i := range s.bufs {
		b, err := d.Ctx.CreateEmptyBuffer(cl.MemReadWrite|cl.MemAllocHostPtr, chunk)
		if err != nil {
			return nil, err
		}
		host, ev, err := d.Queue.EnqueueMapBuffer(b, true, cl.MapRead|cl.MapWrite, 0, chunk, nil)
		if err != nil {
			b.Release()
			return nil, err
		}
		ev.Release()
		s.bufs[i], s.host[i] = b, host
	}
	stagers[k] = s
	return s, nil
}

// parallelCopy copies src to dst (of equal length) with up to workers
// goroutines.
func parallelCopy(dst, src []byte, workers int) {
	w := min(workers, runtime.GOMAXPROCS(0), len(src)/copyPart)
	if w <= 1 {
		copy(dst, src)
		return
	}
	var wg sync.WaitGroup
	part := (len(src) + w - 1) / w
	for lo := 0; lo < len(src); lo += part {
		hi := min(lo+part, len(src))
		wg.Add(1)
		go func() {
			defer wg.Done()
			copy(dst[lo:hi], src[lo:hi])
		}()
	}
	wg.Wait()
}

// stagedWrite copies src into b from offset 0 through the staging
// buffers of pol, in pieces of pol.pieceLen bytes, and returns when b
// holds it.
func (r *run) stagedWrite(b *cl.MemObject, src []byte, pol stagePolicy) error {
	s, err := stagerFor(r.dev, pol.chunk)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	piece := pol.pieceLen(len(src))
	var pending [2]*cl.Event
	for i, off := 0, 0; off < len(src); i, off = i+1, off+piece {
		c := min(piece, len(src)-off)
		slot := i % 2
		if e := pending[slot]; e != nil {
			if err := e.Wait(); err != nil {
				return err
			}
		}
		parallelCopy(s.host[slot][:c], src[off:off+c], copyWorkersUp)
		e, err := r.q.EnqueueWriteBuffer(b, false, off, s.host[slot][:c], nil)
		if err != nil {
			return err
		}
		r.transfers = append(r.transfers, e)
		pending[slot] = e
		if err := r.q.Flush(); err != nil {
			return err
		}
	}
	for _, e := range pending {
		if e != nil {
			if err := e.Wait(); err != nil {
				return err
			}
		}
	}
	return nil
}

// stagedRead copies the first len(dst) bytes of b into dst through the
// staging buffers: the DMA of chunk i runs while chunk i-1 is copied out.
func (r *run) stagedRead(b *cl.MemObject, dst []byte, pol stagePolicy) error {
	s, err := stagerFor(r.dev, pol.chunk)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var prev *cl.Event
	prevSlot, prevOff, prevLen := 0, 0, 0
	drain := func() error {
		if prev == nil {
			return nil
		}
		if err := prev.Wait(); err != nil {
			return err
		}
		parallelCopy(dst[prevOff:prevOff+prevLen], s.host[prevSlot][:prevLen], copyWorkersDown)
		prev = nil
		return nil
	}
	piece := pol.pieceLen(len(dst))
	for i, off := 0, 0; off < len(dst); i, off = i+1, off+piece {
		c := min(piece, len(dst)-off)
		slot := i % 2
		e, err := r.q.EnqueueReadBuffer(b, false, off, s.host[slot][:c], nil)
		if err != nil {
			return err
		}
		r.reads = append(r.reads, e)
		if err := r.q.Flush(); err != nil {
			return err
		}
		if err := drain(); err != nil {
			return err
		}
		prev, prevSlot, prevOff, prevLen = e, slot, off, c
	}
	return drain()
}

// DirectTransfers returns how many transfers since the process started
// moved memory of package pinned with one clEnqueueWriteBuffer or
// clEnqueueReadBuffer from or into the caller's slice, without staging
// (tests read it to see the direct path taken).
func DirectTransfers() int64 { return directN.Load() }

var directN atomic.Int64

// write copies src into b from offset 0 and returns when b holds it: with
// one write from src where src lies wholly inside pinned memory of r's
// device (package pinned: page-locked already, so the DMA reads it in
// place), through the staging buffers where the device's policy stages,
// else with one write from src (the driver stages pageable memory
// itself).
func (r *run) write(b *cl.MemObject, src []byte) error {
	if pinned.Contains(r.dev, src) {
		directN.Add(1)
	} else if pol := policyFor(r.dev); pol.on && len(src) >= pol.min {
		return r.stagedWrite(b, src, pol)
	}
	e, err := r.q.EnqueueWriteBuffer(b, true, 0, src, nil)
	if err != nil {
		return err
	}
	r.transfers = append(r.transfers, e)
	return nil
}

// read copies the first len(dst) bytes of b into dst, choosing its path
// as write does.
func (r *run) read(b *cl.MemObject, dst []byte) error {
	if pinned.Contains(r.dev, dst) {
		directN.Add(1)
	} else if pol := policyFor(r.dev); pol.on && len(dst) >= pol.min {
		return r.stagedRead(b, dst, pol)
	}
	e, err := r.q.EnqueueReadBuffer(b, true, 0, dst, nil)
	if err != nil {
		return err
	}
	r.reads = append(r.reads, e)
	return nil
}

// Write copies src into b from offset 0 as run.write does (directly from
// pinned memory, staged on GPUs for transfers of stageMin bytes or more)
// and returns when b holds it, with the copies' device time. It is how
// package launch uploads the captured slices of generated kernels.
func Write(d *device.Device, b *cl.MemObject, src []byte) (time.Duration, error) {
	t, err := doRun(d, func(r *run) error {
		if len(src) == 0 {
			return nil
		}
		return r.write(b, src)
	})
	return t.Transfer, err
}

// Read copies the first len(dst) bytes of b into dst as Write does, and
// returns the copies' device time.
func Read(d *device.Device, b *cl.MemObject, dst []byte) (time.Duration, error) {
	t, err := doRun(d, func(r *run) error {
		if len(dst) == 0 {
			return nil
		}
		return r.read(b, dst)
	})
	return t.Transfer, err
}

package skel

// This file runs a map-reduce over host inputs in pieces so that the
// link and the device work at the same time: while the kernel runs over
// piece i on the device's queue, piece i+1's inputs move up on a second
// queue and piece i-1's outputs move down on a third, each command
// waiting for the events of the commands it needs (cross-queue event
// dependencies). Each piece's stage-1 kernel writes its reductions'
// partials at its own slots of one buffer; one stage-2 kernel folds them
// all, in piece order, after the last piece. It does not decide what a
// run uploads (host.go does) nor how a single transfer is staged
// (transfer.go does; a pipelined run keeps the staging buffers between
// its pieces so that their host copies stay pipelined with the DMA).
//
// The pieces depend on n and the kernel's bytes per element only, never
// on timing, so a run's results are the same from run to run. They
// differ from the uncut run's only in how floating-point reductions
// associate: the partials are those of each piece's groups
// (docs/contract.md "Equivalence": opencl may re-associate).

import (
	"fmt"
	"sync"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/pinned"
)

// Piece policy. Each constant says why it has its value.
const (
	// PieceBytes: each transfer of a piece moves at least 16 MiB (the
	// smallest array it moves: a piece's inputs up, its outputs down).
	// At the H100's 55 GB/s that is 0.3 ms of link against what a
	// transfer costs beyond its bytes (7-16 µs a piece on PoCL,
	// BenchmarkPieceCost; up to ~65 µs a transfer on the H100, as the
	// staged pieces of transfer.go measured), while a run moving 32 MiB
	// (two pieces) already hides one piece's transfer behind the other's
	// kernel.
	PieceBytes = 16 << 20
	// MaxPieces: beyond 32 pieces they grow. Of a long transfer, the
	// first piece's upload and the last one's download stay unhidden
	// (2/32 of it) and each piece pays its overhead once: at ~65 µs a
	// transfer, 1 GiB each way runs at about 86% of the link in 32
	// pieces of 32 MiB, 80% in 64 of 16 MiB, 83% in 16 of 64 MiB.
	MaxPieces = 32
)

// piecePolicy says whether and how runs over host inputs are cut.
type piecePolicy struct {
	on    bool
	bytes int // least bytes of each transfer of a piece
	most  int // most pieces
	// pinnedOnly cuts only runs whose moved host slices all lie in
	// pinned memory of the device (package pinned). On the H100 a cut
	// run from pageable Go memory was slower than an uncut one (clbench
	// BenchmarkOverlap at 2^26: SumSq 62-65% of the link uncut, 50-51%
	// cut; Dot 59-63 against 50-51; PortfolioValue 64-66 against 57-58):
	// its pieces' staged copies queue on the device's two staging
	// buffers and share the host's memory bandwidth with the DMA, so the
	// host copies, not the link, bound it (1 GiB copied alone by 16
	// goroutines: 80% of the link). From pinned memory the same cut runs
	// reach 91-100% (CallPrices 66-68% → 92%).
	pinnedOnly bool
}

// pieceOverride, when set (by tests: several pieces at small n on a CPU
// device; by benchmarks: off, or other sizes), replaces the policy.
var pieceOverride *piecePolicy

// SetPieces replaces, until the returned function restores it, the
// policy that cuts runs over host data into pieces: bytes > 0 cuts
// every run whose smallest moved array has at least twice that many
// bytes, on any device, into at most most pieces (at least 2) of at
// least bytes of that array; bytes == 0 cuts none. The default on GPUs
// is SetPieces(PieceBytes, MaxPieces). For tests (several pieces at
// small n) and benchmarks (with and without overlap); not safe beside
// running kernels.
func SetPieces(bytes, most int) (restore func()) {
	old := pieceOverride
	pieceOverride = &piecePolicy{on: bytes > 0, bytes: bytes, most: max(most, 2)}
	return func() { pieceOverride = old }
}

// piecePolicyFor cuts runs on GPUs, where transfers cross a link that
// can work beside the kernels. On CPU devices (PoCL) a transfer is a
// host memcpy on the cores and memory the kernel uses: there is nothing
// to hide it behind, and BenchmarkOverlap measured cut and uncut runs
// there within the noise of a shared machine (PoCL on the 2-core
// VM, 2026-11-26), so runs stay uncut.
func piecePolicyFor(d *device.Device) piecePolicy {
	if pieceOverride != nil {
		return *pieceOverride
	}
	return piecePolicy{on: d.Info.IsGPU(), bytes: PieceBytes, most: MaxPieces, pinnedOnly: true}
}

// cuts reports whether pol may cut a run on d moving the host slices of
// hss (empty ones move nothing): always, unless pol.pinnedOnly and one
// of them is not wholly pinned memory of d.
func (pol piecePolicy) cuts(d *device.Device, hss ...[]HostSlice) bool {
	if !pol.pinnedOnly {
		return true
	}
	for _, hs := range hss {
		for _, h := range hs {
			if h.bytes != nil && !pinned.Contains(d, h.bytes) {
				return false
			}
		}
	}
	return true
}

// runPieceLen returns the length of the pieces a run over n elements is
// cut into (run pieces, not the staged pieces of one transfer) when the
// smallest array it moves has elements of elem bytes, or 0 when the run
// is not cut (fewer than two pieces of pol.bytes of that array). The
// length depends on n, elem and the policy only, never on timing.
func runPieceLen(pol piecePolicy, n, elem int) int {
	if !pol.on || elem == 0 || pol.bytes <= 0 {
		return 0
	}
	count := min(n*elem/pol.bytes, pol.most)
	if count < 2 {
		return 0
	}
	return (n + count - 1) / count
}

// transferQueues are a device's queues for the uploads and downloads of
// pipelined runs, beside the device's own queue, which runs the kernels.
type transferQueues struct {
	up, down *cl.CommandQueue
}

var (
	queuesMu sync.Mutex
	queues   = map[*device.Device]*transferQueues{}
)

// queuesFor returns d's transfer queues, creating them on first use
// (in order, with profiling, as d.Queue).
func queuesFor(d *device.Device) (*transferQueues, error) {
	queuesMu.Lock()
	defer queuesMu.Unlock()
	if q := queues[d]; q != nil {
		return q, nil
	}
	up, err := d.Ctx.CreateCommandQueue(d.CL, cl.CommandQueueProfilingEnable)
	if err != nil {
		return nil, err
	}
	down, err := d.Ctx.CreateCommandQueue(d.CL, cl.CommandQueueProfilingEnable)
	if err != nil {
		up.Release()
		return nil, err
	}
	q := &transferQueues{up: up, down: down}
	queues[d] = q
	return q, nil
}

// pieceEvent is what a pipelined run did for one piece, reported to
// pieceTrace: the command's kind ("up", "kernel", "down"), the piece,
// the event of the command and those it waited for.
type pieceEvent struct {
	kind  string
	piece int
	ev    *cl.Event
	wait  []*cl.Event
}

// pieceTrace, when set (by tests), sees every command of a pipelined
// run as it is enqueued.
var pieceTrace func(pieceEvent)

func trace(kind string, piece int, ev *cl.Event, wait []*cl.Event) {
	if pieceTrace != nil {
		pieceTrace(pieceEvent{kind, piece, ev, wait})
	}
}

// lane moves a pipelined run's pieces in one direction on one queue. A
// staged lane holds its stager from its first staged transfer to close,
// so that piece i+1's first chunk is copied while piece i's last moves.
type lane struct {
	r     *run
	q     *cl.CommandQueue
	pol   stagePolicy
	role  int          // the stager's (stagerRole)
	evs   *[]*cl.Event // where the lane's events are recorded for finish
	st    *stager      // locked while set
	slot  int          // the staging buffer the next chunk uses
	flow  [2]*cl.Event // uploads: the last DMA out of each staging buffer
	async []*cl.Event  // direct transfers, waited for by close
	// prev is the download chunk in flight: its event, staging buffer
	// and destination, copied out when the next chunk is enqueued.
	prev     *cl.Event
	prevSlot int
	prevDst  []byte
}

// stage locks the lane's stager on first use.
func (l *lane) stage() error {
	if l.st != nil {
		return nil
	}
	s, err := stagerRole(l.r.dev, l.pol.chunk, l.role)
	if err != nil {
		return err
	}
	s.mu.Lock()
	l.st = s
	return nil
}

// direct reports whether a transfer from or into the host memory h moves
// with one command (pinned memory, no staging, or fewer bytes than the
// staging policy's minimum), counting the pinned ones as run.write does.
func (l *lane) direct(h []byte) bool {
	if pinned.Contains(l.r.dev, h) {
		directN.Add(1)
		return true
	}
	return !l.pol.on || len(h) < l.pol.min
}

// write enqueues the copy of src into b at byte offset off and returns
// the event of its last command; src may be reused once that completes
// (staged: at once, since the DMA reads the staging buffer).
func (l *lane) write(b *cl.MemObject, off int, src []byte) (*cl.Event, error) {
	if l.direct(src) {
		e, err := l.q.EnqueueWriteBuffer(b, false, off, src, nil)
		if err != nil {
			return nil, err
		}
		*l.evs = append(*l.evs, e)
		l.async = append(l.async, e)
		return e, l.q.Flush()
	}
	if err := l.stage(); err != nil {
		return nil, err
	}
	var last *cl.Event
	for o := 0; o < len(src); o += l.pol.chunk {
		c := min(l.pol.chunk, len(src)-o)
		slot := l.slot
		l.slot ^= 1
		if e := l.flow[slot]; e != nil {
			if err := e.Wait(); err != nil {
				return nil, err
			}
		}
		parallelCopy(l.st.host[slot][:c], src[o:o+c], copyWorkersUp)
		e, err := l.q.EnqueueWriteBuffer(b, false, off+o, l.st.host[slot][:c], nil)
		if err != nil {
			return nil, err
		}
		*l.evs = append(*l.evs, e)
		l.flow[slot], last = e, e
		if err := l.q.Flush(); err != nil {
			return nil, err
		}
	}
	return last, nil
}

// read enqueues the copy of b at byte offset off into dst once the
// commands of wait have completed. dst holds it after close.
func (l *lane) read(b *cl.MemObject, off int, dst []byte, wait []*cl.Event) error {
	if l.direct(dst) {
		e, err := l.q.EnqueueReadBuffer(b, false, off, dst, wait)
		if err != nil {
			return err
		}
		*l.evs = append(*l.evs, e)
		l.async = append(l.async, e)
		return l.q.Flush()
	}
	if err := l.stage(); err != nil {
		return err
	}
	for o := 0; o < len(dst); o += l.pol.chunk {
		c := min(l.pol.chunk, len(dst)-o)
		slot := l.slot
		l.slot ^= 1
		// The buffer's previous chunk was copied out when the chunk
		// after it was enqueued (drain below), so slot is free.
		e, err := l.q.EnqueueReadBuffer(b, false, off+o, l.st.host[slot][:c], wait)
		if err != nil {
			return err
		}
		*l.evs = append(*l.evs, e)
		if err := l.q.Flush(); err != nil {
			return err
		}
		if err := l.drain(); err != nil {
			return err
		}
		l.prev, l.prevSlot, l.prevDst = e, slot, dst[o:o+c]
	}
	return nil
}

// drain copies the download chunk in flight out of its staging buffer.
func (l *lane) drain() error {
	if l.prev == nil {
		return nil
	}
	e := l.prev
	l.prev = nil
	if err := e.Wait(); err != nil {
		return err
	}
	parallelCopy(l.prevDst, l.st.host[l.prevSlot][:len(l.prevDst)], copyWorkersDown)
	return nil
}

// close waits for every command of the lane (also after an error, so
// that no DMA still reads or writes host memory or a staging buffer),
// copies out the last staged download and unlocks the stager. It
// returns the first error.
func (l *lane) close() error {
	err := l.drain()
	for _, e := range append(l.flow[:], l.async...) {
		if e != nil {
			if werr := e.Wait(); err == nil {
				err = werr
			}
		}
	}
	if l.st != nil {
		l.st.mu.Unlock()
		l.st = nil
	}
	return err
}

// piece is one piece of a pipelined run: elements lo..hi-1, its launch
// geometry and the first of its partial slots.
type piece struct {
	lo, hi int
	p      plan
	pbase  int64
}

// runPieces is RunArgs's device part cut into pieces of length size
// (runPieceLen): inputs uploaded, the kernel run and outputs downloaded
// piece by piece on three queues, then the reductions' one stage 2 and
// their download.
func (k *RedomapKernel) runPieces(r *run, size int, vals []any, inputs, outputs, results []HostSlice) error {
	ins, err := r.buffersFor(inputs)
	if err != nil {
		return err
	}
	outs, err := r.buffersFor(outputs)
	if err != nil {
		return err
	}
	res, err := r.buffersFor(results)
	if err != nil {
		return err
	}
	if err := k.pieces(r, size, inputs[0].n, vals, ins, inputs, outs, outputs, res); err != nil {
		return err
	}
	for i, h := range results {
		if err := r.download(res[i], h); err != nil {
			return err
		}
	}
	return nil
}

// pieces runs the kernel over n elements of the buffers ins, writing
// outs and res, cut into pieces of length size: before piece i's
// kernel, piece i of up[j] is uploaded into ins[j] (none where up[j] is
// empty: ins[j] holds the input already); after it, piece i of outs[j]
// is downloaded into down[j] (none where down[j] is empty). The
// reductions' stage 2 runs after the last piece.
func (k *RedomapKernel) pieces(r *run, size, n int, vals []any, ins []*cl.MemObject, up []HostSlice, outs []*cl.MemObject, down []HostSlice, res []*cl.MemObject) error {
	s := k.spec
	if err := checkBuffers(n, ins, outs, res, s.Inputs, s.Outputs, s.Reductions); err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	if err := checkVals(vals, s.Args); err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	var pcs []piece
	var slots int64
	for lo := 0; lo < n; lo += size {
		hi := min(lo+size, n)
		p := k.plan(hi - lo)
		pcs = append(pcs, piece{lo: lo, hi: hi, p: p, pbase: slots})
		slots += int64(p.groups)
	}
	parts := make([]*cl.MemObject, len(s.Reductions))
	for i, red := range s.Reductions {
		var err error
		if parts[i], err = r.buffer(int(slots) * red.Type.Size); err != nil {
			return err
		}
	}
	qs, err := queuesFor(r.dev)
	if err != nil {
		return err
	}
	pol := policyFor(r.dev)
	ul := &lane{r: r, q: qs.up, pol: pol, role: 0, evs: &r.transfers}
	dl := &lane{r: r, q: qs.down, pol: pol, role: 1, evs: &r.reads}
	err = k.pipeline(r, pcs, ul, dl, vals, up, down, ins, outs, parts)
	if cerr := ul.close(); err == nil {
		err = cerr
	}
	if cerr := dl.close(); err == nil {
		err = cerr
	}
	if err != nil || len(s.Reductions) == 0 {
		return err
	}
	return r.launchStage2(k.prog.kernels[s.Name+"_stage2"], pcs[0].p.local, slots, parts, res, s.Reductions)
}

// pipeline enqueues the pieces: piece i+1's uploads and kernel before
// piece i's downloads, so that the link moves i+1 up while the device
// runs i, and i down while it runs i+1.
func (k *RedomapKernel) pipeline(r *run, pcs []piece, ul, dl *lane, vals []any, up, down []HostSlice, ins, outs, parts []*cl.MemObject) error {
	s := k.spec
	kev := make([]*cl.Event, len(pcs))
	start := func(i int) error {
		pc := pcs[i]
		var wait []*cl.Event
		for j, h := range up {
			if h.bytes == nil {
				continue
			}
			e, err := ul.write(ins[j], pc.lo*h.elem, h.bytes[pc.lo*h.elem:pc.hi*h.elem])
			if err != nil {
				return err
			}
			trace("up", i, e, nil)
			wait = append(wait, e)
		}
		args := append([]any{int64(pc.hi), pc.p.chunk, int64(pc.lo), pc.pbase}, vals...)
		for _, b := range ins {
			args = append(args, b)
		}
		for _, b := range outs {
			args = append(args, b)
		}
		for _, b := range parts {
			args = append(args, b)
		}
		args = append(args, stage1Locals(pc.p.local, s.Reductions, k.layout)...)
		e, err := r.launchAfter(k.prog.kernels[s.Name+"_stage1"], pc.p.groups*pc.p.local, pc.p.local, wait, args...)
		if err != nil {
			return err
		}
		trace("kernel", i, e, wait)
		kev[i] = e
		return r.q.Flush()
	}
	if err := start(0); err != nil {
		return err
	}
	for i, pc := range pcs {
		if i+1 < len(pcs) {
			if err := start(i + 1); err != nil {
				return err
			}
		}
		wait := []*cl.Event{kev[i]}
		for j, h := range down {
			if h.bytes == nil {
				continue
			}
			trace("down", i, nil, wait)
			if err := dl.read(outs[j], pc.lo*h.elem, h.bytes[pc.lo*h.elem:pc.hi*h.elem], wait); err != nil {
				return err
			}
		}
	}
	return nil
}

// RunDeviceHost is RunDeviceArgs with transfers: before the kernel, each
// non-empty up[j] (n elements) is uploaded into inputs[j] (an empty one
// leaves inputs[j] as it is: the input is on the device already); after
// it, outputs[j] is downloaded into each non-empty down[j] (n elements;
// an empty one keeps the output on the device only). The reductions'
// results stay in results. Where the device's policy cuts the run
// (runPieceLen; on GPUs only when every moved host slice is pinned
// memory: piecePolicy.cuts), the transfers of each
// piece overlap the kernel's other pieces. Package launch runs a
// Session's kernels (RunOn) through it.
func (k *RedomapKernel) RunDeviceHost(n int, vals []any, inputs []*cl.MemObject, up []HostSlice, outputs []*cl.MemObject, down []HostSlice, results []*cl.MemObject) (Timing, error) {
	s := k.spec
	if len(up) != len(inputs) || len(down) != len(outputs) {
		return Timing{}, fmt.Errorf("%s: %d uploads for %d inputs, %d downloads for %d outputs", s.Name, len(up), len(inputs), len(down), len(outputs))
	}
	least := 0 // the smallest moved element, in bytes
	for _, c := range []struct {
		hs []HostSlice
		ps []Param
	}{{up, s.Inputs}, {down, s.Outputs}} {
		for j, h := range c.hs {
			if h.bytes == nil {
				continue
			}
			if h.n != n || j >= len(c.ps) || h.elem != c.ps[j].Type.Size {
				return Timing{}, fmt.Errorf("%s: a host slice of %d elements of %d bytes for %d elements", s.Name, h.n, h.elem, n)
			}
			if least == 0 || h.elem < least {
				least = h.elem
			}
		}
	}
	size := 0
	if pol := piecePolicyFor(k.prog.dev); n > 0 && pol.cuts(k.prog.dev, up, down) {
		size = runPieceLen(pol, n, least)
	}
	return k.prog.do(func(r *run) error {
		if size > 0 {
			return k.pieces(r, size, n, vals, inputs, up, outputs, down, results)
		}
		for j, h := range up {
			if h.bytes != nil && n > 0 {
				if err := r.write(inputs[j], h.bytes); err != nil {
					return err
				}
			}
		}
		if err := k.enqueue(r, n, vals, inputs, outputs, results); err != nil {
			return err
		}
		for j, h := range down {
			if h.bytes != nil && n > 0 {
				if err := r.read(outputs[j], h.bytes); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

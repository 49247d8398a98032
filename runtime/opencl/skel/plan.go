package skel

import (
	"fmt"
	"math/bits"
	"time"

	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// Layout says how the elements of a work-group's block are split among its
// work-items for the sequential part of a reduction.
type Layout int

const (
	// Auto picks Interleaved when every reduction is commutative and
	// Chunked otherwise.
	Auto Layout = iota
	// Chunked gives each work-item one contiguous chunk, folded
	// sequentially in order: the efficient sequentialisation of Henriksen et al., "Futhark: Purely Functional GPU-Programming with Nested Parallelism and In-Place Array Updates" (2017) [Futhark-PLDI17]. It
	// is valid for any associative operator, but on a GPU the work-items
	// of a warp then read addresses chunk elements apart, so loads are not
	// coalesced.
	Chunked
	// Interleaved has work-item t of a group read elements t, t+L,
	// t+2L, ... of the group's block: consecutive work-items read
	// consecutive addresses (coalesced on GPUs, unit-stride across the
	// work-item loop that CPU implementations vectorise). Elements are
	// folded out of order, so every operator must be commutative.
	Interleaved
	// Tiled keeps Chunked's order (each work-item folds one contiguous
	// run, so any associative operator works) but loads coalesced: in
	// each round the group loads the next tiledRun elements of every
	// work-item's run together (a warp reads whole runs of 64 bytes or
	// more), stores the values into local memory, and each work-item then
	// folds its own run from there. Redomap uses it on GPUs when an
	// operator is not declared commutative.
	Tiled
)

// String names the layout.
func (l Layout) String() string {
	switch l {
	case Chunked:
		return "chunked"
	case Interleaved:
		return "interleaved"
	case Tiled:
		return "tiled"
	}
	return "auto"
}

// commutative reports whether every reduction of reds is commutative.
func commutative(reds []Reduction) bool {
	for _, r := range reds {
		if !r.Commutative {
			return false
		}
	}
	return true
}

// autoLayout is what Auto resolves to: Interleaved on GPUs when every
// operator commutes (coalesced loads), Chunked otherwise, and Chunked on
// CPU devices, where measurements with PoCL (BENCHMARKS.md) show one
// contiguous run per work-item streaming 2-3 times faster than
// interleaved access.
func autoLayout(gpu bool, reds []Reduction) Layout {
	if gpu && commutative(reds) {
		return Interleaved
	}
	return Chunked
}

// redomapLayout is what Auto resolves to for a Redomap: autoLayout,
// except that on GPUs a non-commutative operator gets Tiled, since
// Chunked's loads are not coalesced there (half the bandwidth on the
// H100: BENCHMARKS.md's skeleton table).
func redomapLayout(gpu bool, reds []Reduction) Layout {
	if gpu && !commutative(reds) {
		return Tiled
	}
	return autoLayout(gpu, reds)
}

// tiledRun is the elements of each work-item's run that a Tiled round
// loads: 16, a power of two (cheap division). On the H100
// (BenchmarkTiledSweep, 2^28 float32 or 2^27 float64 summed) 16 beat 8
// and 32 for both types: float32 1786 GB/s against 1628 and 1097,
// float64 1863 against 1603 and 1179; 32 needs so much local memory per
// work-item that the groups shrink to 128 or 64 work-items.
// tiledRunOverride, when set (by benchmarks), replaces it.
func tiledRun() int {
	if tiledRunOverride > 0 {
		return tiledRunOverride
	}
	return 16
}

var tiledRunOverride int

// alignChunk rounds the plan's chunk up to a multiple of a (so that
// every work-item's run starts a Tiled round on an aligned address) and
// recounts the groups over n elements.
func (p plan) alignChunk(a, n int64) plan {
	p.chunk = (p.chunk + a - 1) / a * a
	p.groups = int(max((n+int64(p.local)*p.chunk-1)/(int64(p.local)*p.chunk), 1))
	return p
}

// plan is the launch geometry of one run: groups work-groups of size
// local, each owning a block of local*chunk consecutive elements.
type plan struct {
	local  int   // work-items per group, a power of two
	groups int   // work-groups of the first stage
	chunk  int64 // elements per work-item
}

// Tuning knobs derived from the device. Each says why it has its value.
const (
	// warpsPerGroup: a group is this many times the kernel's preferred
	// size multiple (the warp or SIMD width). Eight warps of 32 is 256 on
	// NVIDIA and AMD: enough warps per group to keep a tree reduction's
	// barriers cheap, and small enough that several groups fit on one
	// compute unit (the H100 runs 2048 work-items per multiprocessor).
	warpsPerGroup = 8
	// gpuGroupsPerCU: eight groups of 256 fill a GPU multiprocessor's
	// 2048 resident work-items, the occupancy that hides memory latency
	// in a streaming loop; more groups only add partials to combine.
	gpuGroupsPerCU = 8
	// cpuGroupsPerCU: CPU implementations run one group at a time per
	// hardware thread; four groups per thread even out imbalance while
	// keeping each block long enough for the prefetcher.
	cpuGroupsPerCU = 4
)

// newPlan sizes a launch over n elements. kernelWG is the smallest
// CL_KERNEL_WORK_GROUP_SIZE of the kernels involved, pref their preferred
// size multiple, localPerItem the local memory bytes one work-item needs.
func newPlan(info device.Info, kernelWG, pref int, n int64, localPerItem int) plan {
	local := max(pref, 1) * warpsPerGroup
	local = min(local, kernelWG, info.MaxWorkGroupSize)
	if localPerItem > 0 {
		// Use at most half the local memory, so that two groups can be
		// resident where local memory is shared per compute unit.
		local = min(local, int(info.LocalMemSize/2)/localPerItem)
	}
	local = max(1, 1<<(bits.Len(uint(local))-1)) // power of two for the trees
	perCU := cpuGroupsPerCU
	if info.IsGPU() {
		perCU = gpuGroupsPerCU
	}
	groups := max(1, info.ComputeUnits*perCU)
	if need := (n + int64(local) - 1) / int64(local); need < int64(groups) {
		groups = int(max(need, 1))
	}
	if planOverride != nil {
		planOverride(info, &local, &groups)
		groups = int(min(int64(groups), max((n+int64(local)-1)/int64(local), 1)))
	}
	chunk := max((n+int64(groups*local)-1)/int64(groups*local), 1)
	groups = int(max((n+int64(local)*chunk-1)/(int64(local)*chunk), 1))
	return plan{local: local, groups: groups, chunk: chunk}
}

// planOverride, when set (by benchmarks that sweep the geometry), may
// change the work-group size (keep it a power of two) and group count.
var planOverride func(info device.Info, local, groups *int)

// String describes the plan for logs.
func (p plan) String() string {
	return fmt.Sprintf("%d groups × %d work-items × %d elements", p.groups, p.local, p.chunk)
}

// Timing is the device time of one run, from profiling events.
type Timing struct {
	Kernel   time.Duration // sum of the kernels' START..END
	Transfer time.Duration // sum of host↔device copies' START..END (Run only): Up + Down
	Up       time.Duration // the uploads' part of Transfer
	Down     time.Duration // the downloads' part of Transfer
	Launches int           // kernels enqueued
}

package clresident

import (
	"fmt"
	"testing"
)

// The tests of arrays whose Go variable code besides later kernels reads
// (flows.go's specs; rewrite's differential test runs them beside the
// generated file, and compares every spec with its own on random
// inputs).

// TestFlows: loops, branches, closures and pointers that read a
// kernel's output from its Go variable, and inputs shared in a loop's
// body or by a kernel with a rerun guard, give the spec's results for
// every round count (k&3) and branch (k%2).
func TestFlows(t *testing.T) {
	onDevice(t, soacgenCLFlowLoop, soacgenCLFlowBranch, soacgenCLFlowClosure, soacgenCLFlowAddress, soacgenCLSharedRerun)
	for _, n := range []int{1, 7, 4097, 100_003} {
		xs := mixed(n)
		for k := range int64(8) {
			for _, c := range []struct {
				name       string
				spec, impl func() string
			}{
				{"FlowLoop", func() string { return fmt.Sprint(flowLoopSpec(xs, k)) }, func() string { return fmt.Sprint(FlowLoop(xs, k)) }},
				{"FlowBranch", func() string { return fmt.Sprint(flowBranchSpec(xs, k)) }, func() string { return fmt.Sprint(FlowBranch(xs, k)) }},
				{"FlowClosure", func() string { return fmt.Sprint(flowClosureSpec(xs, k)) }, func() string { return fmt.Sprint(FlowClosure(xs, k)) }},
				{"FlowAddress", func() string { return fmt.Sprint(flowAddressSpec(xs, k)) }, func() string { return fmt.Sprint(FlowAddress(xs, k)) }},
				{"SharedLoop", func() string { return fmt.Sprint(sharedLoopSpec(xs, k)) }, func() string { return fmt.Sprint(SharedLoop(xs, k)) }},
				{"SharedRerun", func() string { return fmt.Sprint(sharedRerunSpec(xs, k)) }, func() string { return fmt.Sprint(SharedRerun(xs, k)) }},
			} {
				var got string
				noFallback(t, func() { got = c.impl() }, "%s(n=%d, k=%d)", c.name, n, k)
				if want := c.spec(); got != want {
					t.Errorf("%s(n=%d, k=%d) differs from the spec", c.name, n, k)
				}
			}
		}
	}
}

// TestFlowTuple: the tuple assignment's new b stays on the device for
// the Map2 (one upload of each input, one download: the result); with
// the Map2 on the CPU, its code downloads the array into b, the
// variable it reads (not into the temporary the map's code wrote), and
// the results are the spec's with any kernel on the CPU.
func TestFlowTuple(t *testing.T) {
	ks := swapped(t, redomapVar(&soacgenCLFlowTuple3), redomapVar(&soacgenCLFlowTuple4))
	for _, n := range []int{1, 7, 4097, 100_003} {
		xs, zs := mixed(n), ints(n)
		// FlowTuple's first two maps upload xs and zs and download a and
		// b in every mask. Then: the map uploads a and keeps b, the Map2
		// reads b there, uploads a and downloads its result (mask 00);
		// the map on the CPU, the Map2 uploads both (01); the Map2 on the
		// CPU downloads b (10); both on the CPU (11).
		ks.check(fmt.Sprintf("n=%d", n), fmt.Sprint(flowTupleSpec(xs, zs)),
			func() string { return fmt.Sprint(FlowTuple(xs, zs)) },
			[]traffic{{4, 3, 0, 0}, {4, 3, 0, 0}, {3, 3, 0, 0}, {2, 2, 0, 0}})
	}
}

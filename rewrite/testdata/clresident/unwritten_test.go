package clresident

import (
	"fmt"
	"slices"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// The tests of inputs uploaded once per call (unwritten.go's specs;
// rewrite's differential test runs them beside the generated file, and
// its differential test compares every spec with its own on random
// inputs).

// TestUnwrittenRoundsTransfers: UnwrittenRounds uploads xs once for all
// its rounds, StreamRounds once for both kernels of all its rounds;
// with KeepOnDevice false every run uploads it. The results are the
// spec's.
func TestUnwrittenRoundsTransfers(t *testing.T) {
	onDevice(t, soacgenCLUnwrittenRounds, soacgenCLStreamRounds2)
	if soacgenCLStreamRounds.Kernel() == nil {
		t.Skip("no usable OpenCL device")
	}
	xs := ints(1001)
	for _, keep := range []bool{true, false} {
		launch.KeepOnDevice = keep
		var got int64
		var got2 []int64
		var up, up2 int64
		noFallback(t, func() {
			up, _ = moved(func() { got = UnwrittenRounds(xs, 5) })
			up2, _ = moved(func() { got2 = StreamRounds(xs, 5) })
		}, "keep %v", keep)
		launch.KeepOnDevice = true
		want, want2 := unwrittenRoundsSpec(xs, 5), streamRoundsSpec(xs, 5)
		if got != want || !slices.Equal(got2, want2) {
			t.Errorf("keep %v: results differ from the spec's", keep)
		}
		if wantUp := map[bool]int64{true: 1, false: 5}[keep]; up != wantUp {
			t.Errorf("keep %v: UnwrittenRounds uploaded %d times, want %d", keep, up, wantUp)
		}
		if wantUp := map[bool]int64{true: 1, false: 10}[keep]; up2 != wantUp {
			t.Errorf("keep %v: StreamRounds uploaded %d times, want %d", keep, up2, wantUp)
		}
	}
}

// TestWrittenRounds: specs that write xs (or may, through an alias, a
// call or another parameter holding the same array) between rounds
// upload it in every round and give the spec's results; a stale device
// copy would give the next round the old elements. Each call gets its
// own copy of xs, since the specs write it.
func TestWrittenRounds(t *testing.T) {
	onDevice(t, soacgenCLWrittenRounds, soacgenCLWrittenAlias, soacgenCLWrittenOther, soacgenCLWrittenByCall, soacgenCLReassigned)
	for _, n := range []int{1, 7, 1001, 100_003} {
		for _, c := range []struct {
			name       string
			spec, impl func(xs []int64) int64
		}{
			{"WrittenRounds", func(xs []int64) int64 { return writtenRoundsSpec(xs, 4) }, func(xs []int64) int64 { return WrittenRounds(xs, 4) }},
			{"WrittenAlias", func(xs []int64) int64 { return writtenAliasSpec(xs, 4) }, func(xs []int64) int64 { return WrittenAlias(xs, 4) }},
			{"WrittenOther", func(xs []int64) int64 { return writtenOtherSpec(xs, xs, 4) }, func(xs []int64) int64 { return WrittenOther(xs, xs, 4) }},
			{"WrittenByCall", func(xs []int64) int64 { return writtenByCallSpec(xs, 4) }, func(xs []int64) int64 { return WrittenByCall(xs, 4) }},
			{"Reassigned", func(xs []int64) int64 { return reassignedSpec(xs, 4) }, func(xs []int64) int64 { return Reassigned(xs, 4) }},
		} {
			xs1, xs2 := ints(n), ints(n)
			want := c.spec(xs1)
			var got int64
			var up int64
			noFallback(t, func() { up, _ = moved(func() { got = c.impl(xs2) }) }, "n=%d %s", n, c.name)
			if got != want || !slices.Equal(xs1, xs2) {
				t.Errorf("n=%d %s = %d, want %d (inputs equal afterwards: %v)", n, c.name, got, want, slices.Equal(xs1, xs2))
			}
			wantUp := int64(4)
			if c.name == "Reassigned" {
				wantUp = int64(min(n, 4)) // it stops when xs is empty
			}
			if up != wantUp {
				t.Errorf("n=%d %s uploaded %d times, want %d (once per round)", n, c.name, up, wantUp)
			}
		}
	}
}

// TestKeptIntoStream: the squares a map-reduce keeps on the device are
// read there by the stream reduction (one upload, xs, and no download
// of the squares), or downloaded by its CPU code when its kernel cannot
// run; the results are the spec's either way.
func TestKeptIntoStream(t *testing.T) {
	onDevice(t, soacgenCLKeptIntoStream)
	ks := swapped(t, streamVar(&soacgenCLKeptIntoStream2))
	for _, n := range []int{1, 7, 1001, 100_003} {
		xs := ints(n)
		// The stream on the device downloads its row; on the CPU it
		// downloads the kept array.
		ks.check(fmt.Sprintf("n=%d", n), fmt.Sprint(keptIntoStreamSpec(xs)), func() string { return fmt.Sprint(KeptIntoStream(xs)) },
			[]traffic{{1, 1, 0, 0}, {1, 1, 0, 0}})
	}
}

// TestCapturedRounds: CapturedRounds uploads its captured table once per
// call (and xs once); CapturedWritten, which writes the table between
// rounds, uploads it in every round (not through the cache) and gives
// the spec's result: a stale copy would keep the old ws[0].
func TestCapturedRounds(t *testing.T) {
	onDevice(t, soacgenCLCapturedRounds, soacgenCLCapturedWritten)
	for _, n := range []int{1, 7, 1001} {
		xs, ws := ints(n), ints(5)
		c0 := launch.CapturedUploads()
		var got int64
		var up int64
		noFallback(t, func() { up, _ = moved(func() { got = CapturedRounds(xs, ws, 4) }) }, "n=%d CapturedRounds", n)
		if c := launch.CapturedUploads() - c0; got != capturedRoundsSpec(xs, ws, 4) || up != 1 || c != 1 {
			t.Errorf("n=%d CapturedRounds: result equal %v, %d uploads, %d captured uploads; want 1 and 1", n, got == capturedRoundsSpec(xs, ws, 4), up, c)
		}
		ws1, ws2 := ints(5), ints(5)
		want := capturedWrittenSpec(xs, ws1, 4)
		c0 = launch.CapturedUploads()
		noFallback(t, func() { got = CapturedWritten(xs, ws2, 4) }, "n=%d CapturedWritten", n)
		if c := launch.CapturedUploads() - c0; got != want || !slices.Equal(ws1, ws2) || c != 0 {
			t.Errorf("n=%d CapturedWritten = %d, want %d (tables equal: %v); %d captured uploads through the cache, want 0", n, got, want, slices.Equal(ws1, ws2), c)
		}
	}
}

// catch returns f's result, or the text of its panic.
func catch(f func() int64) (r int64, p string) {
	defer func() {
		if e := recover(); e != nil {
			p = fmt.Sprint(e)
		}
	}()
	return f(), ""
}

// TestUnwrittenPanics: a call that panics after its rounds' kernels
// raises the spec's panic and returns its upload to the pool (later
// calls allocate no buffer); a call that does not panic gives the
// spec's result.
func TestUnwrittenPanics(t *testing.T) {
	onDevice(t, soacgenCLUnwrittenPanics)
	xs := ints(10_007)
	for _, at := range []int{-1, 0, 2} {
		want, wantP := catch(func() int64 { return unwrittenPanicsSpec(xs, 4, at) })
		got, gotP := catch(func() int64 { return UnwrittenPanics(xs, 4, at) })
		if got != want || gotP != wantP {
			t.Errorf("at=%d: %d, panic %q; want %d, %q", at, got, gotP, want, wantP)
		}
	}
	d, err := device.Default()
	if err != nil {
		t.Fatal(err)
	}
	before := d.BuffersAllocated()
	for range 5 {
		up, _ := moved(func() { catch(func() int64 { return UnwrittenPanics(xs, 4, 2) }) })
		if up != 1 {
			t.Errorf("%d uploads, want 1", up)
		}
	}
	if after := d.BuffersAllocated(); after != before {
		t.Errorf("five panicking calls allocated %d buffers, want 0 (released and pooled)", after-before)
	}
}

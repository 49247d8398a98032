package launch

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
	"github.com/soacgen/soacgen/runtime/opencl/device"
	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// spinRounds is how many steps each element of spin takes.
const spinRounds = 2000

// spin is a kernel whose elements take spinRounds steps each, so that
// a call over many elements keeps the device busy.
func spin() *Redomap {
	k := double("int a = in0;\nfor (int i = 0; i < 2000; i++) a = a * 1103515245 + 12345;\nout0 = a;\nred0 = in0;\nk__err = 0;")
	k.Spec.Name = "spin"
	return k
}

// spinHost is spin's element on the host.
func spinHost(x int32) int32 {
	for range spinRounds {
		x = x*1103515245 + 12345
	}
	return x
}

// midCost and midN make a backend=auto call that the model sends to an
// idle device and, with one run in flight, to the host (one core:
// 51.6 µs against 30.9 on the device, 61.8 when it is shared).
var midCost, midN = Cost{Bytes: 8, Ops: 100}, 2000

// withLoad replaces the device's load for one test.
func withLoad(t *testing.T, load *int) {
	old := deviceLoad
	deviceLoad = func() int { return *load }
	t.Cleanup(func() { deviceLoad = old })
}

// TestWorthBusy: a call the model sends to an idle device runs on the
// host while runs are in flight, and BusyChoices counts it; calls too
// small or large enough for the device either way are not counted.
func TestWorthBusy(t *testing.T) {
	load := 0
	withLoad(t, &load)
	defer SetChoice(SetChoice(ModelAnyDevice))
	if !Worth(midCost, midN) {
		t.Fatalf("idle: Worth(%+v, %d) = false", midCost, midN)
	}
	before := BusyChoices()
	load = 1
	if Worth(midCost, midN) || Worth(midCost, 1) {
		t.Errorf("one run in flight: Worth(%+v, %d or 1) = true", midCost, midN)
	}
	if got := BusyChoices() - before; got != 1 {
		t.Errorf("BusyChoices counted %d calls, want 1 (n = 1 is the host's when idle too)", got)
	}
	if !Worth(midCost, 100*midN) {
		t.Errorf("one run in flight: Worth(%+v, %d) = false", midCost, 100*midN)
	}
	SetChoice(NeverDevice)
	before = BusyChoices()
	if Worth(midCost, midN); BusyChoices() != before {
		t.Errorf("NeverDevice: BusyChoices counted a call the model does not decide")
	}
}

// slowFill writes v into every element of x after rounds steps per
// work-item: a kernel that keeps a queue busy.
const slowFill = `__kernel void slow_fill(__global int *x, int v, int rounds) {
	uint a = get_global_id(0);
	for (int i = 0; i < rounds; i++) a = a * 1103515245u + 12345u;
	x[get_global_id(0)] = a == 7u ? v + 1 : v;
}`

// hold takes a queue of d and enqueues on it kernels that keep it busy
// for a while, as a large call does; it returns the last kernel's
// event and the function that waits for them and gives the queue back.
func hold(t *testing.T, d *device.Device) (*cl.Event, func()) {
	prog, err := d.Program(slowFill, "")
	if err != nil {
		t.Fatal(err)
	}
	k, err := prog.CreateKernel("slow_fill")
	if err != nil {
		t.Fatal(err)
	}
	q, err := d.TakeQueue()
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.Buffer(256 * 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.SetArgs(b, int32(1), int32(100_000)); err != nil {
		t.Fatal(err)
	}
	var last *cl.Event
	for range 24 {
		if last != nil {
			last.Release()
		}
		if last, err = q.EnqueueNDRangeKernel(k, nil, []int{256}, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Flush(); err != nil {
		t.Fatal(err)
	}
	return last, func() {
		if err := d.FinishQueue(q, b); err != nil {
			t.Error(err)
		}
		last.Release()
		k.Release()
	}
}

// TestConcurrentCalls: while a queue of the device is held with long
// kernels enqueued (a large call's device part), 64 goroutines call at
// once: 4 of them large calls of spin, 44 n = 1 calls (of spin too), 16 backend=auto
// calls that an idle device would take. Every result is right; n = 1
// calls complete while the held queue's kernels, enqueued before they
// started, have not (with one queue for every run they would wait
// behind them); every auto call runs on the host, the device being busy.
func TestConcurrentCalls(t *testing.T) {
	needDevice(t)
	d, _ := device.Default()
	defer SetChoice(SetChoice(ModelAnyDevice))
	big, small := spin(), double("")
	mid := double("")
	mid.Spec.Name, mid.Auto, mid.Cost = "mid", true, midCost
	xs := make([]int32, 1<<13)
	for i := range xs {
		xs[i] = int32(i - 7)
	}
	ys := xs[:midN]
	for _, k := range []*Redomap{big, small, mid} {
		if k.Kernel() == nil {
			t.Fatalf("%s: no kernel", k.Spec.Name)
		}
	}
	checkBig := func() {
		ok, out, sum := run(big, xs)
		if !ok || sum != int32(len(xs)*(len(xs)-1)/2-7*len(xs)) {
			t.Errorf("large call: ok %v, sum %d", ok, sum)
			return
		}
		for _, i := range []int{0, 1, len(xs) / 2, len(xs) - 1} {
			if out[i] != spinHost(xs[i]) {
				t.Errorf("large call: out[%d] = %d, want %d", i, out[i], spinHost(xs[i]))
			}
		}
	}
	last, release := hold(t, d)
	busyBefore := BusyChoices()
	var (
		stop             atomic.Bool
		beside, onDevice atomic.Int64 // n = 1 calls done beside the held queue; auto calls on the device
		wg, smalls       sync.WaitGroup
	)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				checkBig()
				if stop.Load() {
					return
				}
			}
		}()
	}
	for range 44 {
		smalls.Add(1)
		go func() {
			defer smalls.Done()
			for x := range int32(10) {
				if ok, out, sum := run(small, []int32{x}); !ok || out[0] != 2*x || sum != x {
					t.Errorf("n = 1 call: %v %v %d", ok, out, sum)
				}
				// spin at n = 1 too: its runs take kernel sets of the
				// program the large calls run.
				if ok, out, _ := run(big, []int32{x}); !ok || out[0] != spinHost(x) {
					t.Errorf("n = 1 call of spin: %v %v", ok, out)
				}
				if done, err := last.Complete(); err != nil {
					t.Error(err)
				} else if !done {
					beside.Add(1)
				}
			}
		}()
	}
	for range 16 {
		smalls.Add(1)
		go func() {
			defer smalls.Done()
			for range 20 {
				out := make([]int32, len(ys))
				var sum [1]int32
				ok := false
				if mid.Use(len(ys)) && mid.Kernel() != nil {
					ok = mid.Run(nil, hosts(ys), hosts(out), hosts(sum[:]))
					onDevice.Add(1)
				}
				if !ok {
					for i, y := range ys {
						out[i], sum[0] = 2*y, sum[0]+y
					}
				}
				if out[len(ys)-1] != 2*ys[len(ys)-1] || sum[0] != int32(len(ys)*(len(ys)-1)/2-7*len(ys)) {
					t.Errorf("auto call: last %d, sum %d", out[len(ys)-1], sum[0])
				}
			}
		}()
	}
	smalls.Wait()
	busy := BusyChoices() - busyBefore
	release()
	stop.Store(true)
	wg.Wait()
	t.Logf("n = 1 calls done while the held queue's last kernel ran: %d of 440; auto calls on the host for the load: %d, on the device: %d, of 320", beside.Load(), busy, onDevice.Load())
	// A CPU device runs the kernels of several queues at once on its
	// threads. The H200's OpenCL driver ran them one after another
	// (2026-12-02: 0 of 440 with 4 queues and with 64), so there the
	// n = 1 calls wait for the device whatever the queues, and only
	// auto's choice, checked below, keeps them off it.
	if beside.Load() == 0 && d.Info.Type&cl.DeviceTypeGPU == 0 {
		t.Errorf("no n = 1 call completed before the kernels enqueued ahead of it: small calls wait behind large ones")
	}
	if busy != 320 || onDevice.Load() != 0 {
		t.Errorf("auto calls with the device busy: %d on the host for the load, %d on the device; want 320, 0", busy, onDevice.Load())
	}
}

// hosts wraps one int32 slice for Run.
func hosts(xs []int32) []skel.HostSlice { return []skel.HostSlice{skel.Slice(xs)} }

package device

import (
	"slices"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
)

// slowFill writes v into every element of x after a loop long enough
// (rounds steps per work-item) that the kernel is still running when
// the host, without waiting for it, goes on.
const slowFill = `__kernel void slow_fill(__global int *x, int v, int rounds) {
	uint a = get_global_id(0);
	for (int i = 0; i < rounds; i++) a = a * 1103515245u + 12345u;
	x[get_global_id(0)] = a == 7u ? v + 1 : v;
}`

// TestTakeQueue: queues held at once are distinct, Busy counts them,
// and a finished queue is reused rather than created again.
func TestTakeQueue(t *testing.T) {
	d := open(t)
	busy := d.Busy()
	a, err := d.TakeQueue()
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.TakeQueue()
	if err != nil {
		t.Fatal(err)
	}
	if a == b || a == d.Queue || b == d.Queue || d.Busy() != busy+2 {
		t.Fatalf("two held queues %p %p (device's %p), Busy %d want %d", a, b, d.Queue, d.Busy(), busy+2)
	}
	if err := d.FinishQueue(a); err != nil {
		t.Fatal(err)
	}
	created := d.QueuesCreated()
	c, err := d.TakeQueue()
	if err != nil {
		t.Fatal(err)
	}
	if d.QueuesCreated() != created {
		t.Errorf("a queue was created though one was free")
	}
	for _, q := range []*cl.CommandQueue{b, c} {
		if err := d.FinishQueue(q); err != nil {
			t.Fatal(err)
		}
	}
	if d.Busy() != busy {
		t.Errorf("Busy %d after every queue was finished, want %d", d.Busy(), busy)
	}
}

// TestReuseAcrossQueues: a buffer that a run on queue A released with
// its kernel still running is handed, through the pool, to a run on
// queue B only once that kernel has completed: B's contents are never
// overwritten by A's late writes. (Flushing instead of finishing A in
// FinishQueue makes this fail: A's kernel writes 1s over B's 2s.)
func TestReuseAcrossQueues(t *testing.T) {
	d := open(t)
	prog, err := d.Program(slowFill, "")
	if err != nil {
		t.Fatal(err)
	}
	k, err := prog.CreateKernel("slow_fill")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	const n = 256
	size := n*4 + 12 // a size no other test of the package pools
	for round := range 3 {
		qa, err := d.TakeQueue()
		if err != nil {
			t.Fatal(err)
		}
		qb, err := d.TakeQueue() // held, so not qa
		if err != nil {
			t.Fatal(err)
		}
		x, err := d.Buffer(size)
		if err != nil {
			t.Fatal(err)
		}
		if err := k.SetArgs(x, int32(1), int32(200_000)); err != nil {
			t.Fatal(err)
		}
		e, err := qa.EnqueueNDRangeKernel(k, nil, []int{n}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		e.Release()
		if err := qa.Flush(); err != nil {
			t.Fatal(err)
		}
		// A releases x with its kernel enqueued, maybe running.
		if err := d.FinishQueue(qa, x); err != nil {
			t.Fatal(err)
		}
		y, err := d.Buffer(size)
		if err != nil {
			t.Fatal(err)
		}
		if y != x {
			t.Fatalf("round %d: the pool did not hand the released buffer out again", round)
		}
		twos := slices.Repeat([]int32{2}, n)
		if e, err = qb.EnqueueWriteBuffer(y, true, 0, cl.Bytes(twos), nil); err != nil {
			t.Fatal(err)
		}
		e.Release()
		// Wait for everything A enqueued too (qa is the pool's again,
		// maybe qb's next neighbour), then read what y holds.
		if err := qa.Finish(); err != nil {
			t.Fatal(err)
		}
		got := make([]int32, n)
		if e, err = qb.EnqueueReadBuffer(y, true, 0, cl.Bytes(got), nil); err != nil {
			t.Fatal(err)
		}
		e.Release()
		if i := slices.IndexFunc(got, func(v int32) bool { return v != 2 }); i >= 0 {
			t.Fatalf("round %d: element %d is %d after B wrote 2s: A's kernel wrote into the buffer after B took it", round, i, got[i])
		}
		if err := d.FinishQueue(qb, y); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMaxQueues: the bound of a device type, and SOACGEN_CL_QUEUES over it.
func TestMaxQueues(t *testing.T) {
	t.Setenv("SOACGEN_CL_QUEUES", "")
	if got := MaxQueues(cl.DeviceTypeGPU); got != gpuQueues {
		t.Errorf("GPU: %d, want %d", got, gpuQueues)
	}
	if got := MaxQueues(cl.DeviceTypeCPU); got != cpuQueues {
		t.Errorf("CPU: %d, want %d", got, cpuQueues)
	}
	for env, want := range map[string]int{"3": 3, "0": cpuQueues, "-2": cpuQueues, "x": cpuQueues} {
		t.Setenv("SOACGEN_CL_QUEUES", env)
		if got := MaxQueues(cl.DeviceTypeCPU); got != want {
			t.Errorf("SOACGEN_CL_QUEUES=%q: %d, want %d", env, got, want)
		}
	}
}

// TestQueueBound: with every slot taken, a run waits for a queue until
// one is given back.
func TestQueueBound(t *testing.T) {
	d := open(t)
	held := []*cl.CommandQueue{}
	for len(d.queues.slots) < cap(d.queues.slots) {
		q, err := d.TakeQueue()
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, q)
	}
	got := make(chan *cl.CommandQueue)
	go func() {
		q, err := d.TakeQueue()
		if err != nil {
			t.Error(err)
		}
		got <- q
	}()
	select {
	case <-got:
		t.Fatalf("a queue was taken beyond the bound of %d", cap(d.queues.slots))
	default:
	}
	if err := d.FinishQueue(held[0]); err != nil {
		t.Fatal(err)
	}
	q := <-got
	if err := d.FinishQueue(q); err != nil {
		t.Fatal(err)
	}
	for _, q := range held[1:] {
		if err := d.FinishQueue(q); err != nil {
			t.Fatal(err)
		}
	}
}

package device

// This file is the device's pool of command queues: each run of a
// skeleton takes one for its whole run and gives it back once every
// command it enqueued there has completed, so that concurrent calls do
// not wait behind each other's commands in one in-order queue.

import (
	"os"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
)

// idleQueues is the most queues the pool keeps unused: a burst of more
// concurrent runs creates more, and the surplus is released as they
// finish. A queue costs the driver little (no device memory), so the
// bound is generous: 64 concurrent callers reuse their queues.
const idleQueues = 64

// queues are a device's command queues that no run holds.
type queues struct {
	mu      sync.Mutex
	free    []*cl.CommandQueue
	created int          // queues created, for tests
	busy    atomic.Int32 // queues held by runs
	// slots bounds the queues runs hold at once (MaxQueues): a run
	// takes a slot before its queue and gives it back after it.
	slots chan struct{}
}

// MaxQueues returns how many runs may hold a queue of a device of type t
// at once, more waiting for one to be given back: SOACGEN_CL_QUEUES when
// it is a positive number, else gpuQueues on a GPU and cpuQueues on any
// other device.
func MaxQueues(t cl.DeviceType) int {
	if n, err := strconv.Atoi(os.Getenv("SOACGEN_CL_QUEUES")); err == nil && n > 0 {
		return n
	}
	if t&cl.DeviceTypeGPU != 0 {
		return gpuQueues
	}
	return cpuQueues
}

// gpuQueues and cpuQueues are the default bounds of MaxQueues. On a GPU
// a run's time is mostly the driver's latency per command, which more
// queues do not shorten: 64 goroutines calling SumSqCL at once (one
// call in 16 over 2^20 elements; BenchmarkSumSqMixed) took 138 µs a call
// with 2 or 4 queues, 145 with 8 and 161 with 64 (H200, 2026-12-02, one
// run each, SOACGEN_CL_QUEUES=N). A CPU device runs each queue's
// kernels on the host's threads, where a small call on a queue of its
// own no longer waits for a large one's kernel.
const (
	gpuQueues = 4
	cpuQueues = 64
)

// TakeQueue returns an in-order profiling queue of d that no other run
// holds, creating one when every queue is taken: a run enqueues on it
// alone, from taking it to FinishQueue. Device.Queue is not among them.
func (d *Device) TakeQueue() (*cl.CommandQueue, error) {
	qs := &d.queues
	qs.slots <- struct{}{}
	qs.mu.Lock()
	if n := len(qs.free); n > 0 {
		q := qs.free[n-1]
		qs.free = qs.free[:n-1]
		qs.busy.Add(1)
		qs.mu.Unlock()
		return q, nil
	}
	qs.created++
	qs.mu.Unlock()
	q, err := d.Ctx.CreateCommandQueue(d.CL, cl.CommandQueueProfilingEnable)
	if err != nil {
		<-qs.slots
		return nil, err
	}
	qs.busy.Add(1)
	return q, nil
}

// FinishQueue waits until every command enqueued on q (taken with
// TakeQueue) has completed, then returns bufs to the buffer pool and q to
// the queues. The wait comes first because another run, on another
// queue, may take the buffers at once: a buffer goes back to the pool
// only when no command of its run still reads or writes it. It returns
// clFinish's error; the buffers and the queue are returned either way.
func (d *Device) FinishQueue(q *cl.CommandQueue, bufs ...*cl.MemObject) error {
	err := q.Finish()
	d.Recycle(bufs...)
	qs := &d.queues
	qs.busy.Add(-1)
	qs.mu.Lock()
	if err == nil && len(qs.free) < idleQueues {
		qs.free = append(qs.free, q)
		q = nil
	}
	qs.mu.Unlock()
	<-qs.slots
	if q != nil {
		q.Release()
	}
	return err
}

// Busy returns how many runs hold a queue of d now: skeleton runs
// enqueued or in progress, of every goroutine. backend=auto's choice
// reads it to see a busy device.
func (d *Device) Busy() int { return int(d.queues.busy.Load()) }

// QueuesCreated returns how many queues TakeQueue has created so far.
func (d *Device) QueuesCreated() int {
	d.queues.mu.Lock()
	defer d.queues.mu.Unlock()
	return d.queues.created
}

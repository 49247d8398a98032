package device

import (
	"sync"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
)

// pool keeps released device buffers by exact size for reuse. Sizes repeat
// exactly when a pipeline is called again on arrays of the same length,
// which is the case worth serving; rounding sizes up would waste memory on
// the large arrays that dominate.
type pool struct {
	mu     sync.Mutex
	free   map[int][]*cl.MemObject
	idle   int64 // bytes held in free
	limit  int64 // most bytes kept idle; beyond it buffers are released
	allocs int   // buffers created by the driver, for tests
}

// Buffer returns a read-write device buffer of size bytes, reused from the
// pool when one of that size is free.
func (d *Device) Buffer(size int) (*cl.MemObject, error) {
	p := &d.pool
	p.mu.Lock()
	if bs := p.free[size]; len(bs) > 0 {
		b := bs[len(bs)-1]
		p.free[size] = bs[:len(bs)-1]
		p.idle -= int64(size)
		p.mu.Unlock()
		return b, nil
	}
	p.allocs++
	p.mu.Unlock()
	return d.Ctx.CreateEmptyBuffer(cl.MemReadWrite, size)
}

// Recycle returns buffers obtained from Buffer to the pool. Their contents
// are not kept. Every command that reads or writes them must have
// completed: the next Buffer may hand them to a run on another queue,
// whose commands are not ordered after theirs (FinishQueue waits for a
// run's queue before it recycles the run's buffers).
func (d *Device) Recycle(bufs ...*cl.MemObject) {
	p := &d.pool
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.free == nil {
		p.free = map[int][]*cl.MemObject{}
	}
	for _, b := range bufs {
		if b == nil {
			continue
		}
		if p.idle+int64(b.Size()) > p.limit {
			b.Release()
			continue
		}
		p.free[b.Size()] = append(p.free[b.Size()], b)
		p.idle += int64(b.Size())
	}
}

// BuffersAllocated returns how many buffers Buffer had to create.
func (d *Device) BuffersAllocated() int {
	d.pool.mu.Lock()
	defer d.pool.mu.Unlock()
	return d.pool.allocs
}

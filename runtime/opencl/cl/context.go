package cl

import (
	"fmt"
	"runtime"
	"time"
	"unsafe"
)

const contextPlatform = 0x1084 // CL_CONTEXT_PLATFORM

// Context is an OpenCL context (cl_context) over devices of one platform.
type Context struct {
	id      uintptr
	devices []Device
}

// CreateContext creates a context for devices, which must share a platform.
func CreateContext(devices []Device) (*Context, error) {
	l, err := lib()
	if err != nil {
		return nil, err
	}
	if len(devices) == 0 {
		return nil, fmt.Errorf("%w: CreateContext without devices", ErrNoDevice)
	}
	props := []uintptr{contextPlatform, devices[0].platform.id, 0}
	ids := make([]uintptr, len(devices))
	for i, d := range devices {
		ids[i] = d.id
	}
	var code int32
	id := call(l.CreateContext, uintptr(unsafe.Pointer(&props[0])), uintptr(len(ids)), uintptr(unsafe.Pointer(&ids[0])), 0, 0, uintptr(unsafe.Pointer(&code)))
	if err := check("clCreateContext", code); err != nil {
		return nil, err
	}
	return &Context{id: id, devices: append([]Device(nil), devices...)}, nil
}

// Devices returns the context's devices.
func (c *Context) Devices() []Device { return c.devices }

// Release releases the context.
func (c *Context) Release() error {
	l, err := lib()
	if err != nil || c == nil || c.id == 0 {
		return err
	}
	err = check("clReleaseContext", status(l.ReleaseContext, c.id))
	c.id = 0
	return err
}

// CommandQueueProperty is a cl_command_queue_properties bit set.
type CommandQueueProperty uint64

// Command queue properties, as in cl.h.
const (
	CommandQueueOutOfOrderExecModeEnable CommandQueueProperty = 1 << 0
	CommandQueueProfilingEnable          CommandQueueProperty = 1 << 1
)

// CommandQueue is an OpenCL command queue (cl_command_queue).
type CommandQueue struct {
	id     uintptr
	device Device
}

// CreateCommandQueue creates a queue on device d with the given properties
// (CommandQueueProfilingEnable for event times).
func (c *Context) CreateCommandQueue(d Device, props CommandQueueProperty) (*CommandQueue, error) {
	l, err := lib()
	if err != nil {
		return nil, err
	}
	var code int32
	id := call(l.CreateCommandQueue, c.id, d.id, uintptr(props), uintptr(unsafe.Pointer(&code)))
	if err := check("clCreateCommandQueue", code); err != nil {
		return nil, err
	}
	return &CommandQueue{id: id, device: d}, nil
}

// Device returns the queue's device.
func (q *CommandQueue) Device() Device { return q.device }

// Finish blocks until every command in the queue has completed.
func (q *CommandQueue) Finish() error {
	l, err := lib()
	if err != nil {
		return err
	}
	return check("clFinish", status(l.Finish, q.id))
}

// Flush submits the queued commands to the device without waiting.
func (q *CommandQueue) Flush() error {
	l, err := lib()
	if err != nil {
		return err
	}
	return check("clFlush", status(l.Flush, q.id))
}

// Release releases the queue.
func (q *CommandQueue) Release() error {
	l, err := lib()
	if err != nil || q == nil || q.id == 0 {
		return err
	}
	err = check("clReleaseCommandQueue", status(l.ReleaseCommandQueue, q.id))
	q.id = 0
	return err
}

// MemFlag is a cl_mem_flags bit set.
type MemFlag uint64

// Memory flags, as in cl.h.
const (
	MemReadWrite MemFlag = 1 << 0
	MemWriteOnly MemFlag = 1 << 1
	MemReadOnly  MemFlag = 1 << 2
	// MemAllocHostPtr asks for host-accessible memory; on discrete GPUs
	// it is page-locked (pinned), so transfers from or to its mapping
	// run by DMA at the link's speed without a driver-side copy.
	MemAllocHostPtr MemFlag = 1 << 4
	// MemUseHostPtr makes the buffer use the caller's host memory as its
	// storage (CreateBufferHost); whether the device reads it in place
	// (zero-copy) or caches a copy is the implementation's choice.
	MemUseHostPtr MemFlag = 1 << 3
)

// MemObject is an OpenCL buffer (cl_mem) of Size bytes.
type MemObject struct {
	id   uintptr
	size int
}

// CreateEmptyBuffer allocates an uninitialised device buffer of size bytes.
// A size of zero is rounded up to one byte, since OpenCL refuses empty
// buffers and empty arrays are common.
func (c *Context) CreateEmptyBuffer(flags MemFlag, size int) (*MemObject, error) {
	l, err := lib()
	if err != nil {
		return nil, err
	}
	if size < 0 {
		return nil, fmt.Errorf("CreateEmptyBuffer: negative size %d", size)
	}
	alloc := max(size, 1)
	var code int32
	id := call(l.CreateBuffer, c.id, uintptr(flags), uintptr(alloc), 0, uintptr(unsafe.Pointer(&code)))
	if err := check("clCreateBuffer", code); err != nil {
		return nil, err
	}
	return &MemObject{id: id, size: size}, nil
}

// CreateBufferHost creates a buffer over host memory with flags, which
// must include MemUseHostPtr. host must stay valid and unmoved for the
// buffer's life: Go memory must be pinned (runtime.Pinner) until the
// buffer is released and every command using it has completed.
func (c *Context) CreateBufferHost(flags MemFlag, host []byte) (*MemObject, error) {
	l, err := lib()
	if err != nil {
		return nil, err
	}
	if flags&MemUseHostPtr == 0 || len(host) == 0 {
		return nil, fmt.Errorf("CreateBufferHost: needs MemUseHostPtr and a non-empty slice")
	}
	var code int32
	id := call(l.CreateBuffer, c.id, uintptr(flags), uintptr(len(host)), uintptr(unsafe.Pointer(&host[0])), uintptr(unsafe.Pointer(&code)))
	if err := check("clCreateBuffer", code); err != nil {
		return nil, err
	}
	return &MemObject{id: id, size: len(host)}, nil
}

// Size returns the buffer's size in bytes as requested.
func (b *MemObject) Size() int { return b.size }

// Release releases the buffer.
func (b *MemObject) Release() error {
	l, err := lib()
	if err != nil || b == nil || b.id == 0 {
		return err
	}
	err = check("clReleaseMemObject", status(l.ReleaseMemObject, b.id))
	b.id = 0
	return err
}

// Event is an OpenCL event (cl_event). A non-blocking transfer's host
// memory stays pinned until Wait or Release.
type Event struct {
	id  uintptr
	pin *runtime.Pinner
}

// cl_profiling_info parameter names.
const (
	profilingCommandQueued = 0x1280
	profilingCommandSubmit = 0x1281
	profilingCommandStart  = 0x1282
	profilingCommandEnd    = 0x1283
)

// Wait blocks until the event's command has completed, then unpins any
// host memory the command used.
func (e *Event) Wait() error {
	l, err := lib()
	if err != nil {
		return err
	}
	err = check("clWaitForEvents", status(l.WaitForEvents, 1, uintptr(unsafe.Pointer(&e.id))))
	e.unpin()
	return err
}

func (e *Event) unpin() {
	if e.pin != nil {
		e.pin.Unpin()
		e.pin = nil
	}
}

// WaitForEvents blocks until every event has completed.
func WaitForEvents(events []*Event) error {
	for _, e := range events {
		if err := e.Wait(); err != nil {
			return err
		}
	}
	return nil
}

func (e *Event) profile(param uint32) (uint64, error) {
	l, err := lib()
	if err != nil {
		return 0, err
	}
	var v uint64
	err = check("clGetEventProfilingInfo", status(l.GetEventProfilingInfo, e.id, uintptr(param), 8, uintptr(unsafe.Pointer(&v)), 0))
	return v, err
}

// eventCommandExecutionStatus is CL_EVENT_COMMAND_EXECUTION_STATUS.
const eventCommandExecutionStatus = 0x11D3

// Complete reports, without waiting, whether the event's command has
// completed (CL_COMPLETE); a command that failed reports its status as
// an error.
func (e *Event) Complete() (bool, error) {
	l, err := lib()
	if err != nil {
		return false, err
	}
	var v int32
	if err := check("clGetEventInfo", status(l.GetEventInfo, e.id, eventCommandExecutionStatus, 4, uintptr(unsafe.Pointer(&v)), 0)); err != nil {
		return false, err
	}
	if v < 0 {
		return false, check("the event's command", v)
	}
	return v == 0, nil
}

// GetEventProfilingInfoStart returns the device time in nanoseconds at
// which the command started (CL_PROFILING_COMMAND_START). The queue must
// have been created with CommandQueueProfilingEnable.
func (e *Event) GetEventProfilingInfoStart() (uint64, error) { return e.profile(profilingCommandStart) }

// GetEventProfilingInfoEnd returns the device time in nanoseconds at which
// the command ended (CL_PROFILING_COMMAND_END).
func (e *Event) GetEventProfilingInfoEnd() (uint64, error) { return e.profile(profilingCommandEnd) }

// Duration waits for the event and returns END - START.
func (e *Event) Duration() (time.Duration, error) {
	if err := e.Wait(); err != nil {
		return 0, err
	}
	s, err := e.GetEventProfilingInfoStart()
	if err != nil {
		return 0, err
	}
	t, err := e.GetEventProfilingInfoEnd()
	if err != nil {
		return 0, err
	}
	return time.Duration(t - s), nil
}

// Release releases the event; pinned host memory is unpinned only after the
// command has completed, so Release waits first when memory is pinned.
func (e *Event) Release() error {
	l, err := lib()
	if err != nil || e == nil || e.id == 0 {
		return err
	}
	if e.pin != nil {
		if err := e.Wait(); err != nil {
			return err
		}
	}
	err = check("clReleaseEvent", status(l.ReleaseEvent, e.id))
	e.id = 0
	return err
}

package cl

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"strings"
	"unsafe"
)

const (
	programBuildLog            = 0x1183 // CL_PROGRAM_BUILD_LOG
	kernelWorkGroupSize        = 0x11B0 // CL_KERNEL_WORK_GROUP_SIZE
	kernelLocalMemSize         = 0x11B2 // CL_KERNEL_LOCAL_MEM_SIZE
	kernelPreferredWGSMultiple = 0x11B3 // CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE
)

// Program is an OpenCL program (cl_program) of its context.
type Program struct {
	id  uintptr
	ctx *Context
}

// CreateProgramWithSource creates a program from OpenCL C sources, which
// are concatenated in order.
func (c *Context) CreateProgramWithSource(sources []string) (*Program, error) {
	l, err := lib()
	if err != nil {
		return nil, err
	}
	src := append([]byte(strings.Join(sources, "\n")), 0)
	strs := []*byte{&src[0]}
	var code int32
	id := call(l.CreateProgramWithSource, c.id, 1, uintptr(unsafe.Pointer(&strs[0])), 0, uintptr(unsafe.Pointer(&code)))
	runtime.KeepAlive(src)
	if err := check("clCreateProgramWithSource", code); err != nil {
		return nil, err
	}
	return &Program{id: id, ctx: c}, nil
}

// BuildProgram compiles the program for devices (all the context's devices
// when nil) with the given options. On failure it returns a *BuildError
// holding the first failing device's build log.
func (p *Program) BuildProgram(devices []Device, options string) error {
	l, err := lib()
	if err != nil {
		return err
	}
	if devices == nil {
		devices = p.ctx.devices
	}
	ids := make([]uintptr, len(devices))
	for i, d := range devices {
		ids[i] = d.id
	}
	opts := append([]byte(options), 0)
	var idp uintptr
	if len(ids) > 0 {
		idp = uintptr(unsafe.Pointer(&ids[0]))
	}
	code := status(l.BuildProgram, p.id, uintptr(len(ids)), idp, uintptr(unsafe.Pointer(&opts[0])), 0, 0)
	runtime.KeepAlive(ids)
	if err := check("clBuildProgram", code); err != nil {
		be := &BuildError{Err: err, Options: options}
		for _, d := range devices {
			if log := p.BuildLog(d); strings.TrimSpace(log) != "" {
				be.Device, be.Log = d.Name(), log
				break
			}
		}
		return be
	}
	return nil
}

// BuildLog returns the program's build log for device d.
func (p *Program) BuildLog(d Device) string {
	l, err := lib()
	if err != nil {
		return ""
	}
	var size uintptr
	if check("clGetProgramBuildInfo", status(l.GetProgramBuildInfo, p.id, d.id, programBuildLog, 0, 0, uintptr(unsafe.Pointer(&size)))) != nil || size == 0 {
		return ""
	}
	buf := make([]byte, size)
	if check("clGetProgramBuildInfo", status(l.GetProgramBuildInfo, p.id, d.id, programBuildLog, size, uintptr(unsafe.Pointer(&buf[0])), 0)) != nil {
		return ""
	}
	return cString(buf)
}

// Release releases the program.
func (p *Program) Release() error {
	l, err := lib()
	if err != nil || p == nil || p.id == 0 {
		return err
	}
	err = check("clReleaseProgram", status(l.ReleaseProgram, p.id))
	p.id = 0
	return err
}

// Kernel is an OpenCL kernel (cl_kernel). A kernel's arguments are state:
// use one kernel from one goroutine at a time.
type Kernel struct {
	id   uintptr
	name string
}

// CreateKernel returns the program's kernel called name.
func (p *Program) CreateKernel(name string) (*Kernel, error) {
	l, err := lib()
	if err != nil {
		return nil, err
	}
	cname := append([]byte(name), 0)
	var code int32
	id := call(l.CreateKernel, p.id, uintptr(unsafe.Pointer(&cname[0])), uintptr(unsafe.Pointer(&code)))
	if err := check("clCreateKernel", code); err != nil {
		return nil, fmt.Errorf("kernel %q: %w", name, err)
	}
	return &Kernel{id: id, name: name}, nil
}

// Name returns the kernel's function name.
func (k *Kernel) Name() string { return k.name }

// LocalBuffer is a kernel argument that reserves so many bytes of local
// memory for a __local pointer parameter.
type LocalBuffer int

// SetArg sets argument i. Accepted values: *MemObject, LocalBuffer, int32,
// uint32, int64, uint64, int (passed as a 64-bit long), float32, float64
// and []byte (raw bytes of a by-value struct).
func (k *Kernel) SetArg(i int, v any) error {
	l, err := lib()
	if err != nil {
		return err
	}
	var raw []byte
	switch x := v.(type) {
	case *MemObject:
		id := x.id
		code := status(l.SetKernelArg, k.id, uintptr(i), unsafe.Sizeof(id), uintptr(unsafe.Pointer(&id)))
		return k.argErr(i, check("clSetKernelArg", code))
	case LocalBuffer:
		return k.argErr(i, check("clSetKernelArg", status(l.SetKernelArg, k.id, uintptr(i), uintptr(x), 0)))
	case int32:
		raw = binary.LittleEndian.AppendUint32(nil, uint32(x))
	case uint32:
		raw = binary.LittleEndian.AppendUint32(nil, x)
	case int64:
		raw = binary.LittleEndian.AppendUint64(nil, uint64(x))
	case uint64:
		raw = binary.LittleEndian.AppendUint64(nil, x)
	case int:
		raw = binary.LittleEndian.AppendUint64(nil, uint64(x))
	case float32:
		raw = binary.LittleEndian.AppendUint32(nil, math.Float32bits(x))
	case float64:
		raw = binary.LittleEndian.AppendUint64(nil, math.Float64bits(x))
	case []byte:
		raw = x
	default:
		return fmt.Errorf("kernel %s: argument %d: unsupported type %T", k.name, i, v)
	}
	if len(raw) == 0 {
		return fmt.Errorf("kernel %s: argument %d: empty value", k.name, i)
	}
	code := status(l.SetKernelArg, k.id, uintptr(i), uintptr(len(raw)), uintptr(unsafe.Pointer(&raw[0])))
	return k.argErr(i, check("clSetKernelArg", code))
}

func (k *Kernel) argErr(i int, err error) error {
	if err != nil {
		return fmt.Errorf("kernel %s: argument %d: %w", k.name, i, err)
	}
	return nil
}

// SetArgs sets the arguments 0, 1, ... to args, as SetArg does.
func (k *Kernel) SetArgs(args ...any) error {
	for i, a := range args {
		if err := k.SetArg(i, a); err != nil {
			return err
		}
	}
	return nil
}

func (k *Kernel) wgInfo(d Device, param uint32) (uint64, error) {
	l, err := lib()
	if err != nil {
		return 0, err
	}
	var v uint64
	err = check("clGetKernelWorkGroupInfo", status(l.GetKernelWorkGroupInfo, k.id, d.id, uintptr(param), 8, uintptr(unsafe.Pointer(&v)), 0))
	return v, err
}

// WorkGroupSize returns CL_KERNEL_WORK_GROUP_SIZE: the largest work-group
// this kernel can be launched with on d (it may be below the device's
// maximum when the kernel uses many registers).
func (k *Kernel) WorkGroupSize(d Device) (int, error) {
	v, err := k.wgInfo(d, kernelWorkGroupSize)
	return int(v), err
}

// PreferredWorkGroupSizeMultiple returns
// CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE (the warp or SIMD width).
func (k *Kernel) PreferredWorkGroupSizeMultiple(d Device) (int, error) {
	v, err := k.wgInfo(d, kernelPreferredWGSMultiple)
	return int(v), err
}

// LocalMemSize returns CL_KERNEL_LOCAL_MEM_SIZE, the local memory the
// kernel uses with its current arguments.
func (k *Kernel) LocalMemSize(d Device) (int64, error) {
	v, err := k.wgInfo(d, kernelLocalMemSize)
	return int64(v), err
}

// Release releases the kernel.
func (k *Kernel) Release() error {
	l, err := lib()
	if err != nil || k == nil || k.id == 0 {
		return err
	}
	err = check("clReleaseKernel", status(l.ReleaseKernel, k.id))
	k.id = 0
	return err
}

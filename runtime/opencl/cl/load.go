package cl

import (
	"fmt"
	"os"
	"sync"

	"github.com/ebitengine/purego"
)

// LibraryEnv names the environment variable that overrides the path of the
// OpenCL loader library.
const LibraryEnv = "SOACGEN_OPENCL_LIBRARY"

// defaultLibrary is the ICD loader's soname: the unversioned libOpenCL.so
// exists only where development packages are installed.
const defaultLibrary = "libOpenCL.so.1"

// library holds the entry points of one opened OpenCL library. Each field
// is the address of the C function of the same name with the "cl" prefix.
type library struct {
	GetPlatformIDs             uintptr
	GetPlatformInfo            uintptr
	GetDeviceIDs               uintptr
	GetDeviceInfo              uintptr
	CreateContext              uintptr
	ReleaseContext             uintptr
	CreateCommandQueue         uintptr
	ReleaseCommandQueue        uintptr
	CreateBuffer               uintptr
	ReleaseMemObject           uintptr
	CreateProgramWithSource    uintptr
	BuildProgram               uintptr
	GetProgramBuildInfo        uintptr
	ReleaseProgram             uintptr
	CreateKernel               uintptr
	SetKernelArg               uintptr
	GetKernelWorkGroupInfo     uintptr
	ReleaseKernel              uintptr
	EnqueueNDRangeKernel       uintptr
	EnqueueReadBuffer          uintptr
	EnqueueWriteBuffer         uintptr
	EnqueueCopyBuffer          uintptr
	WaitForEvents              uintptr
	GetEventProfilingInfo      uintptr
	ReleaseEvent               uintptr
	Finish                     uintptr
	Flush                      uintptr
	GetEventInfo               uintptr
	GetKernelInfo              uintptr
	GetCommandQueueInfo        uintptr
	EnqueueBarrierWithWaitList uintptr
	EnqueueMapBuffer           uintptr
	EnqueueUnmapMemObject      uintptr
}

// symbols lists the library's entry points with the fields they fill.
func (l *library) symbols() []struct {
	name string
	dst  *uintptr
} {
	return []struct {
		name string
		dst  *uintptr
	}{
		{"clGetPlatformIDs", &l.GetPlatformIDs},
		{"clGetPlatformInfo", &l.GetPlatformInfo},
		{"clGetDeviceIDs", &l.GetDeviceIDs},
		{"clGetDeviceInfo", &l.GetDeviceInfo},
		{"clCreateContext", &l.CreateContext},
		{"clReleaseContext", &l.ReleaseContext},
		{"clCreateCommandQueue", &l.CreateCommandQueue},
		{"clReleaseCommandQueue", &l.ReleaseCommandQueue},
		{"clCreateBuffer", &l.CreateBuffer},
		{"clReleaseMemObject", &l.ReleaseMemObject},
		{"clCreateProgramWithSource", &l.CreateProgramWithSource},
		{"clBuildProgram", &l.BuildProgram},
		{"clGetProgramBuildInfo", &l.GetProgramBuildInfo},
		{"clReleaseProgram", &l.ReleaseProgram},
		{"clCreateKernel", &l.CreateKernel},
		{"clSetKernelArg", &l.SetKernelArg},
		{"clGetKernelWorkGroupInfo", &l.GetKernelWorkGroupInfo},
		{"clReleaseKernel", &l.ReleaseKernel},
		{"clEnqueueNDRangeKernel", &l.EnqueueNDRangeKernel},
		{"clEnqueueReadBuffer", &l.EnqueueReadBuffer},
		{"clEnqueueWriteBuffer", &l.EnqueueWriteBuffer},
		{"clEnqueueCopyBuffer", &l.EnqueueCopyBuffer},
		{"clWaitForEvents", &l.WaitForEvents},
		{"clGetEventProfilingInfo", &l.GetEventProfilingInfo},
		{"clReleaseEvent", &l.ReleaseEvent},
		{"clFinish", &l.Finish},
		{"clFlush", &l.Flush},
		{"clGetEventInfo", &l.GetEventInfo},
		{"clGetKernelInfo", &l.GetKernelInfo},
		{"clGetCommandQueueInfo", &l.GetCommandQueueInfo},
		{"clEnqueueBarrierWithWaitList", &l.EnqueueBarrierWithWaitList},
		{"clEnqueueMapBuffer", &l.EnqueueMapBuffer},
		{"clEnqueueUnmapMemObject", &l.EnqueueUnmapMemObject},
	}
}

// openLibrary opens the library at path and resolves every entry point.
// Any failure wraps ErrNoLibrary.
func openLibrary(path string) (*library, error) {
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, fmt.Errorf("%w: dlopen %s: %v", ErrNoLibrary, path, err)
	}
	l := new(library)
	for _, s := range l.symbols() {
		addr, err := purego.Dlsym(h, s.name)
		if err != nil || addr == 0 {
			return nil, fmt.Errorf("%w: %s lacks %s: %v", ErrNoLibrary, path, s.name, err)
		}
		*s.dst = addr
	}
	return l, nil
}

var (
	loadOnce sync.Once
	loaded   *library
	loadErr  error
)

// libraryPath returns the path the loader opens: $SOACGEN_OPENCL_LIBRARY
// or libOpenCL.so.1.
func libraryPath() string {
	if p := os.Getenv(LibraryEnv); p != "" {
		return p
	}
	return defaultLibrary
}

// Load opens the OpenCL library once per process and reports why it cannot
// be used; the error wraps ErrNoLibrary. Every other function calls it, so
// calling it first is needed only to probe for OpenCL.
func Load() error {
	_, err := lib()
	return err
}

// lib returns the process's library, opening it on first use.
func lib() (*library, error) {
	loadOnce.Do(func() { loaded, loadErr = openLibrary(libraryPath()) })
	return loaded, loadErr
}

// call invokes the C function at fn with integer and pointer arguments and
// returns its result as an OpenCL handle. Pointers to Go memory must be
// converted to uintptr in the argument list of the call itself: the
// uintptrescapes directive then moves their referents to the heap and keeps
// them alive until the call returns.
//
//go:uintptrescapes
func call(fn uintptr, args ...uintptr) uintptr {
	r, _, _ := purego.SyscallN(fn, args...)
	return r
}

// status is call for functions that return cl_int.
//
//go:uintptrescapes
func status(fn uintptr, args ...uintptr) int32 {
	r, _, _ := purego.SyscallN(fn, args...)
	return int32(r)
}

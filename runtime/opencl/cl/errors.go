package cl

import (
	"errors"
	"fmt"
)

// Sentinel errors for the ways OpenCL can be missing. Test with errors.Is.
var (
	// ErrNoLibrary reports that the OpenCL loader library could not be
	// opened, or that it lacks a required entry point.
	ErrNoLibrary = errors.New("opencl: library not available")
	// ErrNoPlatform reports that the loader found no OpenCL platform.
	ErrNoPlatform = errors.New("opencl: no platform")
	// ErrNoDevice reports that no device of the requested type exists.
	ErrNoDevice = errors.New("opencl: no device")
)

// Error is a failed OpenCL call: the name of the C function and the status
// code it returned.
type Error struct {
	Call string // the OpenCL function, e.g. "clBuildProgram"
	Code int32  // the negative status code
}

// Error formats the call, the symbolic name of the code and the code.
func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s (%d)", e.Call, CodeName(e.Code), e.Code)
}

// Is makes errors.Is(err, ErrNoPlatform) and errors.Is(err, ErrNoDevice)
// hold for the status codes that mean exactly that.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrNoPlatform:
		return e.Code == codePlatformNotFoundKHR
	case ErrNoDevice:
		return e.Code == codeDeviceNotFound
	}
	return false
}

// BuildError is a program that failed to compile; Log is the compiler's
// output for the device.
type BuildError struct {
	Err     error  // the *Error of clBuildProgram
	Device  string // the device's name
	Options string // the build options
	Log     string // the build log
}

// Error includes the whole build log.
func (e *BuildError) Error() string {
	return fmt.Sprintf("%v on %q (options %q); build log:\n%s", e.Err, e.Device, e.Options, e.Log)
}

// Unwrap returns the underlying *Error.
func (e *BuildError) Unwrap() error { return e.Err }

const (
	codeSuccess             = 0
	codeDeviceNotFound      = -1
	codeBuildProgramFailure = -11
	codePlatformNotFoundKHR = -1001
)

// codeNames holds the symbolic names of the standard status codes of
// OpenCL 1.0 to 3.0, and the ICD loader's CL_PLATFORM_NOT_FOUND_KHR.
var codeNames = map[int32]string{
	0:     "CL_SUCCESS",
	-1:    "CL_DEVICE_NOT_FOUND",
	-2:    "CL_DEVICE_NOT_AVAILABLE",
	-3:    "CL_COMPILER_NOT_AVAILABLE",
	-4:    "CL_MEM_OBJECT_ALLOCATION_FAILURE",
	-5:    "CL_OUT_OF_RESOURCES",
	-6:    "CL_OUT_OF_HOST_MEMORY",
	-7:    "CL_PROFILING_INFO_NOT_AVAILABLE",
	-8:    "CL_MEM_COPY_OVERLAP",
	-9:    "CL_IMAGE_FORMAT_MISMATCH",
	-10:   "CL_IMAGE_FORMAT_NOT_SUPPORTED",
	-11:   "CL_BUILD_PROGRAM_FAILURE",
	-12:   "CL_MAP_FAILURE",
	-13:   "CL_MISALIGNED_SUB_BUFFER_OFFSET",
	-14:   "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
	-15:   "CL_COMPILE_PROGRAM_FAILURE",
	-16:   "CL_LINKER_NOT_AVAILABLE",
	-17:   "CL_LINK_PROGRAM_FAILURE",
	-18:   "CL_DEVICE_PARTITION_FAILED",
	-19:   "CL_KERNEL_ARG_INFO_NOT_AVAILABLE",
	-30:   "CL_INVALID_VALUE",
	-31:   "CL_INVALID_DEVICE_TYPE",
	-32:   "CL_INVALID_PLATFORM",
	-33:   "CL_INVALID_DEVICE",
	-34:   "CL_INVALID_CONTEXT",
	-35:   "CL_INVALID_QUEUE_PROPERTIES",
	-36:   "CL_INVALID_COMMAND_QUEUE",
	-37:   "CL_INVALID_HOST_PTR",
	-38:   "CL_INVALID_MEM_OBJECT",
	-39:   "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR",
	-40:   "CL_INVALID_IMAGE_SIZE",
	-41:   "CL_INVALID_SAMPLER",
	-42:   "CL_INVALID_BINARY",
	-43:   "CL_INVALID_BUILD_OPTIONS",
	-44:   "CL_INVALID_PROGRAM",
	-45:   "CL_INVALID_PROGRAM_EXECUTABLE",
	-46:   "CL_INVALID_KERNEL_NAME",
	-47:   "CL_INVALID_KERNEL_DEFINITION",
	-48:   "CL_INVALID_KERNEL",
	-49:   "CL_INVALID_ARG_INDEX",
	-50:   "CL_INVALID_ARG_VALUE",
	-51:   "CL_INVALID_ARG_SIZE",
	-52:   "CL_INVALID_KERNEL_ARGS",
	-53:   "CL_INVALID_WORK_DIMENSION",
	-54:   "CL_INVALID_WORK_GROUP_SIZE",
	-55:   "CL_INVALID_WORK_ITEM_SIZE",
	-56:   "CL_INVALID_GLOBAL_OFFSET",
	-57:   "CL_INVALID_EVENT_WAIT_LIST",
	-58:   "CL_INVALID_EVENT",
	-59:   "CL_INVALID_OPERATION",
	-60:   "CL_INVALID_GL_OBJECT",
	-61:   "CL_INVALID_BUFFER_SIZE",
	-62:   "CL_INVALID_MIP_LEVEL",
	-63:   "CL_INVALID_GLOBAL_WORK_SIZE",
	-64:   "CL_INVALID_PROPERTY",
	-65:   "CL_INVALID_IMAGE_DESCRIPTOR",
	-66:   "CL_INVALID_COMPILER_OPTIONS",
	-67:   "CL_INVALID_LINKER_OPTIONS",
	-68:   "CL_INVALID_DEVICE_PARTITION_COUNT",
	-69:   "CL_INVALID_PIPE_SIZE",
	-70:   "CL_INVALID_DEVICE_QUEUE",
	-71:   "CL_INVALID_SPEC_ID",
	-72:   "CL_MAX_SIZE_RESTRICTION_EXCEEDED",
	-1001: "CL_PLATFORM_NOT_FOUND_KHR",
}

// CodeName returns the symbolic name of an OpenCL status code, or
// "CL_UNKNOWN_ERROR" for a code outside the standard table.
func CodeName(code int32) string {
	if s, ok := codeNames[code]; ok {
		return s
	}
	return "CL_UNKNOWN_ERROR"
}

// check turns a status code into nil or an *Error for call.
func check(call string, code int32) error {
	if code == codeSuccess {
		return nil
	}
	return &Error{Call: call, Code: code}
}

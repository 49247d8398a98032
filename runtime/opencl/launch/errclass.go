package launch

// This file classifies the errors of failed launches: those that depend
// on one call's sizes cost that call only, every other disables the
// kernel for the process (launch.go's built.fail). It does not handle
// the failures before a launch (no device, no fp64, a failed build),
// which are all permanent.

import (
	"errors"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
)

// perCallCodes are the OpenCL status codes (by their symbolic names,
// cl.CodeName) that one call's sizes cause: a later call with smaller
// arrays may succeed, so the kernel stays in use. Each says why.
// CL_OUT_OF_RESOURCES is not among them: drivers also report it after a
// kernel faulted, which leaves the context unusable, and for a
// work-group's resources, which the kernel fixes.
var perCallCodes = map[string]string{
	"CL_INVALID_BUFFER_SIZE":           "a buffer larger than the device's largest allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
	"CL_MEM_OBJECT_ALLOCATION_FAILURE": "the device could not allocate this call's buffers",
	"CL_OUT_OF_HOST_MEMORY":            "the OpenCL runtime could not allocate host memory for this call",
	"CL_INVALID_GLOBAL_WORK_SIZE":      "more work-items than the device can index",
	"CL_MAX_SIZE_RESTRICTION_EXCEEDED": "a size beyond the device's limits",
}

// perCall reports whether err, a failed launch, depends on the call's
// sizes (perCallCodes), and why: the first OpenCL status in its chain
// decides.
func perCall(err error) (string, bool) {
	var e *cl.Error
	if !errors.As(err, &e) {
		return "", false
	}
	why, ok := perCallCodes[cl.CodeName(e.Code)]
	return why, ok
}

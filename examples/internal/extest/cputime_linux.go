package extest

import (
	"syscall"
	"unsafe"
)

// processCPU returns the CPU time the process has used so far, in
// nanoseconds, summed over its threads (CLOCK_PROCESS_CPUTIME_ID: the
// scheduler's own accounting, not ticks).
func processCPU() int64 {
	var ts syscall.Timespec
	const clockProcessCPUTimeID = 2
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return ts.Nano()
}

// minorFaults returns the process's minor page faults so far (getrusage:
// a page first touched, or given back to the kernel and touched again).
func minorFaults() int64 {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return 0
	}
	return int64(r.Minflt)
}

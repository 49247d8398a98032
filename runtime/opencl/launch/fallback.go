package launch

// This file counts the launches that returned false once their kernel
// was usable, so that tests can tell a run on the device from one whose
// CPU code ran: Transfers counts arrays, and a launch that fails or sets
// its panic flag may move as many as one that succeeds. It does not
// count calls the CPU code handles before a kernel is asked for (empty
// or unequal lengths), nor those of a kernel that cannot run here (no
// device, a failed build, an earlier failed launch: Kernel is nil, and
// the log line says why).

import (
	"sync"
	"sync/atomic"
)

// The reasons a usable kernel's launch returns false (LastFallback).
const (
	// whyFlag: a work-item reached a place where Go panics; the CPU code
	// raises the spec's panic.
	whyFlag = "a work-item's panic flag is set"
	// whyFailed: the launch failed (logged once; the kernel is not tried
	// again).
	whyFailed = "the launch failed"
	// whyRoom: a stream reduction's row does not fit the device's
	// scratch of rows (skel.StreamRedKernel.Fits).
	whyRoom = "the row is too long for the device"
)

var (
	fallbackN    atomic.Int64
	fallbackMu   sync.Mutex
	fallbackLast string
)

// fellBack counts a launch of the kernel name at at that returns false
// though its kernel was usable, for why, and returns false (for the
// launch to return).
func fellBack(at, name, why string) bool {
	fallbackMu.Lock()
	fallbackLast = at + ": OpenCL kernel " + name + ": " + why
	fallbackMu.Unlock()
	fallbackN.Add(1)
	return false
}

// failure returns why a run of b's kernel that returned false did: the
// launch failed when b is broken now (it was not when the run asked for
// the kernel), else a work-item's panic flag is set.
func (b *built[K]) failure() string {
	if b.broken.Load() {
		return whyFailed
	}
	return whyFlag
}

// Fallbacks returns how many launches of generated kernels have
// returned false so far in the process although their kernel was built
// for the device: a work-item's panic flag set, a failed launch, a
// stream reduction's row too long for the device. Each made the
// generated code run its CPU code. Calls that return false before (the
// CPU code's cases of empty or unequal lengths; Kernel nil) are not
// counted. Tests read differences around a call: 0 says every launch of
// it that was made ran on the device.
func Fallbacks() int64 { return fallbackN.Load() }

// LastFallback returns the reason of the last counted fallback
// ("file.go:12:9: OpenCL kernel name: a work-item's panic flag is
// set"), or "" when there was none, for test messages.
func LastFallback() string {
	fallbackMu.Lock()
	defer fallbackMu.Unlock()
	return fallbackLast
}

package launch

// This file records why generated kernels ran on the CPU: the listing
// users read (FallbackList: kernel, cause, calls), the log line printed
// once per process and cause, and the count of launches that returned
// false once their kernel was usable (Fallbacks), with which tests tell
// a run on the device from one whose CPU code ran: Transfers counts
// arrays, and a launch that fails or sets its panic flag may move as
// many as one that succeeds. It does not decide which failures disable
// a kernel (errclass.go does) nor run anything.

import (
	"cmp"
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/soacgen/soacgen/runtime/opencl/cl"
)

// The reasons a usable kernel's launch returns false (LastFallback).
const (
	// whyFlag: a work-item reached a place where Go panics; the CPU code
	// raises the spec's panic.
	whyFlag = "a work-item's panic flag is set"
	// whyFailed: the launch failed with an error that does not depend
	// on the call's sizes (logged once; the kernel is not tried again).
	whyFailed = "the launch failed"
	// whyCall: the launch failed with an error of this call's sizes
	// (errclass.go; logged once per cause; later calls try the device).
	whyCall = "the launch failed for this call's sizes"
	// whyRoom: a stream reduction's row does not fit the device's
	// scratch of rows (skel.StreamRedKernel.Fits).
	whyRoom = "the row is too long for the device"
)

// Fallback is one entry of FallbackList: calls of one generated kernel
// that ran the generated function's CPU code for one cause.
type Fallback struct {
	// At is the kernel's position in its spec ("file.go:12:9") and
	// Kernel its name in the OpenCL program.
	At, Kernel string
	// Cause says why, for example "no OpenCL device: ...", "build
	// failed: ...", "the launch failed: ...", "the launch failed for this
	// call's sizes: ...", "a work-item's panic flag is set" (the CPU code
	// then raises the spec's panic) or "the row is too long for the
	// device".
	Cause string
	// Permanent reports that the cause disabled the kernel for the rest
	// of the process: no device, a device without fp64, a failed build,
	// a launch failure that does not depend on the call. Calls of other
	// causes tried the device, and later calls try it again.
	Permanent bool
	// Calls counts the calls for this cause so far: each launch that
	// returned false, and, once Permanent, each time the generated code
	// asked for the kernel (Kernel returned nil).
	Calls int64
}

// fallbackEntry is a Fallback being counted.
type fallbackEntry struct {
	Fallback
	calls atomic.Int64
}

type fallbackKey struct{ at, kernel, cause string }

var (
	fallbackN    atomic.Int64
	fallbackMu   sync.Mutex
	fallbackLast string
	// fallbackList holds an entry per kernel and cause, in the order
	// they first happened; fallbackIndex finds them.
	fallbackList  []*fallbackEntry
	fallbackIndex = map[fallbackKey]*fallbackEntry{}
	// logged are the causes logged so far (logKey).
	logged = map[string]bool{}
)

// entry returns the entry of kernel name at at for cause, adding it
// (marked permanent when permanent is set) the first time.
func entry(at, name, cause string, permanent bool) *fallbackEntry {
	fallbackMu.Lock()
	defer fallbackMu.Unlock()
	k := fallbackKey{at, name, cause}
	e := fallbackIndex[k]
	if e == nil {
		e = &fallbackEntry{Fallback: Fallback{At: at, Kernel: name, Cause: cause}}
		fallbackIndex[k] = e
		fallbackList = append(fallbackList, e)
	}
	e.Permanent = e.Permanent || permanent
	return e
}

// FallbackList returns, for every generated kernel some of whose calls
// ran on the CPU so far in the process, one entry per cause with its
// count, ordered by At and Kernel (as text), then by the time the cause
// first happened. The log prints each cause once per process (at the
// first kernel it hit); this lists them all, for example
//
//	for _, f := range launch.FallbackList() {
//		log.Printf("%s: %s: %d calls on the CPU: %s", f.At, f.Kernel, f.Calls, f.Cause)
//	}
//
// before a program exits, or in a test that requires the device. It is safe to call from
// any goroutine, also while kernels run; an empty list says every call
// that asked for a kernel ran it on the device (or left an empty input
// or unequal lengths to the CPU code, as the spec handles them).
func FallbackList() []Fallback {
	fallbackMu.Lock()
	out := make([]Fallback, len(fallbackList))
	for i, e := range fallbackList {
		out[i] = e.Fallback
		out[i].Calls = e.calls.Load()
	}
	fallbackMu.Unlock()
	slices.SortStableFunc(out, func(a, b Fallback) int { return cmp.Or(cmp.Compare(a.At, b.At), cmp.Compare(a.Kernel, b.Kernel)) })
	return out
}

// logOnce prints the line of kernel name at at for cause unless a line
// with the same logKey was printed before in the process: with no
// OpenCL platform every kernel has the same cause, which is logged once
// (FallbackList lists the others).
func logOnce(key, format string, args ...any) {
	fallbackMu.Lock()
	done := logged[key]
	logged[key] = true
	fallbackMu.Unlock()
	if !done {
		Logf(format+" (logged once per process; launch.FallbackList lists every kernel that ran on the CPU and why)", args...)
	}
}

// logKey is what makes two failures one cause for the log: an OpenCL
// call's status (a launch that fails for every kernel fails with the
// same one, whatever the kernel's name in the message), else the whole
// error.
func logKey(class string, err error) string {
	if e := (*cl.Error)(nil); errors.As(err, &e) {
		return class + ": " + e.Error()
	}
	return class + ": " + err.Error()
}

// fellBack counts a launch of the kernel name at at that returns false
// though its kernel was usable, for why, and returns false (for the
// launch to return).
func fellBack(at, name, why string) bool {
	entry(at, name, why, false).calls.Add(1)
	fallbackMu.Lock()
	fallbackLast = at + ": OpenCL kernel " + name + ": " + why
	fallbackMu.Unlock()
	fallbackN.Add(1)
	return false
}

// Fallbacks returns how many launches of generated kernels have
// returned false so far in the process although their kernel was built
// for the device: a work-item's panic flag set, a failed launch, a
// stream reduction's row too long for the device. Each made the
// generated code run its CPU code. Calls that return false before (the
// CPU code's cases of empty or unequal lengths; Kernel nil) are not
// counted. Tests read differences around a call: 0 says every launch of
// it that was made ran on the device. FallbackList says which kernels
// and why, also for the calls this leaves out.
func Fallbacks() int64 { return fallbackN.Load() }

// LastFallback returns the reason of the last counted fallback
// ("file.go:12:9: OpenCL kernel name: a work-item's panic flag is
// set"), or "" when there was none, for test messages.
func LastFallback() string {
	fallbackMu.Lock()
	defer fallbackMu.Unlock()
	return fallbackLast
}

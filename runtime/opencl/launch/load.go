package launch

// This file is backend=auto's view of the device's load: how many runs
// hold one of its queues now (device.Busy), of every goroutine of the
// process. The cost model (auto.go: worthWork) counts a call's device
// time once per run in flight plus its own: concurrent runs share the
// device, each on a queue of its own, so a call that would win on an
// idle device runs the host's code while the device is busy. It does
// not queue or run anything.

import (
	"sync/atomic"

	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// loaded is the process's device once a kernel was built for it (built.get);
// deviceLoad reads it, and 0 before, without opening the device.
var loaded atomic.Pointer[device.Device]

// deviceLoad returns how many runs hold a queue of the process's device
// now; tests replace it.
var deviceLoad = func() int {
	if d := loaded.Load(); d != nil {
		return d.Busy()
	}
	return 0
}

// busyN counts the calls that the model sent to the host only because
// the device was busy.
var busyN atomic.Int64

// countBusy counts a call that the model sent to the host on the loaded
// device when, on an idle one, it would have sent it to the device (and
// the process's Choice follows the model).
func countBusy(idle, bytes, ops float64, parallel bool) {
	switch Choice(choice.Load()) {
	case ByModel:
		if !GPU() {
			return // the call runs on the host whatever the load
		}
	case ModelAnyDevice:
	default:
		return
	}
	if idle < hostNs(bytes, ops, coresFor(parallel)) {
		busyN.Add(1)
	}
}

// BusyChoices returns how many backend=auto calls so far in the process
// ran the host's code only because the device was busy: on an idle
// device the cost model would have run them there. Tests and benchmarks
// read differences around a workload.
func BusyChoices() int64 { return busyN.Load() }

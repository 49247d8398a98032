package clresident

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// Package clresident's specs keep arrays on the device across a spec's
// kernels and rounds: inputs uploaded once per call (unwritten.go),
// scan and filter outputs kept for the kernels that read them
// (scankept.go). TestMain is testdata/opencl's: the differential test
// (rewrite's differential test, which copies this file beside the
// generated one) fails when a generated kernel could not run where
// OpenCL exists (a failed build or launch, or, with
// SOACGEN_REQUIRE_OPENCL=1, any kernel on the CPU) and when a device is
// there but no kernel ran on it. The tests' deliberately broken kernels
// silence their log lines (quiet).
func TestMain(m *testing.M) {
	var mu sync.Mutex
	var lines []string
	launch.Logf = func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprintf(format, args...))
	}
	code := m.Run()
	noDevice := false
	for _, l := range lines {
		noDevice = noDevice || strings.Contains(l, "no OpenCL device")
		if strings.Contains(l, "build failed") || strings.Contains(l, "failed, it runs on the CPU") || os.Getenv("SOACGEN_REQUIRE_OPENCL") == "1" {
			fmt.Println("a generated kernel did not run on the device:", l)
			code = 1
		}
	}
	if k, _ := launch.DeviceTime(); k == 0 && !noDevice {
		fmt.Println("no generated kernel ran on the device")
		code = 1
	}
	os.Exit(code)
}

// moved returns the arrays uploaded and downloaded by generated kernels
// during f.
func moved(f func()) (up, down int64) {
	u0, d0 := launch.Transfers()
	f()
	u1, d1 := launch.Transfers()
	return u1 - u0, d1 - d0
}

// onDevice skips t unless every kernel runs on the device.
func onDevice(t *testing.T, ks ...*launch.Redomap) {
	for _, k := range ks {
		if k.Kernel() == nil {
			t.Skip("no usable OpenCL device")
		}
	}
}

func ints(n int) []int64 {
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = int64(i*7919%201) - 100
	}
	return xs
}

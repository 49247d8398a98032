package opencl

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/launch"
)

// TestMain makes the differential test (rewrite's differential test, which
// copies this file beside the generated one) fail when a generated kernel
// could not run where OpenCL exists: a failed build or launch, or, with
// SOACGEN_REQUIRE_OPENCL=1, any kernel running on the CPU; and when a
// device is there but no kernel ran on it. Without this, such a kernel
// would fall back to the CPU and still equal its spec.
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

// Package testkit holds the helpers that tests across soacgen share: the
// repository's root and the OpenCL device a test runs on (or skips
// without). It is imported by tests and test helpers only.
//
// The rewrite/testdata cases cannot use it: the differential tests build
// each case as a module of its own (example.com/NAME) that requires this
// repository through a replace directive, and Go lets only packages
// under the repository's root import an internal package. Those cases
// keep their own copies.
package testkit

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/device"
)

// RequireOpenCLEnv is the environment variable that CI sets to 1: tests
// that need an OpenCL device then fail without one instead of skipping.
const RequireOpenCLEnv = "SOACGEN_REQUIRE_OPENCL"

// RequireOpenCL reports whether RequireOpenCLEnv is 1.
func RequireOpenCL() bool { return os.Getenv(RequireOpenCLEnv) == "1" }

// Device returns the process's default OpenCL device. Without one it
// skips t, or fails it when RequireOpenCL.
func Device(t testing.TB) *device.Device {
	t.Helper()
	d, err := device.Default()
	if err != nil {
		if RequireOpenCL() {
			t.Fatalf("%s=1 but no OpenCL device: %v", RequireOpenCLEnv, err)
		}
		t.Skipf("no OpenCL device: %v", err)
	}
	return d
}

// RepoRoot returns the directory of the soacgen repository, found from
// this file's location (two levels below the root).
func RepoRoot() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("testkit: cannot locate testkit.go")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

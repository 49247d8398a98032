//go:build !unix

package soac_test

import "time"

// processCPUTime reports that CPU time is not available on this platform;
// the benchmarks then report wall-clock time only.
func processCPUTime() (time.Duration, bool) { return 0, false }

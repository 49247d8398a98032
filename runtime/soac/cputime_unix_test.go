//go:build unix

package soac_test

import (
	"syscall"
	"time"
)

// processCPUTime returns the user plus system CPU time this process has used
// so far, and whether it could be read.
func processCPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

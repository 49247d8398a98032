//go:build !linux

package extest

// processCPU returns 0 where the process's CPU time is not read: the
// benchmarks' CPU-time metrics are then 0.
func processCPU() int64 { return 0 }

// minorFaults returns 0 where the process's page faults are not read.
func minorFaults() int64 { return 0 }

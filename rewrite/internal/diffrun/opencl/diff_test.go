package opencl

import (
	"testing"

	"github.com/soacgen/soacgen/rewrite/internal/diffrun/runner"
)

// TestDifferential runs the differential test of every case of shard opencl.
func TestDifferential(t *testing.T) { runner.Run(t, "opencl") }

package cpu

import (
	"testing"

	"github.com/soacgen/soacgen/rewrite/internal/diffrun/runner"
)

// TestDifferential runs the differential test of every case of shard cpu.
func TestDifferential(t *testing.T) { runner.Run(t, "cpu") }

package openclfma

import (
	"testing"

	"github.com/soacgen/soacgen/rewrite/internal/diffrun/runner"
)

// TestDifferential runs the differential test of every case of shard openclfma.
func TestDifferential(t *testing.T) { runner.Run(t, "openclfma") }

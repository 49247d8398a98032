package simd

import (
	"testing"

	"github.com/soacgen/soacgen/rewrite/internal/diffrun/runner"
)

// TestDifferential runs the differential test of every case of shard
// simd: built with GOEXPERIMENT=simd, at each vector width of the host.
func TestDifferential(t *testing.T) { runner.Run(t, "simd") }

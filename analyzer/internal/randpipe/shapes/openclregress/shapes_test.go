package openclregress

import (
	"testing"

	"github.com/soacgen/soacgen/analyzer/internal/randpipe/shapes"
)

// TestRandomShapes runs shard openclregress, comparing every generated function
// with its spec.
func TestRandomShapes(t *testing.T) { shapes.Run(t, "openclregress") }

package rewrite

import (
	"testing"

	"github.com/soacgen/soacgen/rewrite/internal/diffrun"
)

// The differential test of every testdata case (generated functions
// against their specs, in a module per case) runs in the shard packages
// under internal/diffrun, each a test binary of its own; the tests here
// use its helpers for their own differential runs.

// specTypes records, by package directory and generated NAME, what generation
// saw (filled from the loaded packages).
var specTypes = diffrun.Records{}

// specsOf lists the specs of o; a generic spec is instantiated with every
// type of its constraint's type set.
func specsOf(t *testing.T, o Output) []diffrun.Spec {
	t.Helper()
	return specTypes.Specs(t, o.Path, o.Specs, o.Names)
}

package lochain

import (
	"testing"

	"github.com/samber/lo"
)

// A test's multi-pass lo code is a baseline, not a finding.
func TestBaseline(t *testing.T) {
	if lo.Sum(lo.Map([]int{1, 2}, func(x, _ int) int { return x })) != 3 {
		t.Fatal("sum")
	}
}

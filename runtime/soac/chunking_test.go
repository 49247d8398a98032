package soac_test

import (
	"slices"
	"testing"

	"github.com/soacgen/soacgen/runtime/soac"
)

// TestSetChunking: StreamMap and StreamRed hand their chunk functions
// chunks of the length SetChunking set (the last one shorter), and of
// ChunkSize again after SetChunking(0); a negative length counts as 0.
func TestSetChunking(t *testing.T) {
	xs := soac.Iota(10)
	lens := func() (m, r []int) {
		soac.StreamMap(xs, func(c []int) []int { m = append(m, len(c)); return c })
		soac.StreamRed(xs, func(a, b int) int { return a + b }, func(c []int) int { r = append(r, len(c)); return 0 })
		return m, r
	}
	defer soac.SetChunking(soac.SetChunking(4))
	if m, r := lens(); !slices.Equal(m, []int{4, 4, 2}) || !slices.Equal(r, []int{0, 4, 4, 2}) {
		t.Errorf("chunks of 4: StreamMap's %v, StreamRed's %v; want [4 4 2], [0 4 4 2]", m, r)
	}
	if old := soac.SetChunking(-3); old != 4 {
		t.Errorf("SetChunking returned %d, want 4", old)
	}
	if m, r := lens(); !slices.Equal(m, []int{10}) || !slices.Equal(r, []int{0, 10}) {
		t.Errorf("chunks of ChunkSize: StreamMap's %v, StreamRed's %v; want [10], [0 10]", m, r)
	}
}

package launch

import (
	"fmt"
	"testing"

	"github.com/soacgen/soacgen/runtime/opencl/skel"
)

// incMap is a stream map adding 1 to int32 elements, a chunk at a time;
// an element 99 sets the panic flag.
func incMap() *StreamMap {
	return &StreamMap{At: "m.go:1:1", Spec: skel.StreamMap{
		Name:   "inc_map",
		Inputs: []skel.Param{{Name: "x", Type: skel.Int32}},
		Out:    skel.Int32,
		Chunk: `for (long i = 0; i < soac_room; i++) {
	if (in_x[soac_lo + i] == 99) soac_err = 3;
	soac_row[i] = in_x[soac_lo + i] + 1;
}`,
	}}
}

// TestStreamMapRunOn: a stream map's output kept on the device is read
// there by a later run (no download) and downloaded once by Host; a
// downloaded output holds the map; a panic flag keeps nothing and
// reports false; with KeepOnDevice off, the kept output is downloaded at
// once and the later run uploads it.
func TestStreamMapRunOn(t *testing.T) {
	needDevice(t)
	logs(t)
	m, k := incMap(), double("")
	xs := []int32{1, -2, 3, 40, 5}
	for _, keep := range []bool{true, false} {
		KeepOnDevice = keep
		var s Session
		var a *Array[int32]
		up, down := moved(func() {
			if !m.RunOn(&s, nil, []Input{Host(xs)}, Keep(&a)) || a == nil || a.Len() != 5 {
				t.Fatalf("keep %v: kept stream map: %v", keep, a)
			}
			if ok, out, _ := runOn(k, &s, Dev(a, nil), 5, nil); !ok || fmt.Sprint(out) != "[4 -2 8 82 12]" {
				t.Fatalf("keep %v: run on the kept output = %v, %v", keep, ok, out)
			}
			out := make([]int32, 5)
			if !m.RunOn(&s, nil, []Input{Host(xs)}, Download(out)) || fmt.Sprint(out) != "[2 -1 4 41 6]" {
				t.Fatalf("keep %v: downloaded stream map = %v", keep, out)
			}
		})
		wantUp, wantDown := int64(2), int64(2)
		if !keep {
			wantUp, wantDown = 3, 3
		}
		if up != wantUp || down != wantDown {
			t.Errorf("keep %v: %d uploads and %d downloads, want %d and %d", keep, up, down, wantUp, wantDown)
		}
		if h := a.Host(); fmt.Sprint(h) != "[2 -1 4 41 6]" {
			t.Errorf("keep %v: Host = %v", keep, h)
		}
		var b *Array[int32]
		if m.RunOn(&s, nil, []Input{Host([]int32{1, 99, 2})}, Keep(&b)) || b != nil {
			t.Errorf("keep %v: a flagged run reported success or kept %v", keep, b)
		}
		s.Release()
	}
	KeepOnDevice = true
}

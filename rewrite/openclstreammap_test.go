package rewrite

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenCLStreamMap checks the stream maps of testdata/clstreammap:
// Affine (alone), Scaled (captures), Mapped (a map fused into the
// chunks, rows of structs), Panicky, WrongLength and NamedChunk (a
// declared chunk function) run on the
// stream-map skeleton with no fallback warning, the fused map into a
// scratch buffer, and so do the streams of ChunkedSums, ThenFold and
// ThenStored, whose later members run as a second device kernel; every
// *Refused spec falls back to the parallel backend with its reason.
func TestOpenCLStreamMap(t *testing.T) {
	outs := generateDir(t, filepath.Join("testdata", "clstreammap"))
	if len(outs) != 1 {
		t.Fatalf("%d outputs", len(outs))
	}
	want := map[string]string{
		"mapOutRefusedSpec":    "Map at clstreammap.go:170:8: its output is materialised beside the stream: the stream-map skeleton writes only the stream's output",
		"funcValueRefusedSpec": "the chunk function of StreamMap at clstreammap.go:274:9 is a function or method value, not a literal or a declared function: the row it makes must be visible",
	}
	checkOpenCLRefusals(t, outs[0].Warnings, want)
	src := string(outs[0].Content)
	for _, name := range []string{"Affine", "Scaled", "Mapped", "Panicky", "WrongLength", "NamedChunk", "Drop", "ChunkedSums", "ThenFold", "ThenStored", "ThenLater"} {
		if !strings.Contains(src, "var soacgenCL"+name+" = &launch.StreamMap{") {
			t.Errorf("%s: no OpenCL stream map generated", name)
		}
	}
	// A stream whose output later members read (chunked-then): their
	// loop kernel reads the stream's output where the stream left it,
	// on the device, unless the spec reads it too (ThenStored).
	for _, w := range []string{
		"var soacgenCLChunkedSums2 = &launch.Scan{",
		"var soacgenCLThenFold2 = &launch.Redomap{",
		"var soacgenCLThenStored2 = &launch.Scan{",
		"ok2 = soacgenCLChunkedSums.RunOn(&cls, nil, []launch.Input{launch.Host(xs)}, launch.Keep(&dev))",
		"[]launch.Input{launch.Dev(dev, ys2)}",
		"if ok2 = soacgenCLThenStored.Run(nil, []skel.HostSlice{skel.Slice(xs)}, skel.Slice(clo)); ok2 {",
	} {
		if !strings.Contains(src, w) {
			t.Errorf("no %s", w)
		}
	}
	for _, w := range []string{
		// Mapped's fused map runs into the scratch buffer, whose chunk
		// the chunk function reads; its rows are structs.
		"Scratch: []skel.Param{",
		"(scratch_s__0 + soac_lo), soac_hi - soac_lo)",
		`Out:     launch.Struct("out__0__t", skel.Int32, skel.Float32)`,
		// The chunk function's row is the chunk's part of the output.
		"((__global long *)soac_row, soac_room)",
		// Scaled's captures: by value, and as a buffer.
		"soacgenCLScaled.Run([]any{launch.Arg(k), launch.View(table)}, []skel.HostSlice{skel.Slice(xs)}, skel.Slice(",
	} {
		if !strings.Contains(src, w) {
			t.Errorf("no %s", w)
		}
	}
}

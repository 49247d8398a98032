package rewrite

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenCLStreamRefusals checks the stream reductions of
// testdata/clstreams: CountMod and Stats (rows), ScalarStream,
// ScalarMapped and ScalarStruct (a number or struct per chunk: rows of
// one) run on the stream-reduce skeleton with no fallback warning, and every *Refused spec falls back
// to the parallel backend with its reason.
func TestOpenCLStreamRefusals(t *testing.T) {
	outs := generateDir(t, filepath.Join("testdata", "clstreams"))
	if len(outs) != 1 {
		t.Fatalf("%d outputs", len(outs))
	}
	want := map[string]string{
		"streamMapRefusedSpec":       "the chunk function of StreamMap at clstreams.go:100:9 is not translated to OpenCL C: chunk function at clstreams.go:100:28: its body does not begin a top-level row := make([]E, len(chunk))",
		"lengthRefusedSpec":          "length of the row at clstreams.go:117:23: it reads n, a local of the chunk function: the host computes the length before the launch",
		"arrayChunkRefusedSpec":      "StreamRed at clstreams.go:204:9 reduces [2]int: the stream skeleton's rows hold numbers and structs of numbers",
		"opCaptureStreamRefusedSpec": "the operator of StreamRed at clstreams.go:126:9 captures k: the combine kernel takes no arguments",
	}
	checkOpenCLRefusals(t, outs[0].Warnings, want)
	src := string(outs[0].Content)
	for _, name := range []string{"CountMod", "Stats", "ScalarStream", "ScalarMapped", "ScalarStruct"} {
		if !strings.Contains(src, "var soacgenCL"+name+" = &launch.StreamRed{") {
			t.Errorf("%s: no OpenCL stream reduction generated", name)
		}
	}
	if !strings.Contains(src, "Scratch: []skel.Param{") {
		t.Errorf("Stats: its fused map does not run into a scratch buffer")
	}
}

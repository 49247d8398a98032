package rewrite

import (
	"strings"
	"testing"
)

// TestOpenCLKeptStreamRows checks that a stream reduction's row stays
// on the device for the later kernels that read it
// (testdata/clresident's streamkept.go; checked on the device by
// streamkept_test.go there): the stream keeps it (StreamRed.RunOn with
// launch.Keep, no host row), a reader takes the buffer as its input or
// captured slice and downloads it in its CPU code, the last reader
// releases it; Go code writing it in between makes the stream download
// it.
func TestOpenCLKeptStreamRows(t *testing.T) {
	src := generatedFile(t, "clresident", "streamkept_soac.go")
	for _, c := range []struct {
		name      string
		want, not []string
	}{
		{"StreamRow", []string{
			"var dev *launch.Array[int64]",
			"ok = soacgenCLStreamRow.RunOn(&cls, nil, []launch.Input{launch.Host(xs)}, room, launch.Keep(&dev))",
			"[]launch.Input{launch.Dev(dev, h)}",
			"if !ok2 {\n\t\tif dev != nil {\n\t\t\th = dev.Host()\n\t\t}",
		}, []string{"clo := make"}},
		{"StreamRowCaptured", []string{
			"room, launch.Keep(&dev))",
			"[]any{launch.ViewDev(dev, h)}",
			"h = dev.Host()",
		}, nil},
		{"StreamRowReadBetween", []string{"soacgenCLStreamRowReadBetween.Run(nil, []skel.HostSlice{skel.Slice(xs)}, skel.Slice(clo))"}, []string{"launch.Keep", "dev"}},
	} {
		body := funcBody(t, src, c.name)
		checkBody(t, c.name, body, c.want, c.not)
		if len(c.not) == 0 || c.name == "StreamRow" {
			// One release, after the last reader.
			if n := strings.Count(body, "dev.Release()"); n != 1 {
				t.Errorf("%s: dev.Release() %d times, want once", c.name, n)
			}
		}
	}
}

// TestOpenCLKeptGrids checks that a grid's result stays on the device
// for the later kernels that read it (testdata/clresident's
// gridkept.go; checked on the device by gridkept_test.go there): the
// grid keeps it (Grid.RunOn with launch.KeepRows, no host result), a
// later grid reads it as its rows or as the rows its inner Map runs
// over, a map-reduce's lambda as a captured [][]T (launch.RowsDev),
// each downloading it in its CPU code; a kernel of one work-item per
// row downloads it before it runs; the last reader releases it; Go
// code writing it in between makes the grid download it.
func TestOpenCLKeptGrids(t *testing.T) {
	src := generatedFile(t, "clresident", "gridkept_soac.go")
	keep := func(name string) string {
		return "ok = soacgenCL" + name + ".RunOn(&cls, "
	}
	for _, c := range []struct {
		name      string
		want, not []string
	}{
		{"GridChain", []string{
			"var dev *launch.Matrix[int64]",
			keep("GridChain") + "len(a), len(ys), 0, []any{launch.Rows(a), launch.View(ys), launch.KeepRows(&dev, len(a), len(ys))})",
			"soacgenCLGridChain2.Run(launch.NumRows(dev, c), len(ws), 0, []any{launch.RowsDev(dev, c), launch.View(ws), launch.View(ys), launch.Out(flat2)})",
			"if !ok2 {\n\t\tif dev != nil {\n\t\t\tc = dev.Host()\n\t\t}",
		}, nil},
		{"GridDotIn", []string{
			"launch.KeepRows(&dev, len(a), len(b))",
			"launch.RowLenDev(dev, p, nil, b), []any{launch.RowsDev(dev, p), launch.Rows(b), launch.Out(flat2)}",
			"p = dev.Host()",
		}, nil},
		{"GridDotXs", []string{
			"launch.KeepRows(&dev, len(a), len(b))",
			"launch.RowLenDev(nil, c, dev, p), []any{launch.Rows(c), launch.RowsDev(dev, p), launch.Out(flat2)}",
			"p = dev.Host()",
		}, nil},
		{"GridRowsCaptured", []string{
			"launch.KeepRows(&dev, len(a), len(ys))",
			"soacgenCLGridRowsCaptured2.Run([]any{launch.RowsDev(dev, c)}",
			"c = dev.Host()",
		}, nil},
		{"GridRowsScanned", []string{
			"launch.KeepRows(&dev, len(a), len(ys))",
			// The split's second launch reads the kept rows on the device.
			"soacgenCLGridRowsScannedRest.RunOn(&cls, []any{launch.RowsDev(dev, c)}",
			"c = dev.Host()",
		}, []string{"launch.Rows(c)"}},
		{"GridIntoRows", []string{
			"launch.KeepRows(&dev, len(a), len(ys))",
			// Downloaded before the row kernel, not in its fallback.
			"\tif dev != nil {\n\t\tc = dev.Host()\n\t}\n\tok2 := false\n\tif soacgenCLGridIntoRows2.Kernel() != nil {\n\t\tspans, rows := launch.Flatten(c)",
		}, []string{"RowsDev"}},
		{"GridReadBetween", []string{"launch.Out(flat)}"}, []string{"KeepRows", "launch.Matrix", "dev"}},
	} {
		body := funcBody(t, src, c.name)
		checkBody(t, c.name, body, c.want, c.not)
		if c.name != "GridReadBetween" {
			if n := strings.Count(body, "dev.Release()"); n != 1 {
				t.Errorf("%s: dev.Release() %d times, want once", c.name, n)
			}
			if n := strings.Count(body, "dev.Host()"); n != 1 {
				t.Errorf("%s: dev.Host() %d times, want once", c.name, n)
			}
		}
	}
}

// TestOpenCLKeptAuto checks that under backend=auto a kernel leaving an
// array on the device for a later kernel's lambda (a captured slice) is
// priced with that kernel (testdata/clresident's autokept.go; run on
// the device by autokept_test.go there): its cost counts the reader's
// operations and input, and the reader runs on the device when the
// array is there.
func TestOpenCLKeptAuto(t *testing.T) {
	src := generatedFile(t, "clresident", "autokept_soac.go")
	for _, w := range []string{
		"if (dev != nil || soacgenCLCapturedAuto2.Use(len(zs))) && soacgenCLCapturedAuto2.Kernel() != nil {",
		"[]any{launch.ViewDev(dev, ys)}",
	} {
		if !strings.Contains(src, w) {
			t.Errorf("no %q in\n%s", w, src)
		}
	}
	cost := func(kv string) string {
		i := strings.Index(src, "var "+kv+" = ")
		if i < 0 {
			t.Fatalf("no %s", kv)
		}
		j := strings.Index(src[i:], "Cost: launch.Cost{")
		return src[i+j : i+j+strings.Index(src[i+j:], "}")+1]
	}
	// The map alone: its input and output, 2 operations; with the
	// reader: its output kept, the reader's input zs and operations.
	if got, alone := cost("soacgenCLCapturedAuto"), cost("soacgenCLCapturedAlone"); got != "Cost: launch.Cost{Bytes: 16, Ops: 8, Parallel: true}" || alone != "Cost: launch.Cost{Bytes: 16, Ops: 2, Parallel: true}" {
		t.Errorf("costs %s (with its reader) and %s (alone)", got, alone)
	}
}

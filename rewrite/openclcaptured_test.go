package rewrite

import (
	"strings"
	"testing"
)

// TestOpenCLKeptCaptures checks that a map's output that later kernels'
// lambdas read as a captured slice stays on the device
// (testdata/clresident's captured.go; checked on the device by
// captured_test.go there): the producer keeps it, each reader on the
// device passes the kept Array (launch.ViewDev) and downloads it in its
// CPU code, a reader another backend generates downloads it first, the
// last reader releases it; Go code reading it in between makes the
// producer download it.
func TestOpenCLKeptCaptures(t *testing.T) {
	src := generatedFile(t, "clresident", "captured_soac.go")
	for name, want := range map[string][]string{
		"CapturedMap":         {"[]launch.Output{launch.Keep(&dev)}", "[]any{launch.ViewDev(dev, ys)}", "if !ok2 {\n\t\tif dev != nil {\n\t\t\tys = dev.Host()\n\t\t}", "dev.Release()"},
		"CapturedParallel":    {"[]launch.Output{launch.Keep(&dev)}", "if dev != nil {\n\t\tys = dev.Host()\n\t}\n\tdev.Release()"},
		"CapturedTwice":       {"[]launch.Output{launch.Keep(&dev)}", "soacgenCLCapturedTwice2.Run([]any{launch.ViewDev(dev, ys)}", "soacgenCLCapturedTwice3.RunOn(&cls, []any{launch.ViewDev(dev, ys)}"},
		"CapturedStream":      {"[]launch.Output{launch.Keep(&dev)}", "soacgenCLCapturedStream2.Run([]any{launch.ViewDev(dev, ys)}", "ys = dev.Host()"},
		"CapturedGrid":        {"[]launch.Output{launch.Keep(&dev)}", "[]any{launch.Rows(m), launch.ViewDev(dev, ys), launch.Out(flat)}", "if !ok2 {\n\t\tif dev != nil {\n\t\t\tys = dev.Host()\n\t\t}"},
		"CapturedReadBetween": {"[]launch.Output{launch.Download(clo)}", "[]any{launch.Arg(first), launch.View(ys)}"},
	} {
		body := funcBody(t, src, name)
		checkBody(t, name, body, want, nil)
		// One release, after the last reader.
		if name != "CapturedReadBetween" && strings.Count(body, "dev.Release()") != 1 {
			t.Errorf("%s: dev.Release() %d times, want once", name, strings.Count(body, "dev.Release()"))
		}
		// Downloaded once, not in the parallel fallback's lambdas
		// (their goroutines would write the Go variable).
		if name == "CapturedGrid" && strings.Count(body, "dev.Host()") != 1 {
			t.Errorf("%s: dev.Host() %d times, want once", name, strings.Count(body, "dev.Host()"))
		}
		if name == "CapturedReadBetween" && strings.Contains(body, "ViewDev") {
			t.Errorf("%s: a capture read from the device though Go code reads it in between", name)
		}
	}
}

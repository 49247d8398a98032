package rewrite

import (
	"path/filepath"
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
	outs := generateDir(t, filepath.Join("testdata", "clresident"))
	var src string
	for _, o := range outs {
		if filepath.Base(o.Path) == "streamkept_soac.go" {
			src = string(o.Content)
		}
	}
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
		i := strings.Index(src, "\nfunc "+c.name+"(")
		if i < 0 {
			t.Fatalf("no function %s", c.name)
		}
		body := src[i : i+strings.Index(src[i:], "\n}\n")]
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, body)
			}
		}
		for _, w := range c.not {
			if strings.Contains(body, w) {
				t.Errorf("%s: %q in\n%s", c.name, w, body)
			}
		}
		if len(c.not) == 0 || c.name == "StreamRow" {
			// One release, after the last reader.
			if n := strings.Count(body, "dev.Release()"); n != 1 {
				t.Errorf("%s: dev.Release() %d times, want once", c.name, n)
			}
		}
	}
}

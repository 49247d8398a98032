package rewrite

import "testing"

// TestOpenCLUnwritten checks which inputs the opencl backend uploads once
// per call (testdata/clresident's unwritten.go; their results and transfers
// are checked on the device by unwritten_test.go there): an input a
// kernel in a loop reads and nothing writes; not one the spec writes,
// may write through an alias, a call or another parameter, or
// reassigns in the loop. Also a stream reduction reading an array kept
// on the device (KeptIntoStream).
func TestOpenCLUnwritten(t *testing.T) {
	src := generatedFile(t, "clresident", "unwritten_soac.go")
	fn := func(name string) string { return funcBody(t, src, name) }
	for _, c := range []struct {
		name      string
		want, not []string
	}{
		{"UnwrittenPanics", []string{"var cls launch.Session\n\tdefer cls.Release()", "launch.Unwritten(&cls, xs)"}, nil},
		{"UnwrittenRounds", []string{"var cls launch.Session\n\tdefer cls.Release()", "[]launch.Input{launch.Unwritten(&cls, xs)}"}, nil},
		{"StreamRounds", []string{"soacgenCLStreamRounds.RunOn(&cls, []any{launch.Arg(rnd)}, []launch.Input{launch.Unwritten(&cls, xs)}", "soacgenCLStreamRounds2.RunOn(&cls, []any{launch.Arg(h0)}, []launch.Input{launch.Unwritten(&cls, xs)}"}, nil},
		{"WrittenRounds", nil, []string{"Unwritten", "launch.Session"}},
		{"WrittenAlias", nil, []string{"Unwritten", "launch.Session"}},
		{"WrittenOther", nil, []string{"Unwritten", "launch.Session"}},
		{"WrittenByCall", nil, []string{"Unwritten", "launch.Session"}},
		{"Reassigned", nil, []string{"Unwritten", "launch.Session"}},
		{"CapturedRounds", []string{"[]any{launch.ViewUnwritten(&cls, ws), launch.Arg(rnd)}", "launch.Unwritten(&cls, xs)"}, nil},
		{"CapturedWritten", []string{"[]any{launch.View(ws), launch.Arg(rnd)}"}, []string{"Unwritten", "launch.Session"}},
		// A stream reduction reads an array kept on the device there,
		// and its CPU code downloads it first.
		{"KeptIntoStream", []string{"launch.Keep(&dev)", "[]launch.Input{launch.Dev(dev, sq)}", "if !ok2 {\n\t\tif dev != nil {\n\t\t\tsq = dev.Host()\n\t\t}", "\th = r3\n\tdev.Release()\n\treturn h, s"}, nil},
	} {
		body := fn(c.name)
		checkBody(t, c.name, body, c.want, c.not)
	}
}

// TestOpenCLKeptScans checks that scan and filter outputs stay on the
// device for the later kernels that read them (testdata/clresident's
// scankept.go; checked on the device by scankept_test.go there): the
// producer keeps them (Scan.RunOn, Filter.RunOn, the kept count unused
// when every output stays), the reader takes the buffer (a stream
// reduction, a scan) and downloads it in its CPU code.
func TestOpenCLKeptScans(t *testing.T) {
	src := generatedFile(t, "clresident", "scankept_soac.go")
	for name, want := range map[string][]string{
		"KeptScan":       {"soacgenCLKeptScan.RunOn(&cls, nil, []launch.Input{launch.Host(xs)}, launch.Keep(&dev))", "[]launch.Input{launch.Dev(dev, ps)}", "if dev != nil {\n\t\t\tps = dev.Host()\n\t\t}", "dev.Release()"},
		"KeptFilter":     {"if _, ok = soacgenCLKeptFilter.RunOn(&cls, nil, []launch.Input{launch.Host(xs)}, []launch.Output{launch.Keep(&dev)}, nil)", "[]launch.Input{launch.Dev(dev, pos)}", "pos = dev.Host()"},
		"KeptFilterScan": {"[]launch.Output{launch.Keep(&dev)}, []skel.HostSlice{skel.Slice(clr[:])}", "soacgenCLKeptFilterScan2.RunOn(&cls, []any{launch.Arg(mx)}, []launch.Input{launch.Dev(dev, pos)}, launch.Download(clo))", "pos = dev.Host()"},
	} {
		body := funcBody(t, src, name)
		checkBody(t, name, body, want, nil)
	}
}

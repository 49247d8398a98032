package diffrun

import "strings"

// Shards assigns every case under rewrite/testdata to the shard whose
// test package (the directory of the shard's name beside this file) runs
// its differential test. A case's test builds its module and runs it, and
// again under GOAMD64=v3 where the case has floats; the opencl cases also
// compile each kernel on the OpenCL device, which dominates. The shards
// balance that work so that each package's test binary stays well within
// go test's default timeout of 10 minutes on two cores. An entry
// "NAME" runs case NAME and, where it has floats, its run under
// GOAMD64=v3; "NAME:base" runs the first alone and "NAME:fma" the second
// alone, for a case too long for one shard. TestShards fails when a run
// of a case is in no shard or in two, or a shard has no package.
var Shards = map[string][]string{
	"cpu": {
		"accumulators", "basic", "branches", "control", "fallbacks", "filters",
		"fma", "gathers", "generators", "generic", "hoisted", "horizontal",
		"imports", "inits", "inline", "nested", "panics", "placement",
		"refusals", "scans", "shadows", "streamrules", "streams", "tuples", "vector",
	},
	"parallel":  {"directives", "paraccum", "parallel", "parnested", "parscan", "parstreams", "parthen"},
	"opencl":    {"opencl:base"},
	"openclfma": {"opencl:fma"},
	"clmore":    {"carried", "clresident", "clstreammap", "clstreams", "neutrals", "quality"},
	// simd runs the cases with vector kernels again, built with
	// GOEXPERIMENT=simd, at each vector width the host has.
	"simd": {
		"accumulators:simd", "basic:simd", "filters:simd", "generators:simd",
		"paraccum:simd", "parscan:simd", "scans:simd", "tuples:simd", "vector:simd",
	},
}

// The runs an entry of Shards names: its case's test, its test under
// GOAMD64=v3 (where the case has floats), or both; or its test built
// with GOEXPERIMENT=simd, run at each vector width the host has (never
// implied: only an entry "NAME:simd" names it).
const (
	RunBase = "base"
	RunFMA  = "fma"
	RunSIMD = "simd"
)

// Entry splits an entry of Shards into its case and the runs it names.
func Entry(e string) (c string, runs []string) {
	if c, run, ok := strings.Cut(e, ":"); ok {
		return c, []string{run}
	}
	return e, []string{RunBase, RunFMA}
}

package diffrun

// Shards assigns every case under rewrite/testdata to the shard whose
// test package (the directory of the shard's name beside this file) runs
// its differential test. A case's test builds its module and runs it, and
// again under GOAMD64=v3 where the case has floats; the opencl cases also
// compile each kernel on the OpenCL device, which dominates. The shards
// balance that work so that each package's test binary stays well within
// go test's default timeout of 10 minutes on two cores. TestShards fails
// when a case is in no shard or in two, or a shard has no package.
var Shards = map[string][]string{
	"cpu": {
		"accumulators", "basic", "branches", "control", "fallbacks", "filters",
		"fma", "gathers", "generators", "generic", "hoisted", "horizontal",
		"imports", "inits", "inline", "nested", "panics", "placement",
		"refusals", "scans", "shadows", "streamrules", "streams", "tuples",
	},
	"parallel": {"paraccum", "parallel", "parnested", "parscan", "parstreams", "parthen"},
	"opencl":   {"opencl"},
	"clmore":   {"carried", "clresident", "clstreammap", "clstreams"},
}

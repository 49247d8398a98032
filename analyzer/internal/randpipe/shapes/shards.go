package shapes

import (
	"slices"
	"strings"
)

// The parts of a backend's run that an entry of Shards names.
const (
	// PartRandom is the random programs: the default run's seeds, or a
	// campaign's (RANDPIPE_SEED0, RANDPIPE_N).
	PartRandom = "random"
	// PartRegress is the regression files of testdata/regress that the
	// run holds (regressFor) but those another entry of the backend
	// names (PartRegress:NAME).
	PartRegress = "regress"
)

// Shards assigns every backend's run (randpipe.ShapeRuns) to the shard
// whose test package (the directory of the shard's name beside this
// file) runs it. An entry "BACKEND" runs the backend's random programs
// and its regression files, the files in the last `go test` of the
// run; "BACKEND:random" runs the first alone, "BACKEND:regress" the
// second alone, for a run too long for one package, and
// "BACKEND:regress:NAME" the regression file NAME.go alone, which the
// backend's other entries then leave out. The opencl run is cut so: PoCL
// builds each new kernel in seconds, and on two cores its random
// programs, its regression files and, of those, openclnil.go (eleven
// specs with loops of kernels) each take a minute or more. TestShards
// fails when a part of a run is in no shard or in two, or a shard has
// no package.
var Shards = map[string]string{
	"cpu":           "cpu",
	"parallel":      "parallel",
	"opencl":        "opencl:" + PartRandom,
	"openclregress": "opencl:" + PartRegress,
	"openclnil":     "opencl:" + PartRegress + ":openclnil",
	"auto":          "auto",
}

// Entry splits an entry of Shards into its backend and the parts of its
// run it names: PartRandom, PartRegress or PartRegress:NAME.
func Entry(e string) (backend string, parts []string) {
	if b, part, ok := strings.Cut(e, ":"); ok {
		return b, []string{part}
	}
	return e, []string{PartRandom, PartRegress}
}

// regressFile returns the regression file a part names alone
// (PartRegress:NAME), if it does.
func regressFile(part string) (string, bool) {
	return strings.CutPrefix(part, PartRegress+":")
}

// namedFiles returns the regression files that entries of shards for
// backend b name alone, in order, each once.
func namedFiles(shards map[string]string, b string) []string {
	var files []string
	for _, e := range shards {
		if eb, parts := Entry(e); eb == b {
			for _, p := range parts {
				if f, ok := regressFile(p); ok {
					files = append(files, f)
				}
			}
		}
	}
	slices.Sort(files)
	return slices.Compact(files)
}

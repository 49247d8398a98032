package shapes

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/soacgen/soacgen/analyzer/internal/randpipe"
)

// everyBackend are the regression files without shapes that every
// backend's run runs. The others hold specs only the cpu backend must
// equal (the operators of issue14.go read a call counter: not
// associative, as the parallel backends' promise requires); the
// differential test of package pipelines runs them all with the cpu
// backend.
var everyBackend = []string{"gatherscan", "opencldev", "openclswap", "parallelbig"}

// pendingShapes are the shapes the default run leaves out while the
// pending regression file (testdata/regress) that reproduces their bug
// stays pending: enabling the file (deleting its first line) puts the
// shape back. A campaign (RANDPIPE_N set) runs every shape.
var pendingShapes = map[randpipe.ShapeKind]string{
	randpipe.CondReassign: "reassigncond.go",
	randpipe.DoubleBuffer: "swapunused.go",
}

// Run runs shard, an entry of Shards: the parts of its backend's run that
// the entry names, comparing each generated function with its spec; a
// fallback warning matching no expected fallback (expectedFallbacks)
// fails it. It skips when RANDPIPE_BACKENDS leaves the backend out, and
// under -short a backend whose run has no size for -short
// (randpipe.ShapeRun.Short), unless RANDPIPE_N is set.
func Run(t *testing.T, shard string) {
	e, ok := Shards[shard]
	if !ok {
		t.Fatalf("no shard %s in shapes.Shards", shard)
	}
	b, parts := Entry(e)
	br, ok := randpipe.ShapeRunOf(b)
	if !ok {
		t.Fatalf("shard %s: no run of backend %s in randpipe.ShapeRuns", shard, b)
	}
	if only := envList("RANDPIPE_BACKENDS"); only != nil && !slices.Contains(only, b) {
		t.Skipf("RANDPIPE_BACKENDS=%s leaves out backend %s", os.Getenv("RANDPIPE_BACKENDS"), b)
	}
	if testing.Short() && br.Short == 0 && os.Getenv("RANDPIPE_N") == "" {
		t.Skipf("-short: the %s backend runs without -short or with RANDPIPE_N", br.Backend)
	}
	var files []randpipe.Package
	if regressParts(parts) {
		files = shardFiles(t, b, parts)
	}
	runShapes(t, br, slices.Contains(parts, PartRandom), files)
}

// regressParts reports whether parts hold regression files.
func regressParts(parts []string) bool {
	return slices.ContainsFunc(parts, func(p string) bool {
		_, one := regressFile(p)
		return p == PartRegress || one
	})
}

// shardFiles returns the regression packages that parts of backend b's
// run name: for PartRegress those of regressFor that no entry of Shards
// names alone, for PartRegress:NAME the file NAME.go, which must be one
// of regressFor's or pending.
func shardFiles(t *testing.T, b string, parts []string) []randpipe.Package {
	all := regressFor(t)
	named := namedFiles(Shards, b)
	var files []randpipe.Package
	for _, part := range parts {
		if part == PartRegress {
			for _, p := range all {
				if !slices.Contains(named, p.Name) {
					files = append(files, p)
				}
			}
			continue
		}
		name, ok := regressFile(part)
		if !ok {
			continue
		}
		i := slices.IndexFunc(all, func(p randpipe.Package) bool { return p.Name == name })
		switch {
		case i >= 0:
			files = append(files, all[i])
		case randpipe.PendingFiles(t)[name+".go"] == "":
			t.Fatalf("the %s run holds no regression file %s.go (it holds those with shapes and those of everyBackend)", b, name)
		}
	}
	return files
}

// envList returns the comma-separated list the environment variable name
// holds, nil when it is unset or empty.
func envList(name string) []string {
	v := os.Getenv(name)
	if v == "" {
		return nil
	}
	return strings.Split(v, ",")
}

// envInt returns the integer the environment variable name holds, def
// when it is unset or empty; another value fails t.
func envInt(t *testing.T, name string, def int64) int64 {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, v, err)
	}
	return n
}

// regressFor returns the committed regression packages a backend's run
// runs: those with shapes, and those of everyBackend.
func regressFor(t *testing.T) []randpipe.Package {
	var regress []randpipe.Package
	for _, p := range randpipe.RegressPackages(t) {
		if slices.Contains(everyBackend, p.Name) || slices.ContainsFunc(p.Specs, func(s randpipe.Spec) bool { return len(s.Shapes) > 0 }) {
			regress = append(regress, p)
		}
	}
	return regress
}

// defaultShapes returns the shapes the random programs of br's run hold:
// in a campaign every shape (nil), else all but those whose bug a
// pending regression file reproduces (pendingShapes), which it logs.
func defaultShapes(t *testing.T, br randpipe.ShapeRun, campaign bool, pending map[string]string) []randpipe.ShapeKind {
	if campaign {
		return nil
	}
	var shapes []randpipe.ShapeKind
	for _, k := range randpipe.AllShapes() {
		if why, ok := pending[pendingShapes[k]]; ok {
			t.Logf("%s: shape %s left out of the default run: %s", br.Backend, k, why)
			continue
		}
		shapes = append(shapes, k)
	}
	return shapes
}

// runShapes runs br's random programs where random is set and the
// regression packages files, in batches of RANDPIPE_BATCH packages with
// the files in the last.
func runShapes(t *testing.T, br randpipe.ShapeRun, random bool, files []randpipe.Package) {
	n := br.Specs
	if testing.Short() {
		n = br.Short
	}
	n = int(envInt(t, "RANDPIPE_N", int64(n)))
	seed0 := envInt(t, "RANDPIPE_SEED0", br.Seed0)
	batch := int(envInt(t, "RANDPIPE_BATCH", 10))
	// The default run leaves out the shapes whose bugs are pending; a
	// campaign runs them all.
	campaign := os.Getenv("RANDPIPE_N") != ""
	pending := randpipe.PendingFiles(t)
	var pkgs []randpipe.Package
	if random {
		pkgs = randpipe.ShapePackages(seed0, n, br.Config(defaultShapes(t, br, campaign, pending)))
	}
	st := newStats(pending, campaign)
	start := time.Now()
	for i := 0; i < len(pkgs) || i == 0; i += batch {
		b := pkgs[min(i, len(pkgs)):min(i+batch, len(pkgs))]
		if i+batch >= len(pkgs) {
			b = append(b[:len(b):len(b)], files...)
		}
		if len(b) > 0 {
			runShapeBatch(t, br, b, st)
		}
	}
	var names []string
	for _, p := range files {
		names = append(names, p.Name)
	}
	var what []string
	if random {
		what = append(what, "package seeds "+strconv.FormatInt(seed0, 10)+".."+strconv.FormatInt(seed0+int64(len(pkgs))-1, 10))
	}
	if len(names) > 0 {
		what = append(what, "regression files "+strings.Join(names, " "))
	}
	st.report(t, br.Backend, strings.Join(what, " and "), time.Since(start))
	if br.FusedStreams && random {
		streams, specs := 0, 0
		for _, p := range pkgs {
			streams += st.streams[p.Name]
			specs += len(p.Specs)
		}
		t.Logf("%s: %d kernels of maps fused into a stream run in parallel in the random programs", br.Backend, streams)
		if streams == 0 && (!campaign || specs >= randpipe.MinStreamSpecs) {
			t.Errorf("%s: no random program runs maps fused into a stream in parallel (parallel.StreamRedChunks, StreamMapChunks)", br.Backend)
		}
	}
	if len(st.failed) > 0 {
		t.Errorf("%s: %d mismatches:\n%s", br.Backend, len(st.failed), strings.Join(st.failed, "\n"))
	}
}

package fusion

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/soacgen/soacgen/analyzer/build"
	"github.com/soacgen/soacgen/analyzer/internal/soactest"
	"github.com/soacgen/soacgen/analyzer/ir"
)

var update = flag.Bool("update", false, "rewrite the plans.golden files")

// planAnalyzer runs the greedy engine on every function the builder
// modelled (the plans.golden files and // want comments record greedy's
// plans, whatever SOACGEN_CLUSTER says; the cluster tests run the other
// methods themselves), checks each plan, reports every note ("RULE: reason") and diagnostic
// ("diag CATEGORY: message") so that testdata can state them with // want,
// and returns the plans by function name.
var planAnalyzer = &analysis.Analyzer{
	Name:       "fusiontest",
	Doc:        "reports the fusion engine's notes and diagnostics",
	Requires:   []*analysis.Analyzer{build.Analyzer},
	ResultType: reflect.TypeOf(map[string]*Plan{}),
	Run: func(pass *analysis.Pass) (any, error) {
		prog := pass.ResultOf[build.Analyzer].(*ir.Program)
		plans := map[string]*Plan{}
		var order []string
		for _, fn := range prog.Funcs {
			plan := Fuse(fn, Options{Fset: pass.Fset, Cluster: MethodGreedy})
			if err := Check(plan); err != nil {
				pass.Reportf(fn.Decl.Pos(), "Check failed for %s: %v\n%s", fn.Name, err, plan)
			}
			plans[fn.Name] = plan
			order = append(order, fn.Name)
			for _, n := range plan.Notes {
				pass.Reportf(n.Pos, "%s: %s", n.Rule, n.Reason)
			}
			for _, d := range plan.Diagnostics {
				pass.Reportf(d.Pos, "diag %s: %s", d.Category, d.Message)
			}
		}
		plans[" order"] = &Plan{Partitioner: strings.Join(order, " ")}
		return plans, nil
	},
}

// sourceCase is a structure test on a function of testdata/src/pkg.
type sourceCase struct {
	pkg, fn string
	want    expect
}

var sourceCases = []sourceCase{
	// The papers' programs.
	{"papers", "normalize2", expect{kernels: map[int]int{0: 2}, together: [][]string{{"sum1", "gts", "sum2"}, {"ys1", "ys2"}},
		internal: []string{"gts"}, rules: []string{"filter->redomap", "horizontal"}, noNotes: true}},
	{"papers", "normalizeInc", expect{kernels: map[int]int{0: 2}, together: [][]string{{"incs", "ys"}}, apart: [][]string{{"sum1", "ys"}},
		internal: []string{"incs"}, rules: []string{"map->map"}, noNotes: true}},
	{"papers", "filterMax", expect{kernels: map[int]int{0: 1}, internal: []string{"ptsAnn", "aboveAnn"},
		rules: []string{"map->redomap", "map->filter", "filter->map", "merge"}, noNotes: true}},
	{"papers", "initialBounds", expect{kernels: map[int]int{0: 1}, internal: []string{"xs", "ys"}, rules: []string{"map->redomap", "merge", "horizontal"}, noNotes: true}},
	{"papers", "partition", expect{kernels: map[int]int{0: 1}, together: [][]string{{"p1", "p2", "p3", "p4"}}, rules: []string{"horizontal"}, noNotes: true}},
	{"papers", "closestSteps", expect{kernels: map[int]int{0: 3}, together: [][]string{{"aboves", "belows"}, {"aboveB", "belowB"}},
		apart: [][]string{{"aboves", "aboveB"}}, noNotes: true}},
	{"papers", "diamond", expect{kernels: map[int]int{0: 1}, internal: []string{"x", "y", "z"}, rules: []string{"map->map"}, noNotes: true}},
	{"papers", "matmul", expect{kernels: map[int]int{0: 1, 1: 1, 2: 1}, rules: []string{"map->redomap"}, noNotes: true}},
	{"papers", "matmulRep", expect{kernels: map[int]int{0: 1, 1: 1, 2: 1}, rules: []string{"replicate->any", "map->redomap"}, noNotes: true}},
	// Henriksen & Oancea, "A T2 Graph-Reduction Approach to Fusion" (2013) [T2-fusion] Fig. 9.
	{"fig9", "case1", expect{kernels: map[int]int{0: 2}, refusals: []string{"write-between/a"}}},
	{"fig9", "case2", expect{kernels: map[int]int{0: 3}, refusals: []string{"size-unknown/x"}}},
	{"fig9", "case3", expect{refusals: []string{"loop-boundary/x"}}},
	{"fig9", "case4", expect{refusals: []string{"consumed-twice/x"}}},
	{"fig9", "case4b", expect{kernels: map[int]int{0: 2}, copies: []string{"x"}, rules: []string{"branch-copy"}, noNotes: true}},
	{"fig9", "case5", expect{kernels: map[int]int{0: 2}, refusals: []string{"used-before/x"}}},
	{"fig9", "case5mapout", expect{kernels: map[int]int{0: 1}, outputs: []string{"x"}, rules: []string{"map-out"}, noNotes: true}},
	{"fig9", "case6", expect{kernels: map[int]int{0: 2}, together: [][]string{{"x", "u"}}, outputs: []string{"x"}, rules: []string{"map-out"}, refusals: []string{"consumed-twice/x"}}},
	// Refusals where a wrong fusion gives a wrong value, and the positive variants.
	{"issue", "byIndex", expect{kernels: map[int]int{0: 2}, refusals: []string{"write-between/xs"}}},
	{"issue", "byCopy", expect{kernels: map[int]int{0: 2}, refusals: []string{"write-between/xs"}}},
	{"issue", "byAppend", expect{kernels: map[int]int{0: 2}, refusals: []string{"write-between/xs"}}},
	{"issue", "byCall", expect{kernels: map[int]int{0: 2}, refusals: []string{"write-between/xs"}}},
	{"issue", "byCallPlaced", expect{kernels: map[int]int{0: 1}, together: [][]string{{"x", "y"}}, internal: []string{"x"}, rules: []string{"placed"}, noNotes: true}},
	{"issue", "filteredZip", expect{kernels: map[int]int{0: 2}, diags: []string{"size"}, refusals: []string{"size-mismatch/gts"}}},
	{"issue", "inLoop", expect{kernels: map[int]int{0: 2}, refusals: []string{"loop-boundary/x"}}},
	{"issue", "inLambda", expect{kernels: map[int]int{0: 2, 1: 1}, refusals: []string{"loop-boundary/x"}}},
	{"issue", "twice", expect{kernels: map[int]int{0: 2}, together: [][]string{{"x", "s"}}, apart: [][]string{{"x", "w"}}, outputs: []string{"x"}, rules: []string{"map-out"}, refusals: []string{"consumed-twice/x"}}},
	{"issue", "branches", expect{kernels: map[int]int{0: 2}, copies: []string{"x"}, rules: []string{"branch-copy", "map->redomap"}, noNotes: true}},
	{"issue", "captured", expect{kernels: map[int]int{0: 1}, internal: []string{"x"}, rules: []string{"capture-copy"}, noNotes: true}},
	{"issue", "capturedLock", expect{kernels: map[int]int{0: 2}, refusals: []string{"capture-reassigned/c"}}},
	{"issue", "impure", expect{kernels: map[int]int{0: 2}, diags: []string{"impure"}, refusals: []string{"impure/x"}}},
	{"issue", "panicBeforeWrite", expect{kernels: map[int]int{0: 2}, refusals: []string{"panic-order/c"}}},
	{"issue", "twoPanics", expect{kernels: map[int]int{0: 1}, noNotes: true}},
	{"issue", "aliasedParams", expect{kernels: map[int]int{0: 2}, refusals: []string{"write-between/xs"}}},
	{"issue", "localWrite", expect{kernels: map[int]int{0: 1}, noNotes: true}},
	{"issue", "shadowedLenReads", expect{kernels: map[int]int{0: 2}, refusals: []string{"write-between/package-level state"}}},
	{"issue", "builtinMinReads", expect{kernels: map[int]int{0: 1}, noNotes: true}},
	{"issue", "shadowedLenPanics", expect{kernels: map[int]int{0: 2}, refusals: []string{"panic-order/may panic (a call)"}}},
	{"issue", "rangeWriteBetween", expect{kernels: map[int]int{0: 1}, noNotes: true}},
	{"issue", "guardedWriteBetween", expect{kernels: map[int]int{0: 1}, noNotes: true}},
	{"issue", "unguardedWriteBetween", expect{kernels: map[int]int{0: 2}, refusals: []string{"panic-order/x"}}},
	{"issue", "lambdaLocal", expect{kernels: map[int]int{0: 1}, noNotes: true}},
	{"issue", "lambdaLocalOutOfRange", expect{kernels: map[int]int{0: 2}, refusals: []string{"panic-order/x"}}},
	{"issue", "effectsReduce", expect{kernels: map[int]int{0: 1}, together: [][]string{{"x", "s"}}, rules: []string{"effects-in-order"}, diags: []string{"impure"}, noNotes: true}},
	{"issue", "effectsReduceReads", expect{kernels: map[int]int{0: 2}, refusals: []string{"impure/counter"}}},
	{"issue", "effectsReducePanics", expect{kernels: map[int]int{0: 2}, refusals: []string{"impure/log"}}},
	{"issue", "effectsReduceApart", expect{kernels: map[int]int{0: 1}, rules: []string{"effects-in-order", "placed"}}},
	{"issue", "effectsReduceReadsBetween", expect{kernels: map[int]int{0: 2}, refusals: []string{"impure/log"}}},
	{"issue", "neutralPanics", expect{kernels: map[int]int{0: 2}, refusals: []string{"panic-order/operand"}}},
	{"issue", "neutralSafe", expect{kernels: map[int]int{0: 1}, noNotes: true}},
	{"issue", "builtinLenPanics", expect{kernels: map[int]int{0: 1}, noNotes: true}},
	{"issue", "argMax", expect{kernels: map[int]int{0: 1}, internal: []string{"ivs"}, noNotes: true}},
	{"issue", "iotaZipNeutralPanics", expect{kernels: map[int]int{0: 1}, internal: []string{"a"}, noNotes: true}},
	{"issue", "lenVarZipNeutralPanics", expect{kernels: map[int]int{0: 1}, internal: []string{"a", "ys"}, noNotes: true}},
	{"issue", "otherLenZipNeutralPanics", expect{kernels: map[int]int{0: 2}, refusals: []string{"panic-order/a"}}},
	{"issue", "zipNeutralInf", expect{kernels: map[int]int{0: 1}, internal: []string{"a", "b"}, noNotes: true}},
	{"issue", "zipNeutralCall", expect{kernels: map[int]int{0: 2}, refusals: []string{"panic-order/a"}}},
	{"issue", "randLengths", expect{refusals: []string{"panic-order/c"}}},
	// The rule table from source.
	{"rules", "scanomap", expect{kernels: map[int]int{0: 1}, rules: []string{"map->scanomap", "scanomap->map", "scanomap->redomap"}}},
	{"rules", "filters", expect{kernels: map[int]int{0: 1}, internal: []string{"pos", "even"}, rules: []string{"filter->filter", "filter->redomap"}}},
	{"rules", "streams", expect{kernels: map[int]int{0: 1}, rules: []string{"map->stream", "stream->stream", "stream+stream", "reduce->stream"}}},
	{"rules", "generators", expect{kernels: map[int]int{0: 1}, rules: []string{"iota->any", "replicate->any"}}},
	{"rules", "iotaLoop", expect{kernels: map[int]int{0: 1}, rules: []string{"iota->any"}}},
	{"rules", "switchAll", expect{kernels: map[int]int{0: 2}, copies: []string{"x"}, rules: []string{"branch-copy", "map->filter"}}},
	{"rules", "notEveryPath", expect{kernels: map[int]int{0: 2}, refusals: []string{"not-every-path/x"}}},
	{"rules", "notEveryPathSafe", expect{kernels: map[int]int{0: 1}, internal: []string{"x"}, rules: []string{"branch-copy", "map->redomap"}, noNotes: true}},
	{"rules", "earlyReturn", expect{kernels: map[int]int{0: 2}, refusals: []string{"control-exit/x"}}},
	{"rules", "earlyReturnPlaced", expect{kernels: map[int]int{0: 1}, rules: []string{"placed"}, noNotes: true}},
	{"rules", "reassigned", expect{kernels: map[int]int{0: 2}, refusals: []string{"input-reassigned/xs"}}},
	{"rules", "scanScan", expect{kernels: map[int]int{0: 1}, rules: []string{"scanomap->scanomap"}, noNotes: true}},
	{"rules", "scanOfFilter", expect{kernels: map[int]int{0: 1}, rules: []string{"filter->scanomap"}, noNotes: true}},
	{"rules", "lenVar", expect{kernels: map[int]int{0: 1}, together: [][]string{{"a", "b"}}, rules: []string{"horizontal", "iota->any"}, noNotes: true}},
	{"rules", "lenVarChanged", expect{kernels: map[int]int{0: 2}, apart: [][]string{{"a", "b"}}}},
	{"rules", "twoIotas", expect{kernels: map[int]int{0: 1}, together: [][]string{{"a", "b"}}, rules: []string{"horizontal"}, noNotes: true}},
	{"rules", "iotaReplicate", expect{kernels: map[int]int{0: 1}, together: [][]string{{"a", "b"}}}},
	{"rules", "mapOutStream", expect{kernels: map[int]int{0: 1}, outputs: []string{"m"}, rules: []string{"map->stream", "map-out"}, noNotes: true}},
	{"rules", "mapOut", expect{kernels: map[int]int{0: 1}, outputs: []string{"x"}, rules: []string{"map-out"}}},
	// Values that change between the SOACs of a kernel.
	{"carried", "halve", expect{kernels: map[int]int{0: 1}, together: [][]string{{"xs", "s"}}, outputs: []string{"xs"}, rules: []string{"map->redomap", "map-out"}, noNotes: true}},
	{"carried", "halveCaptured", expect{kernels: map[int]int{0: 1}, together: [][]string{{"xs", "s"}}, outputs: []string{"xs"}, rules: []string{"map-out"}, noNotes: true}},
	{"carried", "doubleBuffer", expect{kernels: map[int]int{0: 2}, outputs: []string{"ys"}}},
	{"carried", "breakOut", expect{outputs: []string{"xs"}}},
	{"carried", "branch", expect{kernels: map[int]int{0: 1}, outputs: []string{"xs"}, rules: []string{"map-out"}, noNotes: true}},
	{"carried", "twice", expect{kernels: map[int]int{0: 1}, internal: []string{"xs"}, outputs: []string{"xs"}, noNotes: true}},
	{"carried", "keptOnOnePath", expect{kernels: map[int]int{0: 2}, together: [][]string{{"a", "s"}}, outputs: []string{"a"}, rules: []string{"map-out"}, noNotes: true}},
	{"carried", "unreadAfter", expect{kernels: map[int]int{0: 1}, internal: []string{"xs"}, noNotes: true}},
	{"carried", "crossCapture", expect{kernels: map[int]int{0: 3}, apart: [][]string{{"v3", "v6"}, {"v0", "v6"}}}},
	// What real pipelines once lost, each with a twin that must not fuse.
	// Loops: the chain fuses within the iteration.
	{"quality", "loopSwap", expect{kernels: map[int]int{0: 1}, together: [][]string{{"t", "b"}}, internal: []string{"t"}, outputs: []string{"b"}, noNotes: true}},
	{"quality", "loopFilterChain", expect{kernels: map[int]int{0: 1}, outputs: []string{"xs"}, rules: []string{"filter->map", "map->redomap", "map-out"}, noNotes: true}},
	{"quality", "loopCaptured", expect{kernels: map[int]int{0: 1}, together: [][]string{{"xs", "s"}}, outputs: []string{"xs"}, noNotes: true}},
	{"quality", "loopNormalize", expect{kernels: map[int]int{0: 2}, apart: [][]string{{"s", "xs"}}}},
	{"quality", "loopOuterInput", expect{kernels: map[int]int{0: 2}, refusals: []string{"loop-boundary/a"}}},
	{"quality", "loopAccum", expect{together: [][]string{{"ys", "acc"}}, refusals: []string{"loop-boundary/acc"}}},
	{"quality", "loopWritesAcc", expect{kernels: map[int]int{0: 2}, refusals: []string{"used-before/acc"}}},
	{"quality", "keptOrNew", expect{kernels: map[int]int{0: 3}}},
	// Slices and generators as producers.
	{"quality", "sliceZips", expect{kernels: map[int]int{0: 1}, together: [][]string{{"x", "b", "c"}}, internal: []string{"x", "c"}, rules: []string{"replicate->any", "horizontal"}, noNotes: true, passes: [2]int{3, 1}}},
	{"quality", "sliceOfLen", expect{kernels: map[int]int{0: 1}, together: [][]string{{"b", "c"}}, rules: []string{"horizontal"}, noNotes: true}},
	{"quality", "sliceInline", expect{kernels: map[int]int{0: 1}, together: [][]string{{"b", "c"}}, rules: []string{"horizontal"}, noNotes: true}},
	{"quality", "sliceInlineOther", expect{kernels: map[int]int{0: 2}, apart: [][]string{{"b", "c"}}}},
	{"quality", "unusedParam", expect{kernels: map[int]int{0: 1}, internal: []string{"t"}, noNotes: true}},
	// Lambdas that write memory they allocate are pure.
	{"quality", "cloneRow", expect{kernels: map[int]int{0: 1}, internal: []string{"a"}, rules: []string{"map->map"}, noNotes: true}},
	{"quality", "replAccum", expect{kernels: map[int]int{0: 1}, internal: []string{"a"}, rules: []string{"map->map"}, noNotes: true}},
	{"quality", "writeRowArg", expect{kernels: map[int]int{0: 2}, diags: []string{"impure"}, refusals: []string{"impure/a"}}},
	{"quality", "cloneRowsShared", expect{kernels: map[int]int{0: 2}, diags: []string{"impure"}, refusals: []string{"impure/a"}}},
	// Generic helpers returning what they made, local closures.
	{"quality", "genericFresh", expect{kernels: map[int]int{0: 1}, internal: []string{"b"}, noNotes: true}},
	{"quality", "genericMaybeSame", expect{kernels: map[int]int{0: 2}, diags: []string{"impure"}, refusals: []string{"impure/b"}}},
	{"quality", "localClosure", expect{together: [][]string{{"b", "_soac3"}}, internal: []string{"b"}, rules: []string{"map->map"}, noNotes: true}},
	// Calls that write only their own arguments.
	{"quality", "callLocal", expect{kernels: map[int]int{0: 1}, internal: []string{"a"}, noNotes: true}},
	{"quality", "methodLocal", expect{kernels: map[int]int{0: 1}, internal: []string{"a"}, noNotes: true}},
	{"quality", "sortLocal", expect{kernels: map[int]int{0: 1}, internal: []string{"a"}, noNotes: true}},
	{"quality", "callPipeline", expect{kernels: map[int]int{0: 2}, refusals: []string{"write-between/xs"}}},
	// Branches.
	{"quality", "oneArm", expect{kernels: map[int]int{0: 1}, internal: []string{"a"}, rules: []string{"branch-copy"}, noNotes: true}},
	{"quality", "someCases", expect{kernels: map[int]int{0: 2}, copies: []string{"a"}, rules: []string{"branch-copy"}, noNotes: true}},
	{"quality", "oneArmPanics", expect{kernels: map[int]int{0: 2}, refusals: []string{"not-every-path/a"}}},
	{"quality", "armAndAfter", expect{kernels: map[int]int{0: 3}, refusals: []string{"consumed-twice/a"}}},
	// Array-valued reductions.
	// A Replicate only a neutral element is a kernel of its own, its pass
	// counted on neither side of the statistics, as generators are not
	// before fusion (sliceZips: one fused into a kernel of maps).
	{"quality", "colSums", expect{kernels: map[int]int{0: 2, 1: 1}, internal: []string{"s"}, rules: []string{"map->redomap"}, noNotes: true, passes: [2]int{3, 2}}},
	{"quality", "hist", expect{kernels: map[int]int{0: 3}, refusals: []string{"panic-order/rows"}, passes: [2]int{3, 3}}},
	// Unused parameters: fused as unusedParam; the lowering leaves the
	// unread maps out of the loop, but not t of unusedParamPanics or
	// unusedAfterPanics, for its panic, nor t of unusedCaptures, whose
	// lambda alone reads s (rewrite/testdata/quality).
	{"quality", "unusedChain", expect{kernels: map[int]int{0: 1}, internal: []string{"t", "u"}, noNotes: true}},
	{"quality", "unusedParamPanics", expect{kernels: map[int]int{0: 1}, internal: []string{"t"}, noNotes: true}},
	{"quality", "unusedAfterPanics", expect{kernels: map[int]int{0: 1}, internal: []string{"t", "u"}, noNotes: true}},
	{"quality", "unusedCaptures", expect{kernels: map[int]int{0: 2}, internal: []string{"t"}, apart: [][]string{{"s", "t"}}}},
	// Paths a return separates: each path's kernel computes the producer.
	{"quality", "returnArm", expect{kernels: map[int]int{0: 2}, copies: []string{"m"}, rules: []string{"branch-copy"}, noNotes: true}},
	{"quality", "returnArmPanics", expect{kernels: map[int]int{0: 3}, copies: []string{"m"}, rules: []string{"branch-copy"}, noNotes: true}},
	{"quality", "armNoReturn", expect{kernels: map[int]int{0: 3}, refusals: []string{"consumed-twice/m"}}},
	{"quality", "returnSkipsPanics", expect{kernels: map[int]int{0: 3}, refusals: []string{"not-every-path/m"}}},
	{"quality", "returnArmBeside", expect{kernels: map[int]int{0: 3}, copies: []string{"m"}, rules: []string{"branch-copy"}, noNotes: true}},
	{"quality", "returnArmFed", expect{kernels: map[int]int{0: 4}, copies: []string{"m"}, outputs: []string{"a"}, refusals: []string{"not-every-path/a"}}},
	{"quality", "branchesFed", expect{kernels: map[int]int{0: 3}, copies: []string{"m"}, outputs: []string{"a"}, refusals: []string{"not-every-path/a"}}},
	// A local closure called in a lambda: seen through when bound once.
	{"quality", "closureCalled", expect{kernels: map[int]int{0: 2, 1: 1}, rules: []string{"map->redomap"}, noNotes: true}},
	{"quality", "closureReassigned", expect{kernels: map[int]int{0: 3, 1: 1}}},
	{"quality", "closureShadowed", expect{kernels: map[int]int{0: 2, 1: 1}}},
}

var sourcePkgs = []string{"papers", "fig9", "issue", "rules", "carried", "quality"}

func TestSource(t *testing.T) {
	results := analysistest.Run(t, soactest.Dir(t, "testdata"), planAnalyzer, sourcePkgs...)
	plans := map[string]map[string]*Plan{}
	for _, r := range results {
		if r.Err != nil {
			t.Fatalf("%s: %v", r.Pass.Pkg.Path(), r.Err)
		}
		pkg := r.Pass.Pkg.Path()
		ps := r.Result.(map[string]*Plan)
		plans[pkg] = ps
		var b strings.Builder
		for _, name := range strings.Fields(ps[" order"].Partitioner) {
			b.WriteString(Dump(ps[name]))
			b.WriteString("\n")
		}
		golden := filepath.Join("testdata", "src", pkg, "plans.golden")
		if *update {
			if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if got := b.String(); got != string(want) {
			t.Errorf("%s: plans differ from %s (run with -update):\n%s", pkg, golden, got)
		}
	}
	for _, c := range sourceCases {
		t.Run(c.pkg+"."+c.fn, func(t *testing.T) {
			plan := plans[c.pkg][c.fn]
			if plan == nil {
				t.Fatalf("no plan for %s.%s", c.pkg, c.fn)
			}
			verify(t, plan, c.want)
		})
	}
}

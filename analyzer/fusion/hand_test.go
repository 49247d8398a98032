package fusion

import (
	"strings"
	"testing"
)

// handCase is a test on IR built by hand (irb), independent of the IR
// builder.
type handCase struct {
	name  string
	build func(b *irb)
	opts  Options
	want  expect
}

var handCases = []handCase{
	{name: "normalize2", build: func(b *irb) {
		b.param("xs")
		b.Reduce("sum1", "xs", pure())
		b.Filter("gts", "xs", pure())
		b.Reduce("sum2", "gts", pure())
		b.Map("ys1", pure("sum1"), "xs")
		b.Map("ys2", pure("sum2"), "xs")
		b.plain("use:ys1", "use:ys2", "exit")
	}, want: expect{
		kernels:  map[int]int{0: 2},
		together: [][]string{{"sum1", "gts", "sum2"}, {"ys1", "ys2"}},
		apart:    [][]string{{"sum1", "ys1"}},
		internal: []string{"gts"},
		rules:    []string{"filter->redomap", "horizontal"},
	}},
	{name: "normalizeInc", build: func(b *irb) {
		b.param("us")
		b.Map("incs", pure(), "us")
		b.Reduce("sum1", "us", pure())
		b.Map("ys", pure("sum1"), "incs")
		b.plain("use:ys")
	}, want: expect{
		kernels:  map[int]int{0: 2},
		together: [][]string{{"incs", "ys"}},
		apart:    [][]string{{"sum1", "ys"}},
		internal: []string{"incs"},
		rules:    []string{"map->map"},
		noNotes:  true,
	}},
	{name: "quickhull filterMax", build: func(b *irb) {
		b.param("pts")
		b.Map("ptsAnn", pure(), "pts")
		b.Reduce("maxim", "ptsAnn", pure())
		b.Filter("aboveAnn", "ptsAnn", pure())
		b.Map("above", pure(), "aboveAnn")
		b.plain("use:maxim", "use:above")
	}, want: expect{
		kernels:  map[int]int{0: 1},
		together: [][]string{{"ptsAnn", "maxim", "aboveAnn", "above"}},
		internal: []string{"ptsAnn", "aboveAnn"},
		rules:    []string{"map->redomap", "map->filter", "filter->map", "merge"},
	}},
	{name: "quadtree bounds", build: func(b *irb) {
		b.param("pts")
		b.Map("xs", pure(), "pts")
		b.Map("ys", pure(), "pts")
		b.Reduce("x1", "xs", pure())
		b.Reduce("x2", "xs", pure())
		b.Reduce("y1", "ys", pure())
		b.Reduce("y2", "ys", pure())
		b.plain("use:x1", "use:x2", "use:y1", "use:y2")
	}, want: expect{kernels: map[int]int{0: 1}, internal: []string{"xs", "ys"}, rules: []string{"map->redomap", "merge", "horizontal"}}},
	{name: "quadtree partition", build: func(b *irb) {
		b.param("ins", "b1", "b2", "b3", "b4")
		b.Filter("p1", "ins", pure("b1"))
		b.Filter("p2", "ins", pure("b2"))
		b.Filter("p3", "ins", pure("b3"))
		b.Filter("p4", "ins", pure("b4"))
		b.plain("use:p1", "use:p2", "use:p3", "use:p4")
	}, want: expect{kernels: map[int]int{0: 1}, outputs: []string{"p1", "p2", "p3", "p4"}, rules: []string{"horizontal"}}},
	{name: "gas stops after one fusion", build: func(b *irb) {
		b.param("ins")
		b.Filter("p1", "ins", pure())
		b.Filter("p2", "ins", pure())
		b.Filter("p3", "ins", pure())
		b.plain("use:p1", "use:p2", "use:p3")
	}, opts: Options{Gas: 1}, want: expect{kernels: map[int]int{0: 2}}},
	{name: "diamond ([T2-fusion] Fig. 8)", build: func(b *irb) {
		b.param("a")
		b.Map("x", pure(), "a")
		b.Map("y", pure(), "x")
		b.Map("z", pure(), "x")
		b.Map("r", pure(), "y", "z")
		b.plain("use:r")
	}, want: expect{kernels: map[int]int{0: 1}, internal: []string{"x", "y", "z"}, rules: []string{"map->map"}, noNotes: true}},
	{name: "matmul ([T2-fusion] Fig. 15)", build: func(b *irb) {
		b.param("a", "bt")
		b.Map("res", lam{body: func() {
			b.newVar("row", nil)
			b.Map("cs", lam{free: []string{"row"}, body: func() {
				b.newVar("col", nil)
				b.Map("t", pure(), "row", "col")
				b.Reduce("r", "t", pure())
				b.plain("use:r")
			}}, "bt")
			b.plain("use:cs")
		}}, "a")
		b.plain("use:res")
	}, want: expect{kernels: map[int]int{0: 1, 1: 1, 2: 1}, together: [][]string{{"t", "r"}}, internal: []string{"t"}, rules: []string{"map->redomap"}}},
	{name: "scanomap", build: func(b *irb) {
		b.param("xs")
		b.Map("m", pure(), "xs")
		b.Scan("s", "m", pure())
		b.Map("y", pure(), "s")
		b.Scan("s2", "xs", pure())
		b.Reduce("r", "s2", pure())
		b.plain("use:y", "use:r")
	}, want: expect{kernels: map[int]int{0: 1}, internal: []string{"m", "s", "s2"},
		rules: []string{"map->scanomap", "scanomap->map", "scanomap->redomap"}}},
	{name: "filter->filter", build: func(b *irb) {
		b.param("xs")
		b.Filter("a", "xs", pure())
		b.Filter("c", "a", pure())
		b.plain("use:c")
	}, want: expect{kernels: map[int]int{0: 1}, internal: []string{"a"}, rules: []string{"filter->filter"}}},
	{name: "generators", build: func(b *irb) {
		b.param("xs", "v")
		b.Iota("is", b.lenOf("xs"))
		b.Replicate("vs", b.lenOf("xs"), b.varOp("v"))
		b.Map("y", pure(), "xs", "is", "vs")
		b.plain("use:y")
	}, want: expect{kernels: map[int]int{0: 1}, internal: []string{"is", "vs"}, rules: []string{"iota->any", "replicate->any"}}},
	{name: "iota into a loop", build: func(b *irb) {
		b.param("n", "c")
		b.Iota("is", b.varOp("n"))
		b.Loop(func() {
			b.Map("y", pure(), "is")
			b.plain("use:y")
		})
	}, want: expect{kernels: map[int]int{0: 1}, together: [][]string{{"is", "y"}}, rules: []string{"iota->any"}}},
	{name: "iota into a loop that reassigns its length", build: func(b *irb) {
		// Fused, Iota(n) would be evaluated in the loop with the new n: the
		// second iteration would map over [0, n+1) instead of [0, n).
		b.param("n")
		b.Iota("is", b.varOp("n"))
		b.Loop(func() {
			b.Map("y", pure(), "is")
			b.plain("use:y")
			b.plain("use:n", "def:n")
		})
	}, want: expect{kernels: map[int]int{0: 2}, apart: [][]string{{"is", "y"}}, refusals: []string{"input-reassigned/n"}}},
	{name: "streams", build: func(b *irb) {
		b.param("xs")
		b.Map("m", pure(), "xs")
		b.StreamMap("s", "m", pure())
		b.StreamRed("r", "s", pure())
		b.StreamRed("r2", "xs", pure())
		b.plain("use:r", "use:r2")
	}, want: expect{kernels: map[int]int{0: 1}, internal: []string{"m", "s"}, rules: []string{"map->stream", "stream->stream", "stream+stream"}}},
	{name: "reduce beside a stream", build: func(b *irb) {
		b.param("xs")
		b.Reduce("a", "xs", pure())
		b.StreamRed("r", "xs", pure())
		b.plain("use:r", "use:a")
	}, want: expect{kernels: map[int]int{0: 1}, rules: []string{"reduce->stream"}}},
	{name: "map-out", build: func(b *irb) {
		b.param("xs")
		b.Map("x", pure(), "xs")
		b.Map("y", pure(), "x")
		b.plain("use:x", "use:y")
	}, want: expect{kernels: map[int]int{0: 1}, outputs: []string{"x", "y"}, rules: []string{"map->map", "map-out"}}},
	{name: "disjoint branches (Fig. 9 case 4 variant)", build: func(b *irb) {
		b.param("xs", "c")
		b.Map("x", pure(), "xs")
		b.If("c", func() {
			b.Map("y", pure(), "x")
			b.plain("use:y")
		}, func() {
			b.Reduce("z", "x", pure())
			b.plain("use:z")
		})
	}, want: expect{kernels: map[int]int{0: 2}, copies: []string{"x"}, rules: []string{"map->map", "map->redomap", "branch-copy"}}},

	// Refusals. Each comment says what a wrong fusion computes.
	{name: "write by index between (case 1)", build: func(b *irb) {
		// xs = [1 2], f = +1, g = *10: y must be [20 30]; fused at y, y[0]
		// would read the written xs[0] = 100 and give 1010. y reads xs too,
		// so it cannot move up to x either.
		b.param("xs")
		b.Map("x", pure(), "xs")
		b.plain("write:xs")
		b.Map("y", pure(), "x", "xs")
		b.plain("use:y")
	}, want: expect{kernels: map[int]int{0: 2}, refusals: []string{"write-between/xs"}}},
	{name: "write by index between, consumer placed up", build: func(b *irb) {
		// As above, but y reads only x: the kernel runs at x, before the
		// write, y moved up past it (placement).
		b.param("xs")
		b.Map("x", pure(), "xs")
		b.plain("write:xs")
		b.Map("y", pure(), "x")
		b.plain("use:y")
	}, want: expect{kernels: map[int]int{0: 1}, internal: []string{"x"}, rules: []string{"map->map", "placed"}, noNotes: true}},
	{name: "write through an alias between (case 1)", build: func(b *irb) {
		// ys := xs[:1]; ys[0] = 100 writes xs[0]: as above, y[0] would be
		// computed from 100 instead of 1 (y reads xs too: no placement).
		b.param("xs")
		b.Map("x", pure(), "xs")
		ys := b.plain("use:xs", "def:ys")
		b.fn.Alias.Join(b.v("xs"), ys.Eff.Defs[0])
		b.plain("write:ys")
		b.Map("y", pure(), "x", "xs")
		b.plain("use:y")
	}, want: expect{kernels: map[int]int{0: 2}, refusals: []string{"write-between/xs"}}},
	{name: "unknown call writes globals between", build: func(b *irb) {
		// A call that may write xs (reachable from a global): fused, y would
		// see its writes (y reads xs too: no placement).
		b.param("xs")
		b.Map("x", pure(), "xs")
		b.plain("global")
		b.Map("y", pure(), "x", "xs")
		b.plain("use:y")
	}, want: expect{kernels: map[int]int{0: 2}, refusals: []string{"write-between/xs"}}},
	{name: "unknown call between, consumer placed up", build: func(b *irb) {
		// y reads only the fresh x, which no global write reaches: it moves
		// up past the call to x.
		b.param("xs")
		b.Map("x", pure(), "xs")
		b.plain("global")
		b.Map("y", pure(), "x")
		b.plain("use:y")
	}, want: expect{kernels: map[int]int{0: 1}, rules: []string{"placed"}, noNotes: true}},
	{name: "filter zipped with its source (case 2)", build: func(b *irb) {
		// xs = [1 -1 2]: gts = [1 2] has length 2, xs length 3; the reference
		// panics in Map2, a fused loop over xs would index past gts.
		b.param("xs")
		b.Filter("gts", "xs", pure())
		b.Map("z", pure(), "gts", "xs")
		b.plain("use:z")
	}, want: expect{kernels: map[int]int{0: 2}, diags: []string{"size"}, refusals: []string{"size-mismatch/gts"}}},
	{name: "two filters zipped ([T2-fusion] Fig. 9 case 2)", build: func(b *irb) {
		// The two filtered lengths are known only after both filters ran: a
		// fused loop over a would pair x[i] with the wrong y element.
		b.param("a", "c")
		b.Filter("x", "a", pure())
		b.Filter("y", "c", pure())
		b.Map("z", pure(), "x", "y")
		b.plain("use:z")
	}, want: expect{kernels: map[int]int{0: 3}, refusals: []string{"size-unknown/x"}}},
	{name: "consumer in a loop (case 3)", build: func(b *irb) {
		// Fused into the loop, Map(a, f) would run once per iteration: with
		// a lambda that panics on some element, or a costly one, the program
		// changes (complexity multiplied by the trip count).
		b.param("a")
		b.Map("x", pure(), "a")
		b.Loop(func() {
			b.Map("y", pure(), "x")
			b.plain("use:y")
		})
	}, want: expect{kernels: map[int]int{0: 2}, refusals: []string{"loop-boundary/x"}}},
	{name: "consumer in a lambda (case 3)", build: func(b *irb) {
		b.param("a", "rows")
		b.Map("x", pure(), "a")
		b.Map("m", lam{free: []string{"x"}, body: func() {
			b.Map("y", pure(), "x")
			b.Reduce("s", "y", pure())
			b.plain("use:s")
		}}, "rows")
		b.plain("use:m")
	}, want: expect{kernels: map[int]int{0: 2, 1: 1}, refusals: []string{"loop-boundary/x"}}},
	{name: "consumed twice on one path (case 4)", build: func(b *irb) {
		// x consumed by two dependent kernels: fusing into both would compute
		// f twice per element; fusing into one would leave the other reading
		// an x that is never materialised.
		b.param("a", "c")
		b.Map("x", pure(), "a")
		b.If("c", func() {
			b.Map("y", pure(), "x")
			b.plain("use:y")
		}, func() {
			b.Map("y2", pure(), "x")
			b.plain("use:y2")
		})
		b.Map("z", pure(), "x")
		b.plain("use:z")
	}, want: expect{kernels: map[int]int{0: 4}, refusals: []string{"consumed-twice/x"}}},
	{name: "consumers that depend on each other (case 6)", build: func(b *irb) {
		b.param("a")
		b.Map("x", pure(), "a")
		b.Reduce("u", "x", pure())
		b.Map("w", pure("u"), "x")
		b.plain("use:w")
	}, want: expect{kernels: map[int]int{0: 2}, together: [][]string{{"x", "u"}}, apart: [][]string{{"x", "w"}}, outputs: []string{"x"}, rules: []string{"map-out"}, refusals: []string{"consumed-twice/x"}}},
	{name: "consumers split by a reassignment", build: func(b *irb) {
		// s1 and s2 assign the Go variable s; moving s1 down past s = 0 would
		// make s hold s1's value after that statement instead of 0.
		// x is also read before both kernels, so it cannot fuse into the
		// first one as a map-out array at s's position; placed at x, it
		// does (written out for the read and for t). The second
		// reduction's operator reads s, so it cannot move up past s = 0.
		b.param("a")
		b.Map("x", pure(), "a")
		b.plain("use:x")
		b.Reduce("s", "x", pure())
		b.plain("def:s")
		b.Reduce("t", "x", pure("s"))
		b.plain("use:s", "use:t")
	}, want: expect{kernels: map[int]int{0: 2}, together: [][]string{{"x", "s"}}, outputs: []string{"x"}, refusals: []string{"consumed-twice/assigned again"}}},
	{name: "consumers split by a reassignment, placed up", build: func(b *irb) {
		// As above with operators that read nothing: the kernel runs at x
		// (written out for the use between), both reductions moved up;
		// each result is assigned where its statement is, so s = 0 still
		// overwrites the first.
		b.param("a")
		b.Map("x", pure(), "a")
		b.plain("use:x")
		b.Reduce("s", "x", pure())
		b.plain("def:s")
		b.Reduce("t", "x", pure())
		b.plain("use:s", "use:t")
	}, want: expect{kernels: map[int]int{0: 1}, outputs: []string{"x"}, rules: []string{"placed", "map-out"}, noNotes: true}},
	{name: "used before the consumer (case 5)", build: func(b *irb) {
		// x[0] is read before the kernel: fused at y, x would not exist
		// yet; y's lambda may panic and the read may exit, so y does not
		// move up to x either.
		b.param("a")
		b.Map("x", pure(), "a")
		b.plain("use:x", "exit")
		b.Map("y", lam{mayPanic: true}, "x")
		b.plain("use:y")
	}, want: expect{kernels: map[int]int{0: 2}, refusals: []string{"used-before/x"}}},
	{name: "used before the consumer, placed up", build: func(b *irb) {
		// y cannot panic: the kernel runs at x and writes x out for the use.
		b.param("a")
		b.Map("x", pure(), "a")
		b.plain("use:x")
		b.Map("y", pure(), "x")
		b.plain("use:y")
	}, want: expect{kernels: map[int]int{0: 1}, outputs: []string{"x"}, rules: []string{"placed", "map-out"}, noNotes: true}},
	{name: "captured variable reassigned (a captured variable reassigned between the passes)", build: func(b *irb) {
		// k = 1 when x is computed, 2 afterwards: x = a*1 must not become
		// a*2; y reads the new k, so it cannot move up to x: x moves down
		// reading a copy of k taken where it is written.
		b.param("a", "k")
		b.Map("x", pure("k"), "a")
		b.plain("def:k")
		b.Map("y", pure("k"), "x")
		b.plain("use:y")
	}, want: expect{kernels: map[int]int{0: 1}, internal: []string{"x"}, rules: []string{"map->map", "capture-copy"}, noNotes: true}},
	{name: "function value reassigned", build: func(b *irb) {
		// The lambda is the function value f, not a literal whose
		// identifiers a copy could replace: not fused.
		b.param("a", "f")
		b.Map("x", funcValue("f"), "a")
		b.plain("def:f")
		b.Map("y", pure("f"), "x")
		b.plain("use:y")
	}, want: expect{kernels: map[int]int{0: 2}, refusals: []string{"capture-reassigned/f"}}},
	{name: "captured variable reassigned, consumer placed up", build: func(b *irb) {
		// y does not read k: the kernel runs at x, where k is still 1.
		b.param("a", "k")
		b.Map("x", pure("k"), "a")
		b.plain("def:k")
		b.Map("y", pure(), "x")
		b.plain("use:y")
	}, want: expect{kernels: map[int]int{0: 1}, rules: []string{"placed"}, noNotes: true}},
	{name: "input reassigned", build: func(b *irb) {
		// a = other after x := Map(a, f): fused code would map the new a;
		// y zips the new a, so it cannot move up to x.
		b.param("a", "other")
		b.Map("x", pure(), "a")
		b.plain("use:other", "def:a")
		b.Map("y", pure(), "x", "a")
		b.plain("use:y", "use:a")
	}, want: expect{kernels: map[int]int{0: 2}, refusals: []string{"input-reassigned/a"}}},
	{name: "return between", build: func(b *irb) {
		// if bad { return } between: fused at y, a panic of f on the
		// returning path would no longer happen; y may panic itself, so
		// moved up to x its panic would happen on that path too.
		b.param("a")
		b.Map("x", pure(), "a")
		b.plain("exit")
		b.Map("y", lam{mayPanic: true}, "x")
		b.plain("use:y")
	}, want: expect{kernels: map[int]int{0: 2}, refusals: []string{"control-exit/x"}}},
	{name: "return between, consumer placed up", build: func(b *irb) {
		// y cannot panic: computed at x, before the return, it changes
		// nothing a caller sees.
		b.param("a")
		b.Map("x", pure(), "a")
		b.plain("exit")
		b.Map("y", pure(), "x")
		b.plain("use:y")
	}, want: expect{kernels: map[int]int{0: 1}, rules: []string{"placed"}, noNotes: true}},
	{name: "impure lambdas (effects in order)", build: func(b *irb) {
		// The first lambda increments counter, the second reads it: fused,
		// the second sees 1, 2, ... instead of len(a).
		b.param("a", "counter")
		b.Map("x", impure("writes captured variable counter", "counter"), "a")
		b.Map("y", pure("counter"), "x")
		b.plain("use:y")
	}, want: expect{kernels: map[int]int{0: 2}, diags: []string{"impure"}, refusals: []string{"impure/counter"}}},
	{name: "not every path consumes", build: func(b *irb) {
		// Sinking x into the then-branch skips Map(a, f), and its panics,
		// when c is false.
		b.param("a", "c")
		b.Map("x", lam{mayPanic: true}, "a")
		b.If("c", func() {
			b.Map("y", pure(), "x")
			b.plain("use:y")
		}, nil)
	}, want: expect{kernels: map[int]int{0: 2}, refusals: []string{"not-every-path/x"}}},
	{name: "not every path consumes a producer that cannot panic", build: func(b *irb) {
		// Map(a, f) with f pure and unable to panic: skipping it when c
		// is false is unobservable, so it runs only in the branch.
		b.param("a", "c")
		b.Map("x", pure(), "a")
		b.If("c", func() {
			b.Map("y", pure(), "x")
			b.plain("use:y")
		}, nil)
	}, want: expect{kernels: map[int]int{0: 1}, rules: []string{"branch-copy"}, noNotes: true}},
	{name: "scan of a filter", build: func(b *irb) {
		// xs = [1 -2 3]: kept [1 3], scanned [1 4]; fused, the scan folds
		// only kept elements, in the filter's output space.
		b.param("xs")
		b.Filter("f", "xs", pure())
		b.Scan("s", "f", pure())
		b.plain("use:s")
	}, want: expect{kernels: map[int]int{0: 1}, internal: []string{"f"}, rules: []string{"filter->scanomap"}, noNotes: true}},
	{name: "scan of a filter zipped with the source", build: func(b *irb) {
		// The scan's output has the filter's length; a Map2 of it with xs
		// zips two spaces: not fused (size-mismatch), as filter->map.
		b.param("xs")
		b.Filter("f", "xs", pure())
		b.Scan("s", "f", pure())
		b.Map("z", pure(), "s", "xs")
		b.plain("use:z")
	}, want: expect{together: [][]string{{"f", "s"}}, apart: [][]string{{"s", "z"}}, refusals: []string{"size-mismatch/s"}}},
	{name: "filter of a stream", build: func(b *irb) {
		// The predicate reads each element of every chunk the chunk
		// function returns; the kept ones append in order.
		b.param("xs")
		b.StreamMap("s", "xs", pure())
		b.Filter("f", "s", pure())
		b.plain("use:f")
	}, want: expect{kernels: map[int]int{0: 1}, internal: []string{"s"}, rules: []string{"stream->filter"}, noNotes: true}},
	{name: "scan of a stream", build: func(b *irb) {
		// The scan folds each element of every chunk, its accumulator
		// carried from chunk to chunk; a map of the maps feeding the
		// stream and a map and a reduction of the scan fuse too.
		b.param("xs")
		b.Map("m", pure(), "xs")
		b.StreamMap("s", "m", pure())
		b.Scan("c", "s", pure())
		b.Map("y", pure(), "c")
		b.Reduce("r", "c", pure())
		b.plain("use:y", "use:r")
	}, want: expect{kernels: map[int]int{0: 1}, internal: []string{"m", "s", "c"},
		rules: []string{"map->stream", "stream->scanomap", "scanomap->map", "scanomap->redomap"}, noNotes: true}},
	{name: "scan of a stream read whole", build: func(b *irb) {
		// The scan's operator also reads the stream's whole output (a
		// captured array): complete only after the stream ran.
		b.param("xs")
		b.StreamMap("s", "xs", pure())
		b.Scan("c", "s", pure("s"))
		b.plain("use:c")
	}, want: expect{kernels: map[int]int{0: 2}, refusals: []string{"used-before/s"}}},
	{name: "filter of a stream zipped with the stream", build: func(b *irb) {
		// The kept elements zipped with the unfiltered stream output:
		// their lengths differ unless every element is kept.
		b.param("xs")
		b.StreamMap("s", "xs", pure())
		b.Filter("f", "s", pure())
		b.Map("z", pure(), "f", "s")
		b.plain("use:z")
	}, want: expect{together: [][]string{{"s", "f"}}, apart: [][]string{{"f", "z"}}, refusals: []string{"size-mismatch/f"}}},
	{name: "scan of a stream zipped with its input", build: func(b *irb) {
		// The scan's output zipped with the stream's input: the members
		// after a stream read its chunks only; the scan fuses into the
		// Map2 (bottom-up), the stream stays apart.
		b.param("xs")
		b.StreamMap("s", "xs", pure())
		b.Scan("c", "s", pure())
		b.Map("z", pure(), "c", "xs")
		b.plain("use:z")
	}, want: expect{together: [][]string{{"c", "z"}}, apart: [][]string{{"s", "c"}}, refusals: []string{"no-rule/s"}}},
	{name: "filter of a stream beside a reduce", build: func(b *irb) {
		// A reduction of the stream's input beside a stream whose output
		// is filtered: only maps feed a stream's chunks (no-rule).
		b.param("xs")
		b.Reduce("a", "xs", pure())
		b.StreamMap("s", "xs", pure())
		b.Filter("f", "s", pure())
		b.plain("use:f", "use:a")
	}, want: expect{together: [][]string{{"s", "f"}}, apart: [][]string{{"a", "s"}}}},
	{name: "filter of a stream beside a map", build: func(b *irb) {
		// A map of the stream's input beside a stream whose output is
		// filtered: the chunk loop runs only maps computing the stream's
		// input, so the map stays apart.
		b.param("xs")
		b.StreamMap("s", "xs", pure())
		b.Map("m", pure(), "xs")
		b.Filter("f", "s", pure())
		b.plain("use:f", "use:m")
	}, want: expect{together: [][]string{{"s", "f"}}, apart: [][]string{{"m", "s"}}}},
	{name: "scan of a stream_red's input", build: func(b *irb) {
		// A scan beside a StreamRed: still no kernel form.
		b.param("xs")
		b.StreamMap("s", "xs", pure())
		b.Scan("c", "s", pure())
		b.StreamRed("r", "c", pure())
		b.plain("use:r")
	}, want: expect{together: [][]string{{"s", "c"}}, apart: [][]string{{"c", "r"}}, refusals: []string{"no-rule/c"}}},
	{name: "filter of a scan", build: func(b *irb) {
		// The predicate reads each scanned element as it is produced.
		b.param("xs")
		b.Scan("s", "xs", pure())
		b.Filter("f", "s", pure())
		b.plain("use:f")
	}, want: expect{kernels: map[int]int{0: 1}, internal: []string{"s"}, rules: []string{"scanomap->filter"}, noNotes: true}},
	{name: "filter of a scan read whole", build: func(b *irb) {
		// The predicate also reads the whole scan (a captured array):
		// complete only after the scan ran, so not fused.
		b.param("xs")
		b.Scan("s", "xs", pure())
		b.Filter("f", "s", pure("s"))
		b.plain("use:f")
	}, want: expect{kernels: map[int]int{0: 2}, refusals: []string{"used-before/s"}}},
	{name: "scan of a scan", build: func(b *irb) {
		b.param("xs")
		b.Scan("s", "xs", pure())
		b.Scan("t", "s", pure())
		b.plain("use:t")
	}, want: expect{kernels: map[int]int{0: 1}, internal: []string{"s"}, rules: []string{"scanomap->scanomap"}, noNotes: true}},
}

func TestHand(t *testing.T) {
	for _, c := range handCases {
		t.Run(c.name, func(t *testing.T) {
			b := newIRB(strings.ReplaceAll(c.name, " ", "_"))
			c.build(b)
			plan := b.fuse(t, c.opts)
			verify(t, plan, c.want)
			if c.opts.Gas > 0 && !plan.GasExhausted {
				t.Errorf("gas did not run out\n%s", plan)
			}
		})
	}
}

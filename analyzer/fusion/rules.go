package fusion

// This file is the rule TABLE: which producer form fuses into which
// consumer form, as data. Each rule has a stable name (used in
// Kernel.Rules, Stats.Rules, reports and tests) and an optional check of
// its own side conditions.
//
// It does NOT check legality of moves (legal.go) or iteration spaces in
// general (space.go), and it does NOT compose lambdas: composing is the
// generator's job, which follows the rule names recorded in the plan.

import (
	"fmt"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// Class is the shape of one SOAC as the rule table sees it.
type Class uint16

// The classes. A Reduce is a redomap with the identity map and a Scan a
// scanomap with the identity map (Spiegelhauer & Sprent, "Implementing Map-Scan Fusion in the Futhark Compiler" (2016) [Map-scan] §4.1), so rules name them so.
const (
	ClassMap       Class = 1 << iota // Map, Map2, Map3
	ClassReduce                      // Reduce (a redomap)
	ClassScan                        // Scan (a scanomap)
	ClassFilter                      // Filter
	ClassStreamMap                   // StreamMap
	ClassStreamRed                   // StreamRed
	ClassIota                        // Iota
	ClassReplicate                   // Replicate
)

// ClassAny matches every class.
const ClassAny = ClassMap | ClassReduce | ClassScan | ClassFilter | ClassStreamMap | ClassStreamRed | ClassIota | ClassReplicate

var classNames = map[Class]string{
	ClassMap: "map", ClassReduce: "redomap", ClassScan: "scanomap", ClassFilter: "filter",
	ClassStreamMap: "stream_map", ClassStreamRed: "stream_red", ClassIota: "iota", ClassReplicate: "replicate",
}

// String names a single class.
func (c Class) String() string {
	if n, ok := classNames[c]; ok {
		return n
	}
	return fmt.Sprintf("Class(%d)", uint16(c))
}

// ClassOf returns the class of s.
func ClassOf(s *ir.SOAC) Class {
	switch op := s.Op.(type) {
	case *ir.Screma:
		switch {
		case op.Scan != nil:
			return ClassScan
		case op.Reduce != nil:
			return ClassReduce
		}
		return ClassMap
	case *ir.Filter:
		return ClassFilter
	case *ir.Stream:
		if op.Kind == ir.StreamRed {
			return ClassStreamRed
		}
		return ClassStreamMap
	case *ir.Iota:
		return ClassIota
	case *ir.Replicate:
		return ClassReplicate
	}
	return 0
}

// Mode says whether a rule joins a producer to its consumer or two
// independent kernels.
type Mode int

// The modes.
const (
	Vertical   Mode = iota // producer -> consumer
	Horizontal             // two kernels over one space with no path between them
)

// Rule is one entry of the table.
type Rule struct {
	Name string
	Mode Mode
	// Producer and Consumer are the classes the rule matches: for a
	// vertical rule, the producer SOAC and the consuming member; for a
	// horizontal rule, classes that must occur in the two kernels (the
	// first kernel must contain a member of Producer, the second of
	// Consumer, or the other way round).
	Producer, Consumer Class
	// Doc says what the fused form is, with the paper it comes from.
	Doc string
	// Check tests the rule's side conditions; nil when it has none.
	Check func(c *ruleCtx) *Refusal
	// Match decides a horizontal rule from the classes of the two kernels'
	// members.
	Match func(a, b Class) bool
}

// ruleCtx is what a rule check sees.
type ruleCtx struct {
	st       *state
	producer *ir.SOAC
	consumer *ir.SOAC // the consuming member (vertical)
	x        *ir.Var  // the array that flows
}

// Rule names that are not table entries but tag what happened to a kernel.
const (
	TagMapOut      = "map-out"          // the producer's output stays materialised for later uses ([Map-scan] §5.2)
	TagBranchCopy  = "branch-copy"      // the producer was copied into the kernels of disjoint branches, or of a branch that returns and the statements after it ([T2-fusion] Fig. 9 case 4)
	TagMerge       = "merge"            // the consumers' kernels were merged so that the producer could fuse ([T2-fusion] Fig. 8)
	TagEffects     = "effects-in-order" // an impure map fused into the pure reduction right after it (effects.go)
	TagPlaced      = "placed"           // the kernel runs at its producer's position, its consumers moved up to it (place.go)
	TagCaptureCopy = "capture-copy"     // the producer moved down reading copies, taken where it is written, of captured variables reassigned on the way (Kernel.Copies)
	TagIndexRead   = "index-read"       // the consumer's literal reads the producer's output only at the iteration index of an Iota input of its length (Kernel.Gathers, gather.go)
)

// Tags lists the tags.
func Tags() []string {
	return []string{TagMapOut, TagBranchCopy, TagMerge, TagEffects, TagPlaced, TagCaptureCopy, TagIndexRead}
}

// rules is the table, first match wins.
var rules = []Rule{
	{Name: "iota->any", Mode: Vertical, Producer: ClassIota, Consumer: ClassAny,
		Doc: "Iota is index arithmetic: never materialised, fuses even into loops and lambdas ([T2-fusion] §3.4, like replicate)"},
	{Name: "replicate->any", Mode: Vertical, Producer: ClassReplicate, Consumer: ClassAny,
		Doc: "Replicate is a constant map: never materialised, fuses even into loops and lambdas ([T2-fusion] Fig. 14)"},
	{Name: "map->map", Mode: Vertical, Producer: ClassMap, Consumer: ClassMap,
		Doc: "map2 o map2 => map2, at any input position of Map2/Map3 ([T2-fusion] Fig. 14)"},
	{Name: "map->redomap", Mode: Vertical, Producer: ClassMap, Consumer: ClassReduce,
		Doc: "reduce o map => redomap; redomap o map => redomap ([T2-fusion] Fig. 14)"},
	{Name: "map->scanomap", Mode: Vertical, Producer: ClassMap, Consumer: ClassScan,
		Doc: "scan o map => scanomap ([Map-scan] §4.1, §5.2)"},
	{Name: "map->filter", Mode: Vertical, Producer: ClassMap, Consumer: ClassFilter,
		Doc: "filter o map: the predicate reads the mapped element ([Robinson-ILP] filterMax)"},
	{Name: "scanomap->map", Mode: Vertical, Producer: ClassScan, Consumer: ClassMap,
		Doc: "map o scanomap: the map reads each scanned element as it is produced (Futhark's scan post-lambda)"},
	{Name: "scanomap->redomap", Mode: Vertical, Producer: ClassScan, Consumer: ClassReduce,
		Doc: "redomap o scanomap: the reduction folds each scanned element as it is produced"},
	{Name: "scanomap->scanomap", Mode: Vertical, Producer: ClassScan, Consumer: ClassScan,
		Doc: "scan o scanomap: the second scan folds each element of the first as it is produced ([Map-scan]'s scanomap composition; sequential on cpu)"},
	{Name: "scanomap->filter", Mode: Vertical, Producer: ClassScan, Consumer: ClassFilter,
		Doc: "filter o scanomap: the predicate reads each scanned element as it is produced and opens the kept-element space under it (sequential on cpu, as scanomap->scanomap)"},
	{Name: "filter->filter", Mode: Vertical, Producer: ClassFilter, Consumer: ClassFilter,
		Doc: "filter2 o filter2 => filter2 with the conjunction of the predicates ([T2-fusion] Fig. 14)"},
	{Name: "filter->redomap", Mode: Vertical, Producer: ClassFilter, Consumer: ClassReduce,
		Doc: "reduce o filter => redomap folding only kept elements ([T2-fusion] Fig. 14)"},
	{Name: "filter->scanomap", Mode: Vertical, Producer: ClassFilter, Consumer: ClassScan,
		Doc: "scan o filter: the scan folds each kept element as it is kept and appends its running value, in the filter's output space ([Robinson-ILP] §1.3.6 size inference; sequential on cpu, as scanomap->scanomap)"},
	{Name: "filter->map", Mode: Vertical, Producer: ClassFilter, Consumer: ClassMap,
		Doc:   "map o filter: size-changing; the map runs on kept elements, sound when its other inputs are in the filtered space ([Robinson-ILP] §1.3.6)",
		Check: checkFilterMap},
	{Name: "map->stream", Mode: Vertical, Producer: ClassMap, Consumer: ClassStreamMap | ClassStreamRed,
		Doc: "a map becomes a stream_map (F1) and composes with the consuming stream (F6): the chunk function receives the mapped chunk ([Futhark-PLDI17] §4.2)"},
	{Name: "stream->stream", Mode: Vertical, Producer: ClassStreamMap, Consumer: ClassStreamMap | ClassStreamRed | ClassMap | ClassReduce,
		Doc: "StreamMap -> StreamMap/StreamRed by F6; a consuming Map/Reduce first becomes a stream by F1/F3 ([Futhark-PLDI17] §4.2)"},
	{Name: "stream->scanomap", Mode: Vertical, Producer: ClassStreamMap, Consumer: ClassScan,
		Doc: "scan o stream_map: the scan folds each element of every chunk the chunk function returns, in order, its accumulator carried from chunk to chunk ([Futhark-PLDI17] §4.2's chunked composition; sequential on cpu, as scanomap->scanomap)"},
	{Name: "stream->filter", Mode: Vertical, Producer: ClassStreamMap, Consumer: ClassFilter,
		Doc: "filter o stream_map: the predicate reads each element of every chunk the chunk function returns and keeps it in order ([Futhark-PLDI17] §4.2's chunked composition, [Robinson-ILP] §1.3.6 size inference; sequential on cpu)"},
	{Name: "horizontal", Mode: Horizontal, Producer: ClassAny &^ streamClasses, Consumer: ClassAny &^ streamClasses,
		Doc:   "two kernels over one space with no path between them run as one pass ([T2-fusion] Fig. 9 case 6, [Map-scan] §4.3, [Robinson-ILP])",
		Match: func(a, b Class) bool { return a&streamClasses == 0 && b&streamClasses == 0 }},
	{Name: "reduce->stream", Mode: Horizontal, Producer: ClassReduce | ClassMap, Consumer: streamClasses,
		Doc:   "a reduction or map beside a stream over the same array becomes a stream (F1/F3) and joins it horizontally (F6 with no flow) ([Futhark-PLDI17] §4.2)",
		Match: func(a, b Class) bool { return (a&streamClasses == 0) != (b&streamClasses == 0) }},
	{Name: "stream+stream", Mode: Horizontal, Producer: streamClasses, Consumer: streamClasses,
		Doc:   "StreamRed+StreamRed (or StreamMap) over the same array: F6 with no flow, operators tupled ([Futhark-PLDI17] §4.2)",
		Match: func(a, b Class) bool { return a&streamClasses != 0 && b&streamClasses != 0 }},
}

// Rules returns the rule table, in matching order.
func Rules() []Rule { return append([]Rule(nil), rules...) }

// lookupVertical returns the first vertical rule matching producer and
// consumer classes, or nil.
func lookupVertical(p, c Class) *Rule {
	for i := range rules {
		r := &rules[i]
		if r.Mode == Vertical && r.Producer&p != 0 && r.Consumer&c != 0 {
			return r
		}
	}
	return nil
}

// kernelClasses returns the union of the classes of members.
func kernelClasses(members []*ir.SOAC) Class {
	var c Class
	for _, m := range members {
		c |= ClassOf(m)
	}
	return c
}

const streamClasses = ClassStreamMap | ClassStreamRed

// lookupHorizontal returns the horizontal rule joining kernels whose
// members have classes a and b, or nil.
func lookupHorizontal(a, b Class) *Rule {
	for i := range rules {
		r := &rules[i]
		if r.Mode == Horizontal && r.Match(a, b) {
			return r
		}
	}
	return nil
}

// shapeCheck refuses member sets that no kernel form covers: a stream
// shares a pass with a scan or filter only when it is the kernel's one
// stream, a StreamMap, and the scans and filters run after it on its
// chunks (streamThen); otherwise a scan or filter does not compose with a
// stream (rule F5 only makes a scan a sequential stream, which soacgen
// does not have).
func shapeCheck(p posFmt, members []*ir.SOAC) *Refusal {
	var streams []*ir.SOAC
	var other *ir.SOAC
	for _, m := range members {
		switch c := ClassOf(m); {
		case c&streamClasses != 0:
			streams = append(streams, m)
		case c&(ClassScan|ClassFilter) != 0:
			other = m
		}
	}
	if len(streams) == 0 || other == nil {
		return nil
	}
	if len(streams) == 1 && ClassOf(streams[0]) == ClassStreamMap {
		return streamThen(p, streams[0], members)
	}
	return &Refusal{Rule: RefNoRule, Pos: other.Pos(), Consumer: streams[0],
		Reason: fmt.Sprintf("no kernel form runs %s and %s in one pass: a scan or filter does not compose with a stream ([Futhark-PLDI17] F5 gives only sequential streams)", p.soac(streams[0]), p.soac(other))}
}

// streamThen checks the shape of a kernel whose StreamMap s feeds scans or
// filters (stream->scanomap, stream->filter): the members that read the
// stream's output, directly or through each other, read nothing else (the
// loop after the stream runs over its chunks), and the others are maps
// computing the stream's input (the chunk loop's maps).
func streamThen(p posFmt, s *ir.SOAC, members []*ir.SOAC) *Refusal {
	feeds := map[*ir.Var]bool{}
	for _, v := range s.Inputs() {
		feeds[v] = true
	}
	for changed := true; changed; {
		changed = false
		for _, m := range members {
			if m.Out == nil || !feeds[m.Out] {
				continue
			}
			for _, v := range m.Inputs() {
				if !feeds[v] {
					feeds[v] = true
					changed = true
				}
			}
		}
	}
	after := map[*ir.Var]bool{s.Out: true}
	for changed := true; changed; {
		changed = false
		for _, m := range members {
			if m == s || m.Out == nil || after[m.Out] {
				continue
			}
			for _, v := range m.Inputs() {
				if after[v] {
					after[m.Out] = true
					changed = true
					break
				}
			}
		}
	}
	for _, m := range members {
		if m == s {
			continue
		}
		if m.Out == nil || !after[m.Out] {
			if !m.IsMap() || m.Out == nil || !feeds[m.Out] {
				return &Refusal{Rule: RefNoRule, Pos: m.Pos(), Consumer: s,
					Reason: fmt.Sprintf("no kernel form runs %s beside %s, whose output scans or filters read: only maps computing its input run in its chunk loop", p.soac(m), p.soac(s))}
			}
			continue
		}
		for _, v := range m.Inputs() {
			if !after[v] {
				return &Refusal{Rule: RefNoRule, Pos: m.Pos(), Consumer: m, Var: v,
					Reason: fmt.Sprintf("%s reads %s beside the output of %s: the members after a stream run over its chunks only", p.soac(m), v.Name, p.soac(s))}
			}
		}
	}
	return nil
}

// checkFilterMap requires every input of the consuming map to lie in the
// filter's output space: zipping the filtered array with anything else
// either provably differs in length or is not known to agree.
func checkFilterMap(c *ruleCtx) *Refusal {
	sp := c.st.sp
	want := sp.outOf(c.producer)
	for _, v := range c.consumer.Inputs() {
		if got := sp.ofVar(v); got != want {
			rule := RefSizeUnknown
			reason := fmt.Sprintf("%s zips %s (%s) with %s (%s): the filter's output length is known only after it ran",
				c.st.p.soac(c.consumer), c.x.Name, sp.desc[want], v.Name, sp.desc[got])
			if sp.isAncestor(got, want) {
				rule = RefSizeMismatch
				reason = fmt.Sprintf("%s combines %s (filtered from %s) with %s: their lengths differ unless the filter keeps every element",
					c.st.p.soac(c.consumer), c.x.Name, c.producer.Inputs()[0].Name, v.Name)
			}
			return &Refusal{Rule: rule, Var: v, Pos: c.consumer.Pos(), Consumer: c.consumer, Reason: reason}
		}
	}
	return nil
}

// kernelForm names the fused form of a member set in the papers' terms.
func kernelForm(members []*ir.SOAC) string {
	c := kernelClasses(members)
	n := 0
	for _, m := range members {
		if !m.IsGenerator() {
			n++
		}
	}
	switch {
	case c&ClassStreamRed != 0:
		return "stream_red"
	case c&ClassStreamMap != 0:
		return "stream_map"
	case c&ClassFilter != 0 && c&(ClassReduce) != 0:
		return "filter-redomap"
	case c&ClassFilter != 0:
		return "filter"
	case c&ClassScan != 0 && c&ClassReduce != 0:
		return "screma"
	case c&ClassScan != 0:
		if n == 1 {
			return "scan"
		}
		return "scanomap"
	case c&ClassReduce != 0:
		if n == 1 && len(members) == 1 {
			return "reduce"
		}
		return "redomap"
	case c&ClassMap != 0:
		return "map"
	case c&ClassIota != 0 && c&ClassReplicate == 0:
		return "iota"
	case c&ClassReplicate != 0 && c&ClassIota == 0:
		return "replicate"
	}
	return "map"
}

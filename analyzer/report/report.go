// Package report turns the fusion engine's plans into the fusion report
// fixed by docs/contract.md ("The fusion report"): one JSON object per
// package listing every generated function (a spec, a function with
// //soac:fuse directives, once per directive), its kernels with their
// member SOACs, and the notes explaining refused fusions. It also
// aggregates fusion statistics in the manner of Figure 18 of Henriksen &
// Oancea, "A T2 Graph-Reduction Approach to Fusion" (2013) [T2-fusion] and
// prints them as a table (WriteStats).
//
// The package decides nothing and reports no diagnostics: it only renders
// fusion.Plan values. Everything it prints is deterministic: functions in
// source order, kernels in plan order, ops in kernel member order, rule
// counts sorted by rule name; no map iteration reaches the output.
//
// # Positions
//
// Every position is printed as "file:line:col" (line and column 1-based,
// the column counted in bytes as go/token does) where file is the path of
// the source file relative to Options.Root, the module root directory of
// the loaded package, with forward slashes: package example.com/p of module
// example.com in <module>/p/n.go prints "p/n.go". A file outside Root (or
// every file, when Root is empty) prints its path as the file set records
// it. A function's position is its func keyword; an op's position is the
// start of its call expression (the "soac" of soac.Reduce); a note's
// position is the hazard the engine names.
//
// # Backends
//
// A kernel's backend is the backend whose code runs it: the one
// Options.Generated names for it (the code generator fills it in, after
// any fallback: "reference" for a kernel run as calls of runtime/soac).
// A kernel Generated does not name (the report of the plans alone) shows
// the backend asked for: its spec's directive backend (//soac:fuse NAME
// backend=B) or, when the directive names none, Options.Backend; when
// that is empty too, "cpu". Each fallback Generated records becomes a
// note with rule "backend-fallback" at the kernel's position, after the
// plan's notes.
//
// # Structure
//
// Its place in the pipeline (docs/architecture.md): the docs/contract.md
// JSON report and fusion statistics from plans, with the backend that
// generated each kernel and a backend-fallback note per fallback
// (Options.Generated, filled by rewrite).
package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"go/token"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/ir"
)

// DefaultBackend is the backend of a kernel whose spec's directive names none
// when Options.Backend is empty; docs/contract.md fixes it as cpu.
const DefaultBackend = ir.BackendCPU

// ValidBackend reports whether b is one of the backend names (ir.Backends).
func ValidBackend(b string) bool { return slices.Contains(ir.Backends, b) }

// Report is the whole fusion report: what `soacgen -json` prints.
type Report struct {
	// Packages in the order they were added (soacgen adds them sorted by
	// import path).
	Packages []*Package `json:"packages"`
}

// Package is the report on one package.
type Package struct {
	Path string `json:"path"`
	// Functions are the package's generated functions, one per
	// //soac:fuse directive, in source order (a spec's directives in the
	// order of its doc comment); never nil, so that JSON prints [].
	// Spec and Name tell each apart: a spec of several directives has
	// one Function per directive, each with its own plan and backends.
	Functions []*Function `json:"functions"`
	// Stats sums the statistics of Functions.
	Stats PackageStats `json:"stats"`
}

// Function is the report on one generated function: a spec and one of
// its directives.
type Function struct {
	Spec string `json:"spec"` // the spec's Go name
	Name string `json:"name"` // the function the directive asks to generate
	Pos  string `json:"pos"`  // the spec's func keyword
	// Kernels in the plan's order; never nil.
	Kernels []*Kernel `json:"kernels"`
	// Notes in the plan's order; never nil.
	Notes []*Note `json:"notes"`
	Stats Stats   `json:"stats"`
	// Cluster is the clustering of the spec: the method that chose the
	// kernels and what the clustering costs.
	Cluster *Cluster `json:"cluster,omitempty"`
}

// Cluster names the clustering method of a spec (-cluster, cluster=) and
// prices its clustering under both cost models of the fusion engine.
type Cluster struct {
	Method string `json:"method"` // "greedy", "ilp" or "wsp"
	// Robinson is the objective of Robinson et al., "Clustering for Array-Backed Streams" (2014) [Robinson-ILP]
	// (array traversals N², loops 1, intermediate arrays N); Bytes the bytes accessed per element of Kristensen et al., "Fusion of Array Operations at Runtime" (2016) [Bohrium-WSP].
	Robinson int64 `json:"robinson"`
	Bytes    int64 `json:"bytes"`
	// Optimal: the method proved the clustering optimal under its model.
	Optimal bool `json:"optimal"`
}

// Kernel is one pass over memory: one loop on the CPU, one launch group in
// OpenCL.
type Kernel struct {
	// Ops are the member SOACs in the kernel's evaluation order; never nil.
	Ops     []Op   `json:"ops"`
	Depth   int    `json:"depth"`
	Backend string `json:"backend"`
	// Form names the fused form ("map", "redomap", "scanomap", ...).
	Form string `json:"form,omitempty"`
	// Rules are the fusion rules that built the kernel, in firing order.
	Rules []string `json:"rules,omitempty"`
	// Inputs, Outputs and Internal name the arrays the kernel reads,
	// produces for later use, and no longer materialises.
	Inputs   []string `json:"inputs,omitempty"`
	Outputs  []string `json:"outputs,omitempty"`
	Internal []string `json:"internal,omitempty"`
	// Vector says whether the kernel's loop has vector forms (builds with
	// GOEXPERIMENT=simd on amd64 run them): for kernels the cpu backend
	// generates as one loop, nil for the others.
	Vector *Vector `json:"vector,omitempty"`
}

// Vector is what the vector translator did with a kernel's loop: the
// widths in bits of the forms it wrote (512 for AVX-512, 256 for AVX2;
// none when it wrote none), and why not, or what a width or build needs.
type Vector struct {
	Widths []int    `json:"widths,omitempty"`
	Reason string   `json:"reason,omitempty"`
	Notes  []string `json:"notes,omitempty"`
}

// Op is one SOAC call, a member of a kernel.
type Op struct {
	Op  string `json:"op"`  // the combinator as written: "Map", "Reduce", ...
	Pos string `json:"pos"` // the start of the call expression
}

// Note explains one fusion that was possible in shape but refused.
type Note struct {
	Pos    string `json:"pos"`
	Reason string `json:"reason"`
	// Rule is the stable identifier of the refusal ("write-between", ...).
	Rule string `json:"rule,omitempty"`
	// Var is the name of the variable the reason is about.
	Var string `json:"var,omitempty"`
}

// Options control how plans are rendered.
type Options struct {
	// Backend is the backend of every kernel whose spec's directive names
	// none; empty means DefaultBackend.
	Backend string
	// Root is the directory positions are printed relative to: the module
	// root directory of the package. Empty prints file names as recorded.
	Root string
	// Generated says, for each kernel the code generator generated, which
	// backend generated it and which backends refused it first.
	Generated map[*fusion.Kernel]Generated
}

// FallbackRule is the rule of the note a backend fallback adds.
const FallbackRule = "backend-fallback"

// Generated is what the code generator did with one kernel.
type Generated struct {
	// Backend is the backend whose code runs the kernel.
	Backend string
	// Fallbacks are the refusals met before Backend, in order.
	Fallbacks []Fallback
	// Vector is what the vector translator did with the kernel's loop,
	// or nil when it was not asked (another form or backend).
	Vector *Vector
}

// Fallback is one backend's refusal of a kernel.
type Fallback struct {
	Pos token.Pos // the kernel's position
	// Backend refused the kernel for Reason; Next is the backend tried
	// after it.
	Backend, Next, Reason string
}

// Note returns the sentence of the note that f adds to the report.
func (f Fallback) Note() string {
	return "backend " + f.Backend + " does not generate this kernel: " + f.Reason + "; it falls back to " + f.Next
}

// NewPackage renders the plans of one package (one plan per ir.Function,
// one per directive for a spec: ir.Function.Directed; in any order, a
// spec's directives in their order) as a Package. Only plans of specs
// (functions with a //soac:fuse directive) appear in Functions and in
// Stats.
func NewPackage(fset *token.FileSet, path string, plans []*fusion.Plan, opts Options) *Package {
	p := &Package{Path: path, Functions: []*Function{}}
	specs := make([]*fusion.Plan, 0, len(plans))
	for _, pl := range plans {
		if pl != nil && pl.Func != nil && pl.Func.Fuse != nil {
			specs = append(specs, pl)
		}
	}
	// By file name, then offset: token positions of different files
	// follow the order the loader parsed them in, which varies.
	slices.SortStableFunc(specs, func(a, b *fusion.Plan) int {
		pa, pb := fset.Position(funcPos(a.Func)), fset.Position(funcPos(b.Func))
		return cmp.Or(cmp.Compare(pa.Filename, pb.Filename), cmp.Compare(pa.Offset, pb.Offset))
	})
	r := renderer{fset: fset, opts: opts}
	var all []fusion.Stats
	for _, pl := range specs {
		p.Functions = append(p.Functions, r.function(pl))
		all = append(all, pl.Stats)
	}
	p.Stats = PackageStats{Specs: len(specs), Stats: SumStats(all...)}
	return p
}

// WriteJSON writes the report as indented JSON followed by a newline.
func (r *Report) WriteJSON(w io.Writer) error {
	if r.Packages == nil {
		r.Packages = []*Package{}
	}
	// Encode to a buffer so that a failure writes nothing. Rule names
	// contain "->", which must not be escaped as \u003e.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// funcPos returns the position of fn's func keyword.
func funcPos(fn *ir.Function) token.Pos {
	if fn.Decl != nil {
		return fn.Decl.Type.Func
	}
	if fn.Obj != nil {
		return fn.Obj.Pos()
	}
	return token.NoPos
}

type renderer struct {
	fset *token.FileSet
	opts Options
}

func (r renderer) function(pl *fusion.Plan) *Function {
	fn := pl.Func
	f := &Function{
		Spec:    fn.Name,
		Name:    fn.Fuse.Name,
		Pos:     r.pos(funcPos(fn)),
		Kernels: []*Kernel{},
		Notes:   []*Note{},
		Stats:   SumStats(pl.Stats),
		Cluster: &Cluster{Method: pl.Partitioner, Robinson: pl.Cost.Robinson, Bytes: pl.Cost.Bytes, Optimal: pl.Optimal},
	}
	backend := fn.Fuse.Backend
	if backend == "" {
		backend = r.opts.Backend
	}
	if backend == "" {
		backend = DefaultBackend
	}
	for _, k := range pl.Kernels {
		b := backend
		g, ok := r.opts.Generated[k]
		if ok {
			b = g.Backend
		}
		rk := r.kernel(k, b)
		if v := g.Vector; v != nil {
			// Positions in the texts as the report writes them.
			rk.Vector = &Vector{Widths: v.Widths, Reason: fn.UserText(r.fset, v.Reason)}
			for _, n := range v.Notes {
				rk.Vector.Notes = append(rk.Vector.Notes, fn.UserText(r.fset, n))
			}
		}
		f.Kernels = append(f.Kernels, rk)
	}
	for _, n := range pl.Notes {
		note := &Note{Pos: r.pos(n.Pos), Reason: n.Reason, Rule: n.Rule}
		if n.Var != nil {
			note.Var = n.Var.LabelAt(r.pos)
		}
		f.Notes = append(f.Notes, note)
	}
	for _, k := range pl.Kernels {
		for _, fb := range r.opts.Generated[k].Fallbacks {
			f.Notes = append(f.Notes, &Note{Pos: r.pos(fb.Pos), Reason: fn.UserText(r.fset, fb.Note()), Rule: FallbackRule})
		}
	}
	return f
}

func (r renderer) kernel(k *fusion.Kernel, backend string) *Kernel {
	out := &Kernel{
		Ops:      make([]Op, 0, len(k.SOACs)),
		Depth:    k.Depth,
		Backend:  backend,
		Form:     k.Form,
		Rules:    slices.Clone(k.Rules),
		Inputs:   r.varNames(k.Inputs),
		Outputs:  r.varNames(k.Outputs),
		Internal: r.varNames(k.Internal),
	}
	for _, s := range k.SOACs {
		out.Ops = append(out.Ops, Op{Op: s.Name, Pos: r.pos(s.Pos())})
	}
	return out
}

// varNames names vs for the user: a temporary by its call or expression
// and position (ir.Var.LabelAt).
func (r renderer) varNames(vs []*ir.Var) []string {
	var names []string
	for _, v := range vs {
		if v != nil {
			names = append(names, v.LabelAt(r.pos))
		}
	}
	return names
}

// pos formats p as file:line:col with file relative to r.opts.Root.
func (r renderer) pos(p token.Pos) string {
	return FormatPos(r.fset, p, r.opts.Root)
}

// FormatPos formats p as "file:line:col", file relative to root when it lies
// under root (see the package documentation). An invalid position prints
// as "-".
func FormatPos(fset *token.FileSet, p token.Pos, root string) string {
	if !p.IsValid() || fset == nil {
		return "-"
	}
	position := fset.Position(p)
	file := position.Filename
	if root != "" && filepath.IsAbs(file) == filepath.IsAbs(root) {
		if rel, err := filepath.Rel(root, file); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			file = rel
		}
	}
	return filepath.ToSlash(file) + ":" + strconv.Itoa(position.Line) + ":" + strconv.Itoa(position.Column)
}

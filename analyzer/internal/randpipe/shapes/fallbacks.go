package shapes

import (
	"regexp"
	"slices"
)

// warnSpec matches a fallback warning; its first group is the spec
// function whose kernel falls back.
var warnSpec = regexp.MustCompile(`^\S+: (spec\d+): `)

// expectedFallbacks lists, per backend, the kernels it is known not to
// generate in the random specs, with the reason: a warning of the run
// that matches no entry fails it, so that a kernel the backend should
// render cannot fall back unnoticed. Only the opencl backend (also under
// auto) and the parallel backend may fall back; the reassignment shapes
// add no entry: a loop, a condition, a swap, a closure call or a captured
// scalar around a kernel never keeps it off a backend. Of the path shapes,
// the closure calls add two, for the rows they build in a lambda.
var expectedFallbacks = []struct {
	backends []string
	re       *regexp.Regexp
	why      string
}{
	// Every backend.
	{all, regexp.MustCompile(`backend (cpu|parallel) does not generate this kernel: its members do not run as one loop: `),
		"sequence: the lowering runs a stream beside or before members outside its chunk loop, a zip in a chunk loop, or a kernel reading no array, as the reference calls"},
	{all, regexp.MustCompile(`backend (cpu|parallel) does not generate this kernel: the function at \S+ reads \w+ at the iteration index but is called through a function value`),
		"index read through a function value: a lambda of stepIndexRead bound to a local function variable; the loop cannot put the producer's element in its body"},
	// parallel (and the opencl chain's parallel step).
	{par, regexp.MustCompile(`backend parallel does not generate this kernel: the function of \w+ at \S+ is not pure`),
		"impure: a lambda counting its calls in a captured variable (stepEffects, the impure hazards) never runs in parallel"},
	// opencl and auto.
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: the lambda of \w+ at \S+ is not translated to OpenCL C: (assignment to \w+ at \S+: a lambda may not write variables it captures|builtin (append|make) at|composite literal of \[\])`),
		"untranslated lambda: it allocates (stepLocalLambda) or writes a capture (stepEffects, the impure hazards)"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: the chunk function of StreamMap at \S+ is not translated to OpenCL C: `),
		"stream map: a chunk function not of the form row := make([]E, len(chunk)) (a nested Map, an out slice filled by a range loop)"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: it is nested in the lambda of \w+: it would launch once per element`),
		"nested: a kernel in a lambda (stepNested, a Map in a chunk function) runs in its parent's work-items"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: (Reduce|Scan) at \S+: its neutral element is not a constant`),
		"math.Inf start: a float max or min from math.Inf(±1) is not a constant to the opencl backend"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: Replicate at \S+: its value is not a constant, a variable or arithmetic of those`),
		"replicate value: a conversion or call (min, max) of captured values"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: its form is sequence: only single loops become OpenCL kernels`),
		"sequence: the lowering runs the kernel's members one after another"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: (\w+ at \S+ and \w+ at \S+ store the kept elements of two filters|\w+ at \S+: its output is stored at the index beside the kept elements|Reduce at \S+ folds the kept elements of another filter|Scan at \S+ shares its kernel with a filter)`),
		"filter skeleton: it compacts the kept elements of one filter and nothing else"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: (Scan at \S+ is not the last member of its kernel|a lambda of the scan's kernel may panic|it materialises \w+ beside the scan)`),
		"scan skeleton: it ends with the scan, writes only it and has no panic flag"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: \w+ at \S+: its output is materialised beside the stream`),
		"stream skeletons: they write only the stream's output"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: the lambda of \w+ at \S+ reads a copy of \w+ taken where it is written .*a copy is passed only for a number or struct of a map-reduce, scan or filter kernel`),
		"capture copy: a kernel other than a map-reduce, scan or filter whose lambda reads a captured variable reassigned before it runs (a call counter of stepEffects, a loop's scalar)"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: it reads no array \(a generated space\) and ends with a scan or stores a filter's kept elements`),
		"generated space: the scan and filter skeletons need an input array"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: the lambda of \w+ at \S+ is not translated to OpenCL C: nested soac\.(Iota|Replicate) at \S+: only Reduce is translated as a value`),
		"row in a lambda: a closure-call shape binds the row it calls the closure on to an Iota or a Replicate in the lambda (pathshapes.go)"},
	{ocl, regexp.MustCompile(`backend opencl does not generate this kernel: \w+ at \S+ returns slices that are not stored as the rows of its result`),
		"rows of a Map: a closure-call shape maps each element to a replicated row (pathshapes.go), which the opencl backend does not write as a row"},
}

// The backends of the entries of expectedFallbacks.
var (
	all = []string{"cpu", "parallel", "opencl", "auto"}
	par = []string{"parallel", "opencl", "auto"}
	ocl = []string{"opencl", "auto"}
)

// expectedFallback returns the entry of expectedFallbacks that explains
// warning w of backend b.
func expectedFallback(b, w string) (string, bool) {
	for _, e := range expectedFallbacks {
		if slices.Contains(e.backends, b) && e.re.MatchString(w) {
			return e.why, true
		}
	}
	return "", false
}

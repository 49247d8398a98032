package rewrite

import (
	"fmt"
	"github.com/soacgen/soacgen/rewrite/backend"
	"github.com/soacgen/soacgen/rewrite/internal/diffrun"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestRandomPipelines generates random pipelines — DAGs of Map, Map2,
// Filter, Reduce, Scan, Iota and Replicate with small integer lambdas,
// some capturing earlier results, some behind branches, some with a write
// to an input between producer and consumer, some whose lambdas may panic
// — generates their fused functions and compares each with its spec on
// random inputs (difftest).
func TestRandomPipelines(t *testing.T) {
	randomPipelines(t, backend.CPU, 300, 7)
}

// TestRandomPipelinesParallel is TestRandomPipelines with
// backend=parallel (fewer specs, for CI time): integer results must be
// the spec's exactly, with inputs up to 1e5 that split into chunks.
func TestRandomPipelinesParallel(t *testing.T) {
	randomPipelines(t, backend.Parallel, 100, 8)
}

// TestRandomPipelinesOpenCL is TestRandomPipelines with backend=opencl
// and associative operators with their neutral elements (the contract's
// promise, which a parallel reduction relies on): the kernels the opencl
// backend renders run on the device when there is one (each is built
// once, so fewer specs than the cpu test, for CI's time), the others
// fall back with a warning.
func TestRandomPipelinesOpenCL(t *testing.T) {
	randomPipelines(t, backend.OpenCL, 40, 13)
}

// randomPipelines generates specs random pipelines (seed picks them) with
// backend, and compares each with its spec.
func randomPipelines(t *testing.T, backendName string, specs int, seed uint64) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	r := rand.New(rand.NewPCG(seed, 11))
	var src strings.Builder
	src.WriteString("package rnd\n\nimport \"github.com/soacgen/soacgen/runtime/soac\"\n\nvar _ = soac.Iota\n")
	var names []string
	for i := 0; i < specs; i++ {
		src.WriteString(randomSpec(r, i, backendName != backend.CPU, backendName == backend.Parallel))
		names = append(names, fmt.Sprintf("R%d", i))
	}
	diffrun.Write(t, filepath.Join(tmp, "rnd.go"), []byte(src.String()))
	diffrun.Write(t, filepath.Join(tmp, "go.mod"), []byte("module example.com/rnd\n\ngo 1.26\n\nrequire github.com/soacgen/soacgen v0.0.0\n\nreplace github.com/soacgen/soacgen => "+root+"\n"))
	diffrun.Write(t, filepath.Join(tmp, "go.sum"), sum)
	env := diffrun.OfflineEnv()
	pkgs, err := packages.Load(&packages.Config{Mode: LoadMode, Dir: tmp, Env: env}, ".")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("random specs do not compile:\n%s", src.String())
	}
	results, err := RunPackages(pkgs, Options{Check: true, Backend: backendName})
	if err != nil {
		t.Fatal(err)
	}
	fusedStreams := 0
	for _, res := range results {
		for _, o := range res.Outputs {
			for _, w := range o.Warnings {
				if backendName != backend.CPU && strings.Contains(w, "does not generate this kernel") {
					t.Logf("warning: %s", w) // a shape this backend refuses; the next one runs it
					continue
				}
				t.Errorf("warning: %s", w)
			}
			diffrun.Write(t, o.Path, o.Content)
			fusedStreams += strings.Count(string(o.Content), "parallel.StreamRedChunks(") + strings.Count(string(o.Content), "parallel.StreamMapChunks(")
		}
	}
	if backendName == backend.Parallel && fusedStreams == 0 {
		t.Errorf("no random pipeline runs maps fused into a stream in parallel")
	}
	t.Logf("%d kernels of maps fused into a stream run in parallel", fusedStreams)
	var b strings.Builder
	b.WriteString("package rnd\n\nimport (\n\t\"math/rand/v2\"\n\t\"testing\"\n\n\t\"github.com/soacgen/soacgen/rewrite/difftest\"\n)\n\n")
	b.WriteString("func TestSoacDiff(t *testing.T) {\n\tdifftest.Run(t, []difftest.Case{\n")
	for i, n := range names {
		fmt.Fprintf(&b, "\t\t{Name: %q, Spec: r%dSpec, Fused: %s},\n", n, i, n)
	}
	b.WriteString("\t}, rand.New(rand.NewPCG(3, 4)))\n}\n")
	diffrun.Write(t, filepath.Join(tmp, "soacdiff_test.go"), []byte(b.String()))
	if backendName == backend.OpenCL {
		// The guard that a kernel which could run on the device did.
		guard, err := os.ReadFile(filepath.Join("testdata", "opencl", "device_test.go"))
		if err != nil {
			t.Fatal(err)
		}
		diffrun.Write(t, filepath.Join(tmp, "device_test.go"), []byte(strings.Replace(string(guard), "package opencl", "package rnd", 1)))
	}
	cmd := exec.Command("go", "test", "-count=1", ".")
	cmd.Dir = tmp
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		gen, _ := os.ReadFile(filepath.Join(tmp, "rnd_soac.go"))
		t.Fatalf("go test: %v\n%s\nspecs:\n%s\ngenerated:\n%s", err, out, src.String(), gen)
	}
}

// randomSpec writes spec number i: a random pipeline over xs and ys.
// With assoc, every operator is associative with its neutral element, as
// docs/contract.md's caller promises (the parallel backend re-associates).
// With streams, some steps are also a StreamRed or StreamMap whose result
// does not depend on its chunks (randomStream).
func randomSpec(r *rand.Rand, i int, assoc, streams bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n//soac:fuse R%d\nfunc r%dSpec(xs, ys []int, c int, flag bool) (int, []int) {\n", i, i)
	arrays := []string{"xs", "ys"}
	scalars := []string{"c"}
	unary := []string{"x*3 + 1", "x - %s", "x ^ 5", "x %% 7", "x + %s*2", "100 / (x%%5 + 1)", "-x"}
	binary := []string{"x + y", "x*y - %s", "x - y", "max(x, y)"}
	preds := []string{"x > 0", "x%%2 == 0", "x < %s", "x != 3"}
	ops := []struct{ op, ne string }{{"a + b", "0"}, {"max(a, b)", "-1 << 40"}, {"a*3 + b", "1"}, {"a ^ b", "0"}, {"min(a, b)", "1 << 40"}}
	if assoc {
		ops = []struct{ op, ne string }{{"a + b", "0"}, {"max(a, b)", "-1 << 63"}, {"a ^ b", "0"}, {"min(a, b)", "1<<63 - 1"}, {"a * b", "1"}}
	}
	// A spec either has lambdas that may panic or writes to its inputs,
	// not both: the engine moves a SOAC that may panic past a write to
	// memory it does not read, so on a panic the spec has not written
	// yet and the fused code has (reported to the engine's owner).
	writes := r.IntN(2) == 0
	if writes {
		unary = slices.DeleteFunc(unary, func(s string) bool { return strings.Contains(s, "/") })
	}
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	fill := func(s string) string {
		if strings.Contains(s, "%s") {
			return fmt.Sprintf(s, pick(scalars))
		}
		return strings.ReplaceAll(s, "%%", "%")
	}
	steps := 3 + r.IntN(5)
	for s := 0; s < steps; s++ {
		name := fmt.Sprintf("v%d", s)
		if r.IntN(6) == 0 {
			code, as, ss := randomShape(r, name, pick(arrays), pick, fill, ops)
			b.WriteString(code)
			arrays = append(arrays, as...)
			scalars = append(scalars, ss...)
			continue
		}
		if streams && r.IntN(4) == 0 {
			// Mostly the last array: often a map, which fuses into it.
			in := arrays[len(arrays)-1]
			if r.IntN(3) == 0 {
				in = pick(arrays)
			}
			code, array := randomStream(r, name, in, fill)
			b.WriteString(code)
			if array {
				arrays = append(arrays, name)
			} else {
				scalars = append(scalars, name)
			}
			continue
		}
		switch k := r.IntN(10); {
		case k < 3:
			fmt.Fprintf(&b, "\t%s := soac.Map(%s, func(x int) int { return %s })\n", name, pick(arrays), fill(pick(unary)))
			arrays = append(arrays, name)
		case k < 4:
			a, c := pick(arrays), pick(arrays)
			fmt.Fprintf(&b, "\t%s := soac.Map2(%s, %s, func(x, y int) int { return %s })\n", name, a, c, fill(pick(binary)))
			arrays = append(arrays, name)
		case k < 5:
			fmt.Fprintf(&b, "\t%s := soac.Filter(%s, func(x int) bool { return %s })\n", name, pick(arrays), fill(pick(preds)))
			arrays = append(arrays, name)
		case k < 7:
			o := ops[r.IntN(len(ops))]
			fmt.Fprintf(&b, "\t%s := soac.Reduce(%s, %s, func(a, b int) int { return %s })\n", name, pick(arrays), o.ne, o.op)
			scalars = append(scalars, name)
		case k < 8:
			o := ops[r.IntN(len(ops))]
			fmt.Fprintf(&b, "\t%s := soac.Scan(%s, %s, func(a, b int) int { return %s })\n", name, pick(arrays), o.ne, o.op)
			arrays = append(arrays, name)
		case k < 9:
			if r.IntN(2) == 0 {
				fmt.Fprintf(&b, "\t%s := soac.Map2(soac.Iota(len(%s)), %s, func(x, y int) int { return x*y + %s })\n", name, arrays[0], arrays[0], pick(scalars))
			} else {
				fmt.Fprintf(&b, "\t%s := soac.Map2(%s, soac.Replicate(len(%s), %s), func(x, y int) int { return x - y })\n", name, arrays[0], arrays[0], pick(scalars))
			}
			arrays = append(arrays, name)
		default:
			// A hazard: a write to an input, or a branch.
			if writes {
				a := pick(arrays[:2])
				fmt.Fprintf(&b, "\tif len(%s) > 1 {\n\t\t%s[1] = %s\n\t}\n", a, a, pick(scalars))
			} else {
				a := pick(arrays)
				fmt.Fprintf(&b, "\t%s := 0\n\tif flag {\n\t\t%s = soac.Reduce(%s, 0, func(a, b int) int { return a + b })\n\t} else {\n\t\t%s = len(%s)\n\t}\n", name, name, a, name, a)
				scalars = append(scalars, name)
			}
		}
	}
	// Every variable is used: the scalars and the lengths of the arrays
	// (but the last, which is returned) are summed.
	terms := append([]string(nil), scalars...)
	for _, a := range arrays[min(2, len(arrays)-1) : len(arrays)-1] {
		terms = append(terms, "len("+a+")")
	}
	fmt.Fprintf(&b, "\treturn %s, %s\n}\n", strings.Join(terms, " + "), arrays[len(arrays)-1])
	return b.String()
}

// randomShape writes step name: a reassignment shape over array a (the
// shapes of analyzer/internal/randpipe, whose TestRandomShapes runs
// them in every backend): a Map reassigning its own input in a counted
// loop whose Reduce the next round's lambda reads, a double buffer
// swapped in a range loop, a local function reassigning an array between
// two reductions of it, or scalars of one kernel captured by lambdas of
// SOACs that could fuse with another. It returns the arrays and scalars
// it defines.
func randomShape(r *rand.Rand, name, a string, pick func([]string) string, fill func(string) string, ops []struct{ op, ne string }) (string, []string, []string) {
	unary := func() string {
		return fill([]string{"x*3 + 1", "x - %s", "x ^ 5", "x + %s*2", "-x"}[r.IntN(5)])
	}
	op := func() struct{ op, ne string } { return ops[r.IntN(len(ops))] }
	v, w, s, t := name+"a", name+"b", name+"s", name+"t"
	var b strings.Builder
	switch r.IntN(4) {
	case 0:
		o, o2 := op(), op()
		fmt.Fprintf(&b, "\t%s := %s\n\t%s := %s\n", v, a, s, o.ne)
		fmt.Fprintf(&b, "\tfor it := 0; it < c&3; it++ {\n\t\t%s = soac.Map(%s, func(x int) int { return %s + %s - it })\n", v, v, unary(), s)
		fmt.Fprintf(&b, "\t\t%s = soac.Reduce(%s, %s, func(a, b int) int { return %s })\n\t}\n", s, v, o.ne, o.op)
		fmt.Fprintf(&b, "\t%s := soac.Reduce(%s, %s, func(a, b int) int { return %s })\n", t, a, o2.ne, o2.op)
		return b.String(), []string{v}, []string{s, t}
	case 1:
		fmt.Fprintf(&b, "\t%s, %s := %s, soac.Map(%s, func(x int) int { return %s })\n", v, w, a, a, unary())
		fmt.Fprintf(&b, "\tfor range 2 {\n\t\t%s, %s = %s, soac.Map(%s, func(x int) int { return %s })\n\t}\n", v, w, w, v, unary())
		return b.String(), []string{v, w}, nil
	case 2:
		o, o2 := op(), op()
		fmt.Fprintf(&b, "\t%s := soac.Map(%s, func(x int) int { return %s })\n", v, a, unary())
		fmt.Fprintf(&b, "\t%sf := func() { %s = soac.Map(%s, func(x int) int { return %s }) }\n", v, v, v, unary())
		fmt.Fprintf(&b, "\t%s := soac.Reduce(%s, %s, func(a, b int) int { return %s })\n\t%sf()\n", s, v, o.ne, o.op, v)
		fmt.Fprintf(&b, "\t%s := soac.Reduce(%s, %s, func(a, b int) int { return %s })\n", t, v, o2.ne, o2.op)
		return b.String(), []string{v}, []string{s, t}
	}
	o, o2, o3 := op(), op(), op()
	fmt.Fprintf(&b, "\t%s := soac.Map(%s, func(x int) int { return %s })\n", v, a, unary())
	fmt.Fprintf(&b, "\t%s := soac.Reduce(%s, %s, func(a, b int) int { return %s })\n", s, v, o.ne, o.op)
	fmt.Fprintf(&b, "\t%s := soac.Reduce(%s, %s, func(a, b int) int { return %s })\n", t, a, o2.ne, o2.op)
	fmt.Fprintf(&b, "\t%s := soac.Map(%s, func(x int) int { return x - %s })\n", w, v, t)
	fmt.Fprintf(&b, "\t%su := soac.Reduce(soac.Map(%s, func(x int) int { return x + %s }), %s, func(a, b int) int { return %s })\n", name, v, s, o3.ne, o3.op)
	return b.String(), []string{v, w}, []string{s, t, name + "u"}
}

// randomStream writes step name: a StreamRed of xs to a scalar (a sum or
// a maximum of a function of the elements, folded per chunk) or a
// StreamMap of xs (a function of each element); either way its result
// does not depend on the chunks, as docs/contract.md's caller promises. It
// reports whether the result is an array. fill fills a function's
// scalar placeholder.
func randomStream(r *rand.Rand, name, xs string, fill func(string) string) (string, bool) {
	elem := fill([]string{"v*v - %s", "v ^ 3", "v %% 9", "2*v + %s"}[r.IntN(4)])
	switch r.IntN(3) {
	case 0:
		return fmt.Sprintf("\t%s := soac.StreamRed(%s, func(a, b int) int { return a + b }, func(ch []int) int {\n\t\ts := 0\n\t\tfor _, v := range ch {\n\t\t\ts += %s\n\t\t}\n\t\treturn s\n\t})\n", name, xs, elem), false
	case 1:
		return fmt.Sprintf("\t%s := soac.StreamRed(%s, func(a, b int) int { return max(a, b) }, func(ch []int) int {\n\t\tm := -1 << 63\n\t\tfor i := range ch {\n\t\t\tv := ch[i]\n\t\t\tm = max(m, %s)\n\t\t}\n\t\treturn m\n\t})\n", name, xs, elem), false
	}
	return fmt.Sprintf("\t%s := soac.StreamMap(%s, func(ch []int) []int {\n\t\tout := make([]int, len(ch))\n\t\tfor i, v := range ch {\n\t\t\tout[i] = %s\n\t\t}\n\t\treturn out\n\t})\n", name, xs, elem), true
}

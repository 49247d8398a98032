package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/fusiongraph"
)

// listDir returns the names of the files in dir, sorted.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}

// TestGraph runs soacgen -graph=DIR on testdata/mod's package and on a
// second package of the same last element: one DOT file per spec (named
// by the full package path where the last element is ambiguous), kernels
// as clusters with the report's backends, and index.html with every spec
// beside its report entry; a second run writes the same bytes.
func TestGraph(t *testing.T) {
	n := readFile(t, filepath.Join("testdata", "mod", "p", "n.go"))
	mod := writeModule(t, map[string]string{"p/n.go": n, "q/p/n.go": n})
	code, _, stderr := soacgen(mod, "-graph=graphs", "./...")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	dir := filepath.Join(mod, "graphs")
	want := []string{
		"example.com_p.normalize2Spec.dot", "example.com_p.scaleSpec.dot",
		"example.com_q_p.normalize2Spec.dot", "example.com_q_p.scaleSpec.dot",
		"index.html",
	}
	if got := listDir(t, dir); !slices.Equal(got, want) {
		t.Fatalf("-graph wrote %v, want %v", got, want)
	}
	normalize2 := readFile(t, filepath.Join(dir, "example.com_p.normalize2Spec.dot"))
	for _, w := range []string{
		`digraph "normalize2Spec" {`,
		`label="normalize2Spec → Normalize2\np/n.go:12:1", tooltip="example.com/p.normalize2Spec"`,
		`subgraph cluster_k1 {`, `label="kernel 1: filter-redomap\ndepth 0, cpu"`,
		`subgraph cluster_k2 {`, `label="kernel 2: map\ndepth 0, cpu, vector 512/256 bits"`,
		`s2 -> s3 [label="gts", penwidth=2`,
		`s1 -> s4 [label="sum1", style=dotted`,
	} {
		if !strings.Contains(normalize2, w) {
			t.Errorf("normalize2Spec.dot has no %s:\n%s", w, normalize2)
		}
	}
	if strings.Count(normalize2, "subgraph cluster_") != 2 {
		t.Errorf("normalize2Spec.dot has not 2 clusters:\n%s", normalize2)
	}
	if scale := readFile(t, filepath.Join(dir, "example.com_p.scaleSpec.dot")); !strings.Contains(scale, `depth 0, opencl"`) {
		t.Errorf("scaleSpec.dot does not show the directive's backend opencl:\n%s", scale)
	}
	html := readFile(t, filepath.Join(dir, "index.html"))
	for _, w := range []string{"<h2>normalize2Spec → Normalize2</h2>", "<h2>scaleSpec → Scale</h2>", "&#34;name&#34;: &#34;Normalize2&#34;"} {
		if !strings.Contains(html, w) {
			t.Errorf("index.html has no %s", w)
		}
	}
	if fusiongraph.HaveGraphviz() {
		if c := strings.Count(html, "<svg"); c != 4 {
			t.Errorf("index.html has %d SVGs, want 4", c)
		}
	} else if !strings.Contains(stderr, "index.html shows the graphs as DOT text") {
		t.Errorf("no warning that dot is missing; stderr:\n%s", stderr)
	}

	// Deterministic: a second run writes the same bytes.
	first := map[string]string{}
	for _, f := range want {
		first[f] = readFile(t, filepath.Join(dir, f))
	}
	if code, _, stderr := soacgen(mod, "-graph="+dir, "./..."); code != 0 {
		t.Fatalf("second run: exit %d, stderr:\n%s", code, stderr)
	}
	for _, f := range want {
		if got := readFile(t, filepath.Join(dir, f)); !bytes.Equal([]byte(got), []byte(first[f])) {
			t.Errorf("%s differs between two runs", f)
		}
	}
}

// TestGraphFailure checks that an unwritable -graph directory is an error
// naming the flag.
func TestGraphFailure(t *testing.T) {
	mod := writeModule(t, map[string]string{"p/n.go": readFile(t, filepath.Join("testdata", "mod", "p", "n.go"))})
	if err := os.WriteFile(filepath.Join(mod, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := soacgen(mod, "-graph=file/graphs", "./...")
	if code != exitError || !strings.Contains(stderr, "soacgen: -graph: ") {
		t.Errorf("exit %d, stderr %q; want exit %d and a -graph error", code, stderr, exitError)
	}
}

// TestGraphShowsGeneratedBackend checks that a kernel's cluster names the
// backend whose code runs it, as the JSON report does, not the one the
// directive asked for: a map over strings asks for opencl, which cannot
// translate strings, and falls back.
func TestGraphShowsGeneratedBackend(t *testing.T) {
	mod := writeModule(t, map[string]string{"p/u.go": `package p

import (
	"strings"

	"github.com/soacgen/soacgen/runtime/soac"
)

//go:generate go run github.com/soacgen/soacgen/cmd/soacgen

//soac:fuse Upper backend=opencl
func upperSpec(xs []string) []string {
	return soac.Map(soac.Map(xs, strings.ToUpper), strings.TrimSpace)
}
`})
	code, stdout, stderr := soacgen(mod, "-graph=graphs", "-json", "./...")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var rep struct {
		Packages []struct {
			Functions []struct {
				Kernels []struct{ Backend string }
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("-json output: %v\n%s", err, stdout)
	}
	if len(rep.Packages) != 1 || len(rep.Packages[0].Functions) != 1 || len(rep.Packages[0].Functions[0].Kernels) != 1 {
		t.Fatalf("want one package, function and kernel; report:\n%s", stdout)
	}
	generated := rep.Packages[0].Functions[0].Kernels[0].Backend
	if generated == "opencl" || generated == "" {
		t.Fatalf("report backend %q; want the fallback of opencl for strings:\n%s", generated, stdout)
	}
	dot := readFile(t, filepath.Join(mod, "graphs", "p.upperSpec.dot"))
	if !strings.Contains(dot, `depth 0, `+generated+`"`) || strings.Contains(dot, "opencl") {
		t.Errorf("upperSpec.dot does not show the generated backend %s:\n%s", generated, dot)
	}
}

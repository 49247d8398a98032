package main

// This file writes soacgen -graph=DIR: each spec's fusion graph as DOT,
// and one HTML page with the graphs (as SVG when Graphviz's dot is on the
// PATH) beside the fusion report. It does not build graphs
// (analyzer/fusiongraph does) nor decide fusion.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/soacgen/soacgen/analyzer/fusion"
	"github.com/soacgen/soacgen/analyzer/fusiongraph"
	"github.com/soacgen/soacgen/analyzer/report"
)

// specGraphs builds the fusion graph of every generated function among
// plans (one per directive), in source order, then directive order, positions and backends rendered as the report renders them.
func specGraphs(fset *token.FileSet, pkgPath string, plans []*fusion.Plan, opts report.Options) []*fusiongraph.Graph {
	var gs []*fusiongraph.Graph
	for _, pl := range plans {
		if g := fusiongraph.New(fset, pkgPath, pl, fusiongraph.Options{Root: opts.Root, Backend: opts.Backend, Generated: opts.Generated}); g != nil {
			gs = append(gs, g)
		}
	}
	return gs
}

// graphFile returns the DOT file name of g: PKG.SPEC.dot with PKG the last
// element of the package path, or the whole path with / replaced by _
// when another package of the run has the same last element; when the
// spec has several directives (several graphs, directives counts them),
// PKG.SPEC.NAME.dot, one file per generated function.
func graphFile(g *fusiongraph.Graph, lastCount map[string]int, directives map[[2]string]int) string {
	pkg := path.Base(g.Package)
	if lastCount[pkg] > 1 {
		pkg = strings.ReplaceAll(g.Package, "/", "_")
	}
	if directives[[2]string{g.Package, g.Spec}] > 1 {
		return pkg + "." + g.Spec + "." + g.Name + ".dot"
	}
	return pkg + "." + g.Spec + ".dot"
}

// writeGraphs writes every graph of res to dir (created if needed) as
// PKG.SPEC.dot (PKG.SPEC.NAME.dot for a spec of several directives), and dir/index.html showing them all beside the specs'
// entries of the fusion report. Without Graphviz the page shows the DOT
// text, and a warning on stderr says so.
func writeGraphs(dir string, res *result, stderr io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	lastCount := map[string]int{}
	for _, p := range res.rep.Packages {
		lastCount[path.Base(p.Path)]++
	}
	funcs := map[[2]string]*report.Function{} // by package and NAME
	for _, p := range res.rep.Packages {
		for _, f := range p.Functions {
			funcs[[2]string{p.Path, f.Name}] = f
		}
	}
	directives := map[[2]string]int{} // graphs per package and spec
	for _, g := range res.graphs {
		directives[[2]string{g.Package, g.Spec}]++
	}
	dot := fusiongraph.HaveGraphviz()
	if !dot && len(res.graphs) > 0 {
		fmt.Fprintf(stderr, "soacgen: -graph: %v; %s shows the graphs as DOT text\n", fusiongraph.ErrNoGraphviz, filepath.Join(dir, "index.html"))
	}
	page := fusiongraph.Page{Title: "soacgen fusion graphs"}
	for _, g := range res.graphs {
		var src bytes.Buffer
		if err := fusiongraph.WriteDOT(&src, g); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, graphFile(g, lastCount, directives)), src.Bytes(), 0o644); err != nil {
			return err
		}
		sec := fusiongraph.Section{Graph: g, DOT: src.Bytes()}
		if f := funcs[[2]string{g.Package, g.Name}]; f != nil {
			b, err := json.MarshalIndent(f, "", "  ")
			if err != nil {
				return err
			}
			sec.Report = b
		}
		if dot {
			svg, err := fusiongraph.SVG(src.Bytes())
			if err != nil {
				return fmt.Errorf("%s.%s (%s): %v", g.Package, g.Spec, g.Name, err)
			}
			sec.SVG = svg
		} else {
			sec.Missing = fusiongraph.ErrNoGraphviz.Error()
		}
		page.Sections = append(page.Sections, sec)
	}
	var html bytes.Buffer
	if err := fusiongraph.WriteHTML(&html, page); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "index.html"), html.Bytes(), 0o644)
}

package fusiongraph

// This file writes the HTML page that shows several specs' graphs, as SVG,
// each beside its part of the fusion report. It does not render SVG
// (render.go) nor build the report (package report).

import (
	"bytes"
	"html/template"
	"io"
)

// Page is the content of the HTML page.
type Page struct {
	Title    string
	Sections []Section
}

// Section is one spec on the page.
type Section struct {
	Graph *Graph
	// SVG is the graph rendered by dot; when it is nil the page shows DOT
	// as text, with Missing saying why.
	SVG     []byte
	DOT     []byte
	Missing string
	// Report is the spec's entry of the fusion report (a report.Function),
	// as indented JSON.
	Report []byte
}

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: Helvetica, Arial, sans-serif; margin: 1.5em; color: #222; }
section { border-top: 1px solid #ccc; padding-top: 1em; margin-top: 1.5em; }
.row { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1.5em; align-items: start; }
.graph svg { max-width: 100%; height: auto; }
pre { background: #f6f8fa; padding: 0.8em; overflow: auto; font-size: 12px; max-height: 48em; }
.legend span { margin-right: 1.5em; }
.missing { color: #c62828; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="legend"><span>■ box: a kernel (one pass)</span><span>→ thick: fused array, never materialised</span><span>→ thin: array materialised between kernels</span><span>⋯ dotted: scalar read (the producer finishes first)</span><span style="color:#c62828">⊣ red dashed: fusion refused, with its rule</span></p>
{{range .Sections}}<section id="{{.Graph.Package}}.{{.Graph.Name}}">
<h2>{{.Graph.Spec}} → {{.Graph.Name}}</h2>
<p>{{.Graph.Package}} · {{.Graph.Pos}}</p>
<div class="row">
<div class="graph">{{if .SVG}}{{.SVGHTML}}{{else}}<p class="missing">{{.Missing}}</p><pre>{{printf "%s" .DOT}}</pre>{{end}}</div>
<pre class="report">{{printf "%s" .Report}}</pre>
</div>
</section>
{{end}}</body>
</html>
`))

// SVGHTML is s.SVG without its XML prolog and doctype, for inline use.
// dot's output is trusted: it escapes the labels it was given.
func (s Section) SVGHTML() template.HTML {
	svg := s.SVG
	if i := bytes.Index(svg, []byte("<svg")); i >= 0 {
		svg = svg[i:]
	}
	return template.HTML(svg)
}

// WriteHTML writes the page: a legend, then for every section the graph
// (as inline SVG, or its DOT text) beside the spec's fusion report.
func WriteHTML(w io.Writer, p Page) error {
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, p); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

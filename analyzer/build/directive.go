package build

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"github.com/soacgen/soacgen/analyzer/ir"
)

// directivePrefix starts every soacgen directive comment.
const directivePrefix = "//soac:"

// fuseDirective is the one directive soacgen defines.
const fuseDirective = "fuse"

// clusters are the values the cluster= key of //soac:fuse accepts: the
// fusion engine's clustering methods (fusion.Methods).
var clusters = map[string]bool{"greedy": true, "ilp": true, "wsp": true}

// parseDirectives finds every //soac: comment of the files, parses the
// well-placed //soac:fuse directives (doc comments of top-level functions)
// and records every malformed or misplaced one in prog.Problems. A spec
// may carry several directives, each generating its own function: the
// result maps each function to its valid directives, in the order of its
// doc comment. A NAME is the package's once: a second directive naming
// it, on the same spec or another, is a problem, and so is a NAME that
// the package declares otherwise (declared reports whether it does).
func parseDirectives(fset *token.FileSet, files []*ast.File, prog *ir.Program, declared func(name string, at token.Pos) token.Pos) map[*ast.FuncDecl][]*ir.Directive {
	problem := func(pos token.Pos, format string, args ...any) {
		prog.Problems = append(prog.Problems, ir.Problem{Pos: pos, Msg: fmt.Sprintf(format, args...)})
	}
	dirs := make(map[*ast.FuncDecl][]*ir.Directive)
	first := make(map[string]*ir.Directive) // directive NAME -> first valid use
	specOf := make(map[*ir.Directive]*ast.FuncDecl)
	for _, f := range files {
		// owner maps each comment of a function's doc comment to the function.
		owner := make(map[*ast.Comment]*ast.FuncDecl)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
				for _, c := range fd.Doc.List {
					owner[c] = fd
				}
			}
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if owner[c] != nil && nearMiss(c.Text) {
					problem(c.Pos(), "%s is not a directive (Go directives are //soac:fuse NAME, with no space after // and not in /* */), so %s would not be generated: write //soac:fuse", strings.SplitN(c.Text, "\n", 2)[0], owner[c].Name.Name)
					continue
				}
				if !strings.HasPrefix(c.Text, directivePrefix) {
					continue
				}
				rest := c.Text[len(directivePrefix):]
				verb, args, _ := strings.Cut(rest, " ")
				if verb != fuseDirective {
					problem(c.Pos(), "unknown directive %s%s (soacgen knows only //soac:fuse NAME [backend=cpu|parallel|opencl|auto] [cluster=greedy|ilp|wsp])", directivePrefix, verb)
					continue
				}
				fd := owner[c]
				switch {
				case fd == nil:
					problem(c.Pos(), "//soac:fuse must be in the doc comment of a top-level function")
					continue
				case fd.Recv != nil:
					problem(c.Pos(), "//soac:fuse on method %s: a spec must be a top-level function, not a method", fd.Name.Name)
					continue
				case fd.Body == nil:
					problem(c.Pos(), "//soac:fuse on %s, which has no body", fd.Name.Name)
					continue
				}
				d, msg := parseFuse(args)
				if msg != "" {
					problem(c.Pos(), "malformed //soac:fuse on %s: %s", fd.Name.Name, msg)
					continue
				}
				d.Pos = c.Pos()
				if d.Name == fd.Name.Name {
					problem(c.Pos(), "//soac:fuse on %s names the spec itself; the generated function needs a name of its own", fd.Name.Name)
					continue
				}
				if prev, dup := first[d.Name]; dup {
					if specOf[prev] == fd {
						problem(c.Pos(), "duplicate //soac:fuse name %s: %s already has a directive %s (at %s); each directive of a spec generates a function of its own name", d.Name, fd.Name.Name, d.Name, shortPos(fset, prev.Pos))
					} else {
						problem(c.Pos(), "duplicate //soac:fuse name %s (already used at %s, on %s)", d.Name, shortPos(fset, prev.Pos), specOf[prev].Name.Name)
					}
					continue
				}
				if at := declared(d.Name, nameStart(c, d.Name)); at.IsValid() {
					problem(c.Pos(), "//soac:fuse on %s names %s, which the package already declares (at %s); the generated function needs a name of its own", fd.Name.Name, d.Name, shortPos(fset, at))
					continue
				}
				first[d.Name] = d
				specOf[d] = fd
				dirs[fd] = append(dirs[fd], d)
			}
		}
	}
	return dirs
}

// nameStart returns the position of name, the NAME of the //soac:fuse
// comment c (where soacgen's stubs declare it: rewrite's Overlay).
func nameStart(c *ast.Comment, name string) token.Pos {
	rest := c.Text[len(directivePrefix)+len(fuseDirective):]
	return c.Pos() + token.Pos(len(c.Text)-len(rest)+strings.Index(rest, name))
}

// parseFuse parses the arguments of //soac:fuse: NAME, then key=value pairs.
// It returns a sentence saying what is wrong when they are malformed.
func parseFuse(args string) (*ir.Directive, string) {
	fields := strings.Fields(args)
	if len(fields) == 0 {
		return nil, "missing the name of the function to generate (want //soac:fuse NAME [backend=...])"
	}
	name := fields[0]
	if strings.Contains(name, "=") {
		return nil, fmt.Sprintf("missing the name of the function to generate before %q", name)
	}
	if !token.IsIdentifier(name) {
		return nil, fmt.Sprintf("%q is not a Go identifier", name)
	}
	if name == "_" {
		return nil, "the blank identifier _ cannot name the function to generate (nothing could call it)"
	}
	d := &ir.Directive{Name: name}
	seen := make(map[string]bool)
	for _, kv := range fields[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Sprintf("unexpected %q after the name (want key=value)", kv)
		}
		if seen[k] {
			return nil, fmt.Sprintf("key %s given twice", k)
		}
		seen[k] = true
		switch k {
		case "backend":
			if !slices.Contains(ir.Backends, v) {
				return nil, fmt.Sprintf("unknown backend %q (want cpu, parallel, opencl or auto)", v)
			}
			d.Backend = v
		case "cluster":
			if !clusters[v] {
				return nil, fmt.Sprintf("unknown cluster method %q (want greedy, ilp or wsp)", v)
			}
			d.Cluster = v
		default:
			return nil, fmt.Sprintf("unknown key %q (the keys are backend and cluster)", k)
		}
	}
	return d, ""
}

// shortPos formats pos as file:line:column with the file's base name, so
// that messages do not depend on where the package lives.
func shortPos(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", baseName(p.Filename), p.Line, p.Column)
}

// nearMiss reports whether a comment looks like a //soac:fuse directive
// that Go's directive syntax does not recognise: "// soac:fuse NAME"
// (a space after //), "/*soac:fuse NAME*/" or "//soac: fuse NAME".
func nearMiss(text string) bool {
	var body string
	switch {
	case strings.HasPrefix(text, "/*"):
		body = strings.TrimSpace(strings.TrimSuffix(text[2:], "*/"))
	case strings.HasPrefix(text, "//"):
		body = text[2:]
		if !strings.HasPrefix(body, " ") && !strings.HasPrefix(body, "\t") {
			return strings.HasPrefix(body, "soac: fuse") // //soac:fuse itself is not a near miss
		}
		body = strings.TrimSpace(body)
	default:
		return false
	}
	return strings.HasPrefix(body, "soac:fuse") || strings.HasPrefix(body, "soac: fuse")
}

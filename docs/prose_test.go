// Package docs holds the project's reference documents (contract.md,
// references.md, architecture.md) and the tests that keep the repository
// as they describe it: its prose speaks of the project itself
// (prose_test.go), its packages import what architecture.md lists
// (architecture_test.go), and its files and functions stay within
// architecture.md's size limits (size_test.go).
package docs

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// banned are the phrases the repository's files must not contain: code,
// comments and documents speak of the project alone. They date work by
// what it measured or changed, not by numbered sessions or rounds; they
// give the reason instead of an issue number, a branch or a person; they
// cite papers by authors, title and year (docs/references.md), and no
// path outside the repository.
var banned = []struct {
	re, why string
}{
	// The word alone is launch.Session, the OpenCL runtime's type; after
	// an ordinal, a demonstrative or before a number it dates work.
	{`(?i)\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|this|last|next|previous|earlier|that|other) sessions?\b|\bsessions? [0-9]`, "a session of work: give the reason, or the measurement's machine and date"},
	{`(?i)\brounds? of work\b|\b(second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth) round\b`, "a round of work: give the reason or the date"},
	{`(?i)\bissues? #?[0-9]+|\bthe issue\b|\bissue's\b`, "an issue: state the requirement itself"},
	{`(?i)\(lead\)|\bthe lead\b`, "a person: state the reason"},
	{`(?i)\bpar-(inlcost|2core|small|nested|accum|seqpath|carried|stream|then2?)\b|\bcl-(overlap|iter|pinned|streammap|auto|resident[0-9]*)\b|\bclc-gaps[0-9]*\b|\bauto-host\b|\bhygiene[0-9]+\b|\bbranch j[0-9]+\b|\bthis branch\b|\bhelper (branch|session)\b`, "a branch of work: state what changed"},
	{`(?i)device tool|device machine|\bother (engineers|developers)\b`, "the measuring machinery: state the machine and its conditions"},
	{`(?i)\bpapers? 00[0-9]\b`, "a paper by file number: cite it by its docs/references.md key"},
	{`/work/|\bCONTRACT\.md\b|\bANCHORS\.md\b|\bshared/papers\b`, "a path outside the repository"},
}

// allowed are lines that match a banned phrase but mean something else:
// a file (relative to the repository root, with forward slashes) and a
// substring of the line.
var allowed = []struct{ file, line string }{
	// Futhark's own issue tracker: the test case's name upstream.
	{"analyzer/fusion/testdata/src/futhark/futhark.go", "issue #2474"},
	// This file states the patterns.
	{"docs/prose_test.go", ""},
	// A test that generated code holds no path of the machine it ran on.
	{"rewrite/rewrite_test.go", `"/work/"`},
	// The generator run a second time on its own output.
	{"rewrite/files_test.go", "second round"},
}

// trackedFiles returns the repository's files as git lists them.
func trackedFiles(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout)", err)
	}
	var files []string
	for _, f := range bytes.Split(out, []byte{0}) {
		if len(f) > 0 {
			files = append(files, string(f))
		}
	}
	return files
}

// isAllowed reports whether line of file is an allowed match.
func isAllowed(file, line string) bool {
	for _, a := range allowed {
		if a.file == file && strings.Contains(line, a.line) {
			return true
		}
	}
	return false
}

// findBanned returns "file:line: text (why)" for each line of the
// file's content that holds a banned phrase and is not allowed.
func findBanned(file string, content []byte) []string {
	if bytes.IndexByte(content, 0) >= 0 {
		return nil // binary
	}
	var res []string
	res2 := make([]*regexp.Regexp, len(banned))
	for i, b := range banned {
		res2[i] = regexp.MustCompile(b.re)
	}
	sc := bufio.NewScanner(bytes.NewReader(content))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		for i, re := range res2 {
			if m := re.FindString(line); m != "" && !isAllowed(file, line) {
				res = append(res, fmt.Sprintf("%s:%d: %q (%s)", file, n, m, banned[i].why))
			}
		}
	}
	return res
}

// TestProseSpeaksOfTheProject fails on any tracked file that names a
// session, a round of work, an issue number, a branch, a person, the
// measuring machinery, a paper by file number or a path outside the
// repository.
func TestProseSpeaksOfTheProject(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range trackedFiles(t, root) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			continue // deleted in the work tree
		}
		for _, hit := range findBanned(f, b) {
			t.Error(hit)
		}
	}
}

// TestProseCheckFinds checks that each banned pattern finds what it is
// for, and that an allowed line passes.
func TestProseCheckFinds(t *testing.T) {
	for _, line := range []string{
		"// measured in the ninth session on the 16-core host",
		"// (issue 11's goal)",
		"// the third round of measurements",
		"// before the clc-gaps2 session",
		"// left to the lead",
		"// par-inlcost moved the grain",
		"// run it with the device tool",
		"// paper 000 Fig. 9",
		"// see /work/shared/notes.txt",
	} {
		if len(findBanned("x.go", []byte(line))) == 0 {
			t.Errorf("%q passes the check", line)
		}
	}
	for _, line := range []string{
		"var cls launch.Session",
		"// rounds to nearest even",
		"// RunOn is Run within session s",
		"// the first round's upload",
		"// a helper function",
		"// -cl-fp32-correctly-rounded-divide-sqrt",
		"// [T2-fusion] Fig. 9 case 5",
	} {
		if hits := findBanned("x.go", []byte(line)); len(hits) > 0 {
			t.Errorf("%q fails the check: %v", line, hits)
		}
	}
	if hits := findBanned("analyzer/fusion/testdata/src/futhark/futhark.go", []byte("// noFusion5 (noFusion5.fut, issue #2474)")); len(hits) > 0 {
		t.Errorf("the allowed line fails: %v", hits)
	}
}

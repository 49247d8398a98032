package shapes

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/soacgen/soacgen/analyzer/internal/randpipe"
)

// TestShards: each part of every backend's run (Entry) is in exactly one
// shard, every shard names a backend that has a run, a known part and a
// regression file the runs hold, and every shard has a package here
// whose test runs it, so that go test ./... runs every backend's random
// programs and regression files.
func TestShards(t *testing.T) {
	var backends, files []string
	for _, r := range randpipe.ShapeRuns {
		backends = append(backends, r.Backend)
	}
	for _, p := range regressFor(t) {
		files = append(files, p.Name)
	}
	for f := range randpipe.PendingFiles(t) {
		files = append(files, strings.TrimSuffix(f, ".go"))
	}
	for _, p := range shardProblems(backends, files, Shards, shardRun) {
		t.Error(p)
	}
}

// TestShardProblems: shardProblems reports a part of a run in no shard
// or in two, a part of no known kind, a shard naming a backend without a
// run or a regression file the runs do not hold, and a shard without a
// package that runs it, and nothing when all is well.
func TestShardProblems(t *testing.T) {
	all := func(string) bool { return true }
	files := []string{"f", "g"}
	for _, tc := range []struct {
		name     string
		backends []string
		shards   map[string]string
		hasRun   func(string) bool
		want     []string
	}{
		{"well", []string{"a", "b"}, map[string]string{"x": "a", "y": "b"}, all, nil},
		{"split", []string{"a"}, map[string]string{"x": "a:random", "y": "a:regress"}, all, nil},
		{"file alone", []string{"a"}, map[string]string{"x": "a", "y": "a:regress:f"}, all, nil},
		{"left out", []string{"a", "b"}, map[string]string{"x": "a"}, all,
			[]string{"the random programs of backend b are in no shard", "the regression files of backend b are in no shard"}},
		{"half left out", []string{"a"}, map[string]string{"x": "a:random"}, all, []string{"the regression files of backend a are in no shard"}},
		{"file only", []string{"a"}, map[string]string{"x": "a:random", "y": "a:regress:f"}, all, []string{"the regression files of backend a are in no shard"}},
		{"twice", []string{"a"}, map[string]string{"x": "a", "y": "a:regress"}, all, []string{"the regression files of backend a are in shards x and y"}},
		{"file twice", []string{"a"}, map[string]string{"x": "a", "y": "a:regress:g", "z": "a:regress:g"}, all, []string{"regression file g.go of backend a is in shards y and z"}},
		{"unknown part", []string{"a"}, map[string]string{"x": "a", "y": "a:fma"}, all, []string{"shard y names part fma of a, neither random, regress nor regress:NAME"}},
		{"stale backend", []string{"a"}, map[string]string{"x": "a", "y": "gone"}, all, []string{"shard y names backend gone, which has no run in randpipe.ShapeRuns"}},
		{"stale file", []string{"a"}, map[string]string{"x": "a", "y": "a:regress:gone"}, all, []string{"shard y names regression file gone.go, which the runs do not hold"}},
		{"no package", []string{"a", "b"}, map[string]string{"x": "a", "y": "b"}, func(s string) bool { return s != "y" },
			[]string{`shard y has no package analyzer/internal/randpipe/shapes/y whose shapes_test.go calls shapes.Run(t, "y")`}},
	} {
		if got := shardProblems(tc.backends, files, tc.shards, tc.hasRun); !slices.Equal(got, tc.want) {
			t.Errorf("%s: problems %q, want %q", tc.name, got, tc.want)
		}
	}
}

// shardProblems lists what keeps shards from running each part of the
// runs of backends once: files are the regression files the runs hold
// (or that are pending), and hasRun reports whether a shard's package
// runs it.
func shardProblems(backends, files []string, shards map[string]string, hasRun func(shard string) bool) []string {
	var problems []string
	names := make([]string, 0, len(shards))
	for s := range shards {
		names = append(names, s)
	}
	slices.Sort(names)
	in := map[string][]string{} // by backend and part: the shards
	for _, s := range names {
		b, parts := Entry(shards[s])
		for _, p := range parts {
			f, one := regressFile(p)
			switch {
			case one && !slices.Contains(files, f):
				problems = append(problems, fmt.Sprintf("shard %s names regression file %s.go, which the runs do not hold", s, f))
			case !one && p != PartRandom && p != PartRegress:
				problems = append(problems, fmt.Sprintf("shard %s names part %s of %s, neither %s, %s nor %s:NAME", s, p, b, PartRandom, PartRegress, PartRegress))
			}
			in[b+":"+p] = append(in[b+":"+p], s)
		}
		if !slices.Contains(backends, b) {
			problems = append(problems, fmt.Sprintf("shard %s names backend %s, which has no run in randpipe.ShapeRuns", s, b))
		}
		if !hasRun(s) {
			problems = append(problems, fmt.Sprintf("shard %s has no package analyzer/internal/randpipe/shapes/%s whose shapes_test.go calls shapes.Run(t, %q)", s, s, s))
		}
	}
	for _, b := range backends {
		for _, p := range []string{PartRandom, PartRegress} {
			what := map[string]string{PartRandom: "the random programs", PartRegress: "the regression files"}[p]
			switch ss := in[b+":"+p]; len(ss) {
			case 0:
				problems = append(problems, fmt.Sprintf("%s of backend %s are in no shard", what, b))
			case 1:
			default:
				problems = append(problems, fmt.Sprintf("%s of backend %s are in shards %s", what, b, strings.Join(ss, " and ")))
			}
		}
		for _, f := range namedFiles(shards, b) {
			if ss := in[b+":"+PartRegress+":"+f]; len(ss) > 1 {
				problems = append(problems, fmt.Sprintf("regression file %s.go of backend %s is in shards %s", f, b, strings.Join(ss, " and ")))
			}
		}
	}
	return problems
}

// shardRun reports whether the directory of shard beside this package
// has a shapes_test.go that runs the shard.
func shardRun(shard string) bool {
	b, err := os.ReadFile(filepath.Join(shard, "shapes_test.go"))
	return err == nil && strings.Contains(string(b), fmt.Sprintf("shapes.Run(t, %q)", shard))
}

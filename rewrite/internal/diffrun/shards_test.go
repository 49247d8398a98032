package diffrun

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestShards: each run of every testdata case (Entry) is in exactly one
// shard, every shard names cases that exist, and every shard has a
// package here whose test runs it, so that go test ./... runs the
// differential test of every case.
func TestShards(t *testing.T) {
	for _, p := range shardProblems(Cases(t), Shards, shardRun) {
		t.Error(p)
	}
}

// TestShardProblems: shardProblems reports a run of a case in no shard
// or in two, a run of no known kind, a shard naming no case of testdata
// and a shard without a package that runs it, and nothing when all is
// well.
func TestShardProblems(t *testing.T) {
	all := func(string) bool { return true }
	for _, tc := range []struct {
		name   string
		cases  []string
		shards map[string][]string
		hasRun func(string) bool
		want   []string
	}{
		{"well", []string{"a", "b", "c"}, map[string][]string{"x": {"a", "c"}, "y": {"b"}}, all, nil},
		{"split", []string{"a", "b"}, map[string][]string{"x": {"a", "b:fma"}, "y": {"b:base"}}, all, nil},
		{"left out", []string{"a", "b", "c"}, map[string][]string{"x": {"a"}, "y": {"b"}}, all,
			[]string{"run base of testdata case c is in no shard", "run fma of testdata case c is in no shard"}},
		{"half left out", []string{"a", "b"}, map[string][]string{"x": {"a"}, "y": {"b:base"}}, all, []string{"run fma of testdata case b is in no shard"}},
		{"twice", []string{"a", "b"}, map[string][]string{"x": {"a", "b"}, "y": {"b:fma"}}, all, []string{"run fma of testdata case b is in shards x and y"}},
		{"unknown run", []string{"a"}, map[string][]string{"x": {"a", "a:v4"}}, all, []string{"shard x names run v4 of a, none of base, fma, simd"}},
		{"stale", []string{"a"}, map[string][]string{"x": {"a", "gone"}}, all, []string{"shard x names gone, no testdata case"}},
		{"no package", []string{"a", "b"}, map[string][]string{"x": {"a"}, "y": {"b"}}, func(s string) bool { return s != "y" },
			[]string{`shard y has no package rewrite/internal/diffrun/y whose diff_test.go calls runner.Run(t, "y")`}},
	} {
		if got := shardProblems(tc.cases, tc.shards, tc.hasRun); !slices.Equal(got, tc.want) {
			t.Errorf("%s: problems %q, want %q", tc.name, got, tc.want)
		}
	}
}

// shardProblems lists what keeps shards from running each of cases once:
// hasRun reports whether a shard's package runs it.
func shardProblems(cases []string, shards map[string][]string, hasRun func(shard string) bool) []string {
	var problems []string
	names := make([]string, 0, len(shards))
	for s := range shards {
		names = append(names, s)
	}
	slices.Sort(names)
	in := map[string][]string{} // by case and run: the shards
	for _, s := range names {
		for _, e := range shards[s] {
			c, runs := Entry(e)
			for _, r := range runs {
				if r != RunBase && r != RunFMA && r != RunSIMD {
					problems = append(problems, fmt.Sprintf("shard %s names run %s of %s, none of %s, %s, %s", s, r, c, RunBase, RunFMA, RunSIMD))
				}
				in[c+":"+r] = append(in[c+":"+r], s)
			}
			if !slices.Contains(cases, c) {
				problems = append(problems, fmt.Sprintf("shard %s names %s, no testdata case", s, c))
			}
		}
		if !hasRun(s) {
			problems = append(problems, fmt.Sprintf("shard %s has no package rewrite/internal/diffrun/%s whose diff_test.go calls runner.Run(t, %q)", s, s, s))
		}
	}
	for _, c := range cases {
		for _, r := range []string{RunBase, RunFMA} {
			switch ss := in[c+":"+r]; len(ss) {
			case 0:
				problems = append(problems, fmt.Sprintf("run %s of testdata case %s is in no shard", r, c))
			case 1:
			default:
				problems = append(problems, fmt.Sprintf("run %s of testdata case %s is in shards %s", r, c, strings.Join(ss, " and ")))
			}
		}
		if ss := in[c+":"+RunSIMD]; len(ss) > 1 {
			problems = append(problems, fmt.Sprintf("run %s of testdata case %s is in shards %s", RunSIMD, c, strings.Join(ss, " and ")))
		}
	}
	return problems
}

// shardRun reports whether the directory of shard beside this package
// has a diff_test.go that runs the shard.
func shardRun(shard string) bool {
	b, err := os.ReadFile(filepath.Join(shard, "diff_test.go"))
	return err == nil && strings.Contains(string(b), fmt.Sprintf("runner.Run(t, %q)", shard))
}

package diffrun

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestShards: every testdata case is run by exactly one shard, every
// shard names cases that exist, and every shard has a package here whose
// test runs it, so that go test ./... runs the differential test of every
// case.
func TestShards(t *testing.T) {
	for _, p := range shardProblems(Cases(t), Shards, shardRun) {
		t.Error(p)
	}
}

// TestShardProblems: shardProblems reports a case in no shard, a case in
// two, a shard naming no case of testdata, and a shard without a package
// that runs it, and nothing when all is well.
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
		{"left out", []string{"a", "b", "c"}, map[string][]string{"x": {"a"}, "y": {"b"}}, all, []string{"testdata case c is in no shard"}},
		{"twice", []string{"a", "b"}, map[string][]string{"x": {"a", "b"}, "y": {"b"}}, all, []string{"testdata case b is in shards x and y"}},
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
	in := map[string][]string{}
	for _, s := range names {
		for _, c := range shards[s] {
			in[c] = append(in[c], s)
			if !slices.Contains(cases, c) {
				problems = append(problems, fmt.Sprintf("shard %s names %s, no testdata case", s, c))
			}
		}
		if !hasRun(s) {
			problems = append(problems, fmt.Sprintf("shard %s has no package rewrite/internal/diffrun/%s whose diff_test.go calls runner.Run(t, %q)", s, s, s))
		}
	}
	for _, c := range cases {
		switch ss := in[c]; len(ss) {
		case 0:
			problems = append(problems, fmt.Sprintf("testdata case %s is in no shard", c))
		case 1:
		default:
			problems = append(problems, fmt.Sprintf("testdata case %s is in shards %s", c, strings.Join(ss, " and ")))
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

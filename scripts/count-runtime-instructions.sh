#!/usr/bin/env bash
# count-runtime-instructions.sh counts, with valgrind's callgrind, the
# instructions each runtime/soac function executes itself against the
# hand-written loop of its benchmark: a measure that does not depend on the
# machine's load, unlike wall time (see BENCHMARKS.md).
#
# Usage: bash scripts/count-runtime-instructions.sh   (needs valgrind; about 1 minute)
#
# It runs the n=1e3 and n=1e6 benchmarks for 10 iterations under callgrind
# and sums each function's exclusive ("self") instructions: the loop and
# its bookkeeping, not the lambda it calls (the same function value for both
# variants) nor the allocation of the output (runtime code, whose cost
# depends on the heap's state). Both variants are called equally often: once
# per size as a warm-up, then once per iteration. Where the compiler inlines
# soac.F into the benchmark's wrapper soacF, the wrapper holds its cost.
# Callgrind needs Go's asynchronous preemption off (it asserts on the
# preemption signal).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 1; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

go test -c -o "$out/soac.test" ./runtime/soac/
GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" \
	"$out/soac.test" -test.run XXX -test.bench 'Benchmark[A-Za-z0-9]+/n=1e(3|6)/(soac|loop)$' -test.benchtime 10x >"$out/log" 2>&1

callgrind_annotate "$out/cg.out" 2>/dev/null | awk '
	# Self-cost lines: "  123,456 (12.34%)  file.go:symbol [binary]"; lines
	# with "=>" are calls (inclusive costs), others are annotated source.
	/=> / { next }
	!/^ *[0-9,]+ \( *[0-9.]+%\) / { next }
	{
		n = $1; gsub(",", "", n)
		sym = ""
		for (i = 2; i <= NF; i++) if ($i ~ /\.go:/) { sym = $i; break }
		if (sym == "") next
		sub(/^.*\.go:/, "", sym); sub(/'"'"'[0-9]+$/, "", sym)
		if (match(sym, /soac_test\.(soac|loop)[A-Z][A-Za-z0-9]*$/)) {
			s = substr(sym, RSTART + 10); kind = substr(s, 1, 4); fn = substr(s, 5)
			if (fn ~ /Inlined$/) next
		} else if (match(sym, /runtime\/soac\.[A-Z][A-Za-z0-9]*/)) {
			kind = "soac"; fn = substr(sym, RSTART + 13, RLENGTH - 13)
		} else next
		cost[fn, kind] += n
	}
	END {
		printf "%-10s %14s %14s %7s\n", "function", "soac (self)", "loop (self)", "ratio"
		split("Map Map2 Map3 Reduce Scan Filter Iota Replicate", fns, " ")
		for (i = 1; i <= 8; i++) {
			f = fns[i]; s = cost[f, "soac"]; l = cost[f, "loop"]
			printf "%-10s %14d %14d %7s\n", f, s, l, (l > 0 ? sprintf("%.3f", s / l) : "-")
		}
	}'

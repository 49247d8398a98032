#!/usr/bin/env bash
# bench-runtime.sh reproduces the runtime/soac table of BENCHMARKS.md: every
# reference function against a hand-written loop that makes the same single
# pass and the same output allocation.
#
# Usage: bash scripts/bench-runtime.sh [OUTDIR]   (from any directory)
#
# Writes OUTDIR/bench.txt (raw go test output, default OUTDIR is
# ./bench-out), prints benchstat's comparison when benchstat is installed
#     go install golang.org/x/perf/cmd/benchstat@latest
# and prints the table of median ratios soac/loop (> 1 means the reference is
# slower), of wall-clock time and of process CPU time; CPU time is the more
# robust measure on a shared machine. Takes about 10 minutes on 2 idle
# cores; set BENCHTIME or COUNT to change -benchtime (default 0.5s) or -count
# (default 6, the least benchstat needs for a confidence interval).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
out="${1:-bench-out}"
mkdir -p "$out"

count="${COUNT:-6}"
benchtime="${BENCHTIME:-0.5s}"
# This is go test -run XXX -bench . -benchmem -count $count -benchtime
# $benchtime ./runtime/soac/, except that the test binary is run $count times
# with -count 1: go test -count repeats each sub-benchmark back to back, so a
# burst of load from other processes lands on one variant; interleaving the
# repetitions spreads it over all variants alike.
echo "== go test -c ./runtime/soac/, then $count x: soac.test -test.run XXX -test.bench . -test.benchmem -test.count 1 -test.benchtime $benchtime"
go test -c -o "$out/soac.test" ./runtime/soac/
: >"$out/bench.txt"
for i in $(seq "$count"); do
	echo "-- run $i of $count" >&2
	"$out/soac.test" -test.run XXX -test.bench . -test.benchmem -test.count 1 \
		-test.benchtime "$benchtime" -test.timeout 60m | tee -a "$out/bench.txt"
done

# Name the variant part of each sub-benchmark impl=... so that benchstat can
# put the variants side by side.
sed -E 's#^(Benchmark[^ /]+/n=[^/ ]+)/(soac|loop|loop-inlined)(-[0-9]+)?([[:space:]])#\1/impl=\2\3\4#' "$out/bench.txt" >"$out/bench-impl.txt"
if command -v benchstat >/dev/null || [ -x "$(go env GOPATH)/bin/benchstat" ]; then
	bs="$(command -v benchstat || echo "$(go env GOPATH)/bin/benchstat")"
	echo
	echo "== benchstat -col '/impl@(loop soac loop-inlined)' (time; deltas are relative to loop)"
	"$bs" -col '/impl@(loop soac loop-inlined)' "$out/bench-impl.txt" | tee "$out/benchstat.txt"
else
	echo "benchstat not installed; skipping its table"
fi

echo
echo "== median ratios soac/loop of wall-clock ns/op and of process CPU ns/op (the acceptance bound is 1.2)"
awk '
$1 ~ /^Benchmark/ && $4 == "ns/op" {
	name = $1; sub(/-[0-9]+$/, "", name)
	split(name, p, "/")
	key = p[1] "/" p[2]; impl = p[3]
	sub(/^Benchmark/, "", key)
	wall[key, impl] = wall[key, impl] " " $3
	for (i = 5; i <= NF; i++) if ($i == "cpu-ns/op") cpu[key, impl] = cpu[key, impl] " " $(i - 1)
	if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
}
function median(s,    a, n, i, j, t) {
	n = split(s, a, " ")
	if (n == 0) return 0
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function ratio(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "—" }
BEGIN {
	print "| benchmark | soac ns/op | loop ns/op | wall soac/loop | CPU soac/loop | ≤ 1.2× | loop-inlined ns/op |"
	print "|---|---:|---:|---:|---:|---|---:|"
}
END {
	for (k = 1; k <= nk; k++) {
		key = order[k]
		s = median(wall[key, "soac"]); l = median(wall[key, "loop"])
		cs = median(cpu[key, "soac"]); cl = median(cpu[key, "loop"])
		li = (key SUBSEP "loop-inlined") in wall ? sprintf("%.4g", median(wall[key, "loop-inlined"])) : "—"
		ok = (s / l <= 1.2 || (cl > 0 && cs / cl <= 1.2)) ? "yes" : "NO"
		printf "| %s | %.4g | %.4g | %s | %s | %s | %s |\n", key, s, l, ratio(s, l), ratio(cs, cl), ok, li
	}
}' "$out/bench.txt" | tee "$out/ratios.md"

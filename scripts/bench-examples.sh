#!/usr/bin/env bash
# bench-examples.sh runs the benchmarks of ./examples/... and summarises them
# with benchstat: one table per package with every implementation's time
# relative to the hand-written loop, then a Markdown table of the ratios
# (median time of each implementation / median time of "hand"; > 1 is
# slower) for examples/README.md.
#
# Usage: scripts/bench-examples.sh [raw-output-file]
#
# Environment:
#   COUNT      samples per benchmark (default 10; benchstat needs >= 6 for a
#              confidence interval, and ratios under ~1.15 need 10 or more on
#              the 2-core machines, see BENCHMARKS.md)
#   BENCHTIME  go test -benchtime (default 1s)
#   BENCH      go test -bench regexp (default .)
#   PKGS       packages (default ./examples/...)
#
# benchstat runs with `go run golang.org/x/perf/cmd/benchstat@latest`, so it
# is not a dependency in go.mod. Sub-benchmarks are named
# Benchmark<Name>/n=<size>/<impl>; the impl part is rewritten to impl=<impl>
# so that benchstat can put implementations in columns.
set -euo pipefail

cd "$(dirname "$0")/.."
COUNT=${COUNT:-10}
BENCHTIME=${BENCHTIME:-1s}
BENCH=${BENCH:-.}
PKGS=${PKGS:-./examples/...}
OUT=${1:-$(mktemp -t bench-examples.XXXXXX.txt)}
BENCHSTAT=(go run golang.org/x/perf/cmd/benchstat@latest)

echo "# go test -bench '$BENCH' -count $COUNT -benchtime $BENCHTIME $PKGS > $OUT" >&2
go test -run '^$' -bench "$BENCH" -benchmem -count "$COUNT" -benchtime "$BENCHTIME" $PKGS > "$OUT"

KEYED=$(mktemp -t bench-examples-keyed.XXXXXX.txt)
trap 'rm -f "$KEYED"' EXIT
sed -E 's#^(Benchmark[^ ]*/n=[^/ ]*)/([A-Za-z0-9_]+)(-[0-9]+)?([[:space:]])#\1/impl=\2\3\4#' "$OUT" > "$KEYED"

COLS='/impl@(hand spec lo iter fused)'
"${BENCHSTAT[@]}" -col "$COLS" -row '.name /n' "$KEYED"

echo
echo "Time relative to hand (median / median of hand; > 1 is slower):"
echo
"${BENCHSTAT[@]}" -format csv -col "$COLS" -row '.name /n' -filter '.unit:sec/op' "$KEYED" 2>/dev/null |
	awk -F, '
	# A header row names the implementations at their columns: ",hand,,spec,,,,lo,...".
	$1 == "" && $2 != "" && $2 != "sec/op" {
		delete col; n = 0
		for (i = 2; i <= NF; i++) if ($i != "") { col[$i] = i; names[++n] = $i }
		next
	}
	$1 == "" || $1 == "geomean" || $1 ~ /:/ || $2 == "sec/op" { next }
	("hand" in col) {
		split($1, rn, " ")
		row = "| " rn[1] " | " rn[2]
		for (k = 1; k <= n; k++) {
			impl = names[k]
			if (impl == "hand") continue
			v = $(col[impl]); h = $(col["hand"])
			cell[impl] = (v != "" && h > 0) ? sprintf("%.2f", v / h) : "—"
		}
		printf "%s | %s | %s | %s | %s |\n", row, c("spec"), c("lo"), c("iter"), c("fused")
		delete cell
	}
	function c(impl) { return (impl in cell) ? cell[impl] : "—" }
	BEGIN {
		print "| benchmark | n | spec | lo | iter | fused |"
		print "|---|---|---|---|---|---|"
	}'
echo >&2
echo "raw results: $OUT" >&2

#!/bin/bash
# 16-core host: parallel backend, before (1aa5bef) vs after (merged), alternating.
cd "$(dirname "$0")"
export SOACGEN_PAR_1E7=1
o=$OUT/par.txt
nproc > $o; lscpu | grep "Model name" >> $o
for round in 1 2; do
 for v in before after; do
  echo "=== $v round $round prefixsum" >> $o
  ./$v/prefixsum.test -test.run '^$' -test.bench '(HalfSqrtsPar|PrefixSumsPar|ChunkedSumsPar)/^n=1e[67]$/' -test.benchmem -test.benchtime 300ms -test.count 2 -test.cpu 16,2 >> $o 2>&1
  for p in sumsq dotprod; do
   echo "=== $v round $round $p" >> $o
   ./$v/$p.test -test.run '^$' -test.bench 'Par/^n=1e[67]$/' -test.benchmem -test.benchtime 300ms -test.count 2 -test.cpu 16,2 >> $o 2>&1
  done
 done
done

#!/bin/bash
# 16-core host: small sizes and the remaining parallel figures (after only), sumsqpos before/after, kmeans.
cd "$(dirname "$0")"
export SOACGEN_PAR_1E7=1
o=$OUT/par2.txt
for v in before after; do
 echo "=== $v sumsqpos" >> $o
 ./$v/sumsqpos.test -test.run '^$' -test.bench 'Par/^n=1e[67]$/' -test.benchmem -test.benchtime 300ms -test.count 3 -test.cpu 16,2 >> $o 2>&1
done
echo "=== after small sizes" >> $o
for p in sumsq dotprod prefixsum; do
 ./after/$p.test -test.run '^$' -test.bench 'Par/^n=(1|1e3)$/' -test.benchmem -test.benchtime 200ms -test.count 3 -test.cpu 16 >> $o 2>&1
done
echo "=== after kmeans KMeans (iterations) and ClusterSizesPar" >> $o
./after/kmeans.test -test.run '^$' -test.bench 'BenchmarkKMeans$' -test.benchmem -test.benchtime 3x -test.count 3 -test.cpu 16,2 >> $o 2>&1
echo "=== after parallel CarriedForms" >> $o
./after/parallel.test -test.run '^$' -test.bench CarriedForms -test.count 3 -test.cpu 16,2 >> $o 2>&1

#!/bin/bash
cd "$(dirname "$0")"
o=$OUT/auto2.txt
./after/clbench.test -test.run '^$' -test.bench 'AutoAll/ClusterSizes/' -test.benchtime 0.5s -test.count 3 -test.cpu 16 > $o 2>&1
./after/clbench.test -test.run '^$' -test.bench 'AutoAll/SumSq/n=1000$' -test.benchtime 0.5s -test.count 5 -test.cpu 16 >> $o 2>&1

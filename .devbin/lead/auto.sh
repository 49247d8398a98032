#!/bin/bash
cd "$(dirname "$0")"
o=$OUT/auto.txt
./after/clbench.test -test.run '^$' -test.bench AutoAll -test.benchtime 0.5s -test.count 3 -test.cpu 16 > $o 2>&1

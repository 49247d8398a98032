#!/bin/bash
# H100: CL tests of the new work, then k-means with iterations, FilterMax, Resident, auto.
cd "$(dirname "$0")"
o=$OUT/cl.txt
nvidia-smi -L > $o 2>&1
echo "=== kmeans tests (REQUIRE_OPENCL)" >> $o
SOACGEN_REQUIRE_OPENCL=1 ./after/kmeans.test -test.run 'KMeans|ClusterSizes|Auto' >> $o 2>&1
echo "=== launch tests" >> $o
SOACGEN_REQUIRE_OPENCL=1 ./after/launch.test >> $o 2>&1
echo "=== clbench KMeans ClusterSizes Resident FilterMax" >> $o
SOACGEN_BENCH_N=8388608 ./after/clbench.test -test.run '^$' -test.bench 'BenchmarkKMeans|BenchmarkClusterSizes|BenchmarkResident|FilterMax$' -test.benchtime 10x -test.count 3 >> $o 2>&1
echo "=== launch Choice" >> $o
./after/launch.test -test.run '^$' -test.bench Choice -test.benchmem -test.count 3 -test.cpu 16 >> $o 2>&1

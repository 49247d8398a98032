// Package openclnil runs shard openclnil of the random programs with
// reassignment shapes (shapes.Shards): the regression file openclnil.go
// with the opencl backend, whose eleven specs build the most kernels of
// the regression files. A package of its own, so that its test binary
// has go test's timeout to itself. It holds tests only.
package openclnil

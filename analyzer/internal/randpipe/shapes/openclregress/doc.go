// Package openclregress runs shard openclregress of the random programs
// with reassignment shapes (shapes.Shards): the regression files of the
// opencl backend's run but openclnil.go (shard opencl runs its random
// programs, shard openclnil openclnil.go). A package of its own, so that
// its test binary has go test's timeout to itself. It holds tests only.
package openclregress

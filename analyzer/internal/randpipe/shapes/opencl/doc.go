// Package opencl runs shard opencl of the random programs with
// reassignment shapes (shapes.Shards): the opencl backend's random
// programs (shards openclregress and openclnil run its regression
// files). A package of its own, so that its test binary has go test's
// timeout to itself. It holds tests only.
package opencl

// Package cpu runs shard cpu of the random programs with reassignment
// shapes (shapes.Shards): the cpu backend's random programs and its
// regression files. A package of its own, so that its test binary has
// go test's timeout to itself. It holds tests only.
package cpu

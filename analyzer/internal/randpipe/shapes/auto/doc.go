// Package auto runs shard auto of the random programs with reassignment
// shapes (shapes.Shards): the auto backend's random programs and its
// regression files, under GOMAXPROCS 1 and 4. A package of its own, so
// that its test binary has go test's timeout to itself. It holds tests
// only.
package auto

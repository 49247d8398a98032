// Package clmore runs the differential test of the rewrite/testdata cases
// of shard clmore (diffrun.Shards): a package of its own, so that its test
// binary has go test's timeout to itself. It holds tests only.
package clmore

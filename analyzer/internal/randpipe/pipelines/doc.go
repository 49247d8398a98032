// Package pipelines runs random pipelines and the Go translations of
// Futhark's fusion test suite through the code generator with the cpu
// backend, and compares every generated NAME with its spec on random
// inputs: the differential tests of package randpipe's generator that
// build the real generated code. A package of its own, so that its test
// binary, and randpipe's, each have go test's timeout to themselves. It
// holds tests only.
package pipelines

//go:build !race

package extest

// Race is true in a build with the race detector, whose instrumentation
// allocates: allocation counts are not compared there.
const Race = false

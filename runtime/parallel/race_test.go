//go:build race

package parallel_test

// raceEnabled shrinks the test inputs under the race detector, which runs
// the bodies about ten times slower; the chunk boundaries stay covered.
const raceEnabled = true

//go:build !race

package parallel_test

// raceEnabled shrinks the test inputs under the race detector.
const raceEnabled = false

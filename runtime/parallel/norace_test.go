//go:build !race

package parallel

// RaceEnabled shrinks the test inputs under the race detector.
const RaceEnabled = false

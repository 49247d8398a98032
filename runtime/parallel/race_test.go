//go:build race

package parallel

// RaceEnabled shrinks the test inputs under the race detector, which runs
// the bodies about ten times slower; the chunk boundaries stay covered.
// (Exported from a test file so that the external tests see it too.)
const RaceEnabled = true

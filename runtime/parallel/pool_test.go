package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestSpinningWorkersJoin checks that workers spinning after a job of
// independent chunks (awaitPosted) take the next job posted by a caller,
// without a channel send or a new goroutine; that a finished job is no
// longer posted; and that after a job whose chunks may wait
// (execute) no worker spins.
func TestSpinningWorkersJoin(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs 2 Ps")
	}
	var ran atomic.Int64
	body := func(_ *job, c int) {
		ran.Add(1)
		time.Sleep(20 * time.Microsecond) // long enough for helpers to join
	}
	executeIndependent(64, body) // starts or wakes the workers
	if pool.posted.Load() != nil {
		t.Fatal("a finished job is still posted")
	}
	started := Workers()
	joined := false
	for range 200 {
		// Back to back: the workers from the last call are still spinning.
		if pool.spinning.Load() > 0 {
			var helpers atomic.Int64
			executeIndependent(64, func(j *job, c int) {
				if h := j.state.Load() &^ closedBit; h > helpers.Load() {
					helpers.Store(h)
				}
				body(j, c)
			})
			if helpers.Load() >= 1 { // no send nor new worker: sent counted the spinning ones
				joined = true
				break
			}
		} else {
			executeIndependent(64, body)
		}
	}
	if !joined {
		t.Error("no spinning worker joined a job posted right after the last one")
	}
	if Workers() != started {
		t.Errorf("the pool grew from %d to %d workers while workers were spinning", started, Workers())
	}
	if ran.Load() == 0 {
		t.Fatal("no chunk ran")
	}
	// Spinning ends: every worker parks within idleSpin (and a margin).
	waitNoSpinning(t)
	// After a job whose chunks may wait, workers park at once.
	for range 20 {
		execute(64, body)
		if n := pool.spinning.Load(); n != 0 {
			t.Fatalf("%d workers spinning after a job of execute", n)
		}
	}
}

// waitNoSpinning waits, up to a second, until no worker spins.
func waitNoSpinning(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for pool.spinning.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d workers still spinning a second after the last job", pool.spinning.Load())
		}
		time.Sleep(time.Millisecond)
	}
}

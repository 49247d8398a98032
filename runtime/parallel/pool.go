package parallel

// This file is the engine under every operation: a job of k chunks, run by
// the caller together with idle workers of a package-wide pool, chunks
// claimed in increasing order from one atomic counter; panics caught per
// chunk and re-raised on the caller's goroutine (the lowest chunk's value);
// the caller returns only after every worker that joined the job has left
// it. It does not know what a chunk computes (ops.go, scan.go and filter.go
// do) and never decides the chunk decomposition (chunk.go does).

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// job is one parallel operation over k chunks.
//
// Invariants: chunks are claimed in increasing index order (next); a
// goroutine finishes one chunk, including any wait inside it, before it
// claims the next, so the goroutine holding chunk c-1 is never waiting for
// a chunk >= c. stop is the lowest chunk index that panicked (k while none
// has); it only decreases, and only under mu.
type job struct {
	k    int
	run  func(j *job, c int) // runs chunk c; may panic
	next atomic.Int64
	stop atomic.Int64

	mu   sync.Mutex
	pval any // the panic value of chunk stop

	// waiters counts the chunks sleeping on cond (under mu) for a
	// predecessor's result; see wait and publish.
	waiters atomic.Int64
	cond    sync.Cond

	// state is closedBit once the caller has stopped waiting for new
	// helpers, plus the number of helpers inside the job.
	state atomic.Int64
	done  chan struct{} // receives once when the last helper leaves a closed job
}

const closedBit = int64(1) << 62

// pool is the package's set of worker goroutines. Workers block on jobs;
// a caller hands its job only to workers that are idle at that moment (a
// non-blocking send on the unbuffered channel), so nested or concurrent
// operations never wait for a worker: what no worker takes, the caller runs.
var pool struct {
	jobs    chan *job
	mu      sync.Mutex
	started atomic.Int64 // workers started (they never exit)
}

func init() { pool.jobs = make(chan *job) }

// spawnPerCall, set only by benchmarks, replaces the pool with fresh
// goroutines per call, to measure the choice documented in doc.go.
var spawnPerCall = false

// Workers returns the number of pool goroutines started so far. They stay
// parked on a channel receive between operations; the pool grows to
// GOMAXPROCS-1 workers, the largest GOMAXPROCS seen by an operation that
// split its work.
func Workers() int { return int(pool.started.Load()) }

// grow starts one more worker, whose first job is j, unless the pool
// already has want workers; it reports whether it started one. A worker
// started for a job gets it directly: a fresh goroutine is not yet parked
// on the channel, so a send to it would find no receiver.
func grow(want int, j *job) bool {
	if int(pool.started.Load()) >= want {
		return false
	}
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if int(pool.started.Load()) >= want {
		return false
	}
	pool.started.Add(1)
	go worker(j)
	return true
}

func worker(first *job) {
	// Reached only when a chunk body called runtime.Goexit on this worker.
	defer pool.started.Add(-1)
	first.help()
	for j := range pool.jobs {
		j.help()
	}
}

// execute runs chunks 0..k-1 of run, in parallel where workers are idle,
// and returns when every chunk has run; it re-panics on the caller's
// goroutine with the value of the lowest chunk that panicked, after every
// helper has left. k must be at least 2: with one chunk, callers call
// their body directly (the sequential loop).
func execute(k int, run func(j *job, c int)) {
	j := &job{k: k, run: run, done: make(chan struct{}, 1)}
	j.cond.L = &j.mu
	j.stop.Store(int64(k))
	h := min(k, runtime.GOMAXPROCS(0)) - 1
	if h > 0 {
		if spawnPerCall {
			for range h {
				go j.help()
			}
		} else {
			sent := 0
		dispatch:
			for sent < h {
				select {
				case pool.jobs <- j:
					sent++
				default:
					break dispatch
				}
			}
			for sent < h && grow(h, j) {
				sent++
			}
		}
	}
	if h > 0 {
		// A worker woken by the send above waits in this P's runnext
		// slot, where another P steals it late or not at all; yielding
		// once runs it here and lets an idle P take the caller. Measured
		// on 2 cores (BENCHMARKS.md, issue 11, third round): the caller
		// ran 64% of a sum of squares' chunks before, 51% after, and the
		// call went from 1.44x to 1.6x the sequential loop.
		runtime.Gosched()
	}
	finished := false
	defer func() {
		if !finished { // the caller's own chunk called runtime.Goexit
			j.close()
		}
	}()
	j.work()
	finished = true
	j.close()
	if j.stop.Load() < int64(k) {
		panic(j.pval)
	}
}

// close stops new helpers from joining and waits for those inside to leave.
func (j *job) close() {
	if old := j.state.Or(closedBit); old != 0 {
		<-j.done
	}
}

// help joins the job if the caller has not closed it, works, and leaves.
func (j *job) help() {
	for {
		s := j.state.Load()
		if s&closedBit != 0 {
			return
		}
		if j.state.CompareAndSwap(s, s+1) {
			break
		}
	}
	defer func() {
		if j.state.Add(-1) == closedBit {
			j.done <- struct{}{}
		}
	}()
	j.work()
}

// work claims and runs chunks until none is left, or until every chunk
// still unclaimed lies above a chunk that panicked (its panic is the one
// the sequential loop would raise first, so they need not run).
func (j *job) work() {
	for {
		c := j.next.Add(1) - 1
		if c >= int64(j.k) || c > j.stop.Load() {
			return
		}
		j.runChunk(int(c))
	}
}

// runChunk runs chunk c and records its panic, if any.
func (j *job) runChunk(c int) {
	ok := false
	defer func() {
		if !ok {
			j.fail(c, recover())
		}
	}()
	j.run(j, c)
	ok = true
}

// fail records that chunk c panicked with v (nil for runtime.Goexit, which
// is then reported as a panic with a *GoexitError).
func (j *job) fail(c int, v any) {
	if v == nil {
		v = &GoexitError{Chunk: c}
	}
	j.mu.Lock()
	if int64(c) < j.stop.Load() {
		j.pval = v
		j.stop.Store(int64(c))
	}
	j.cond.Broadcast() // waiters above c give up
	j.mu.Unlock()
}

// aborted reports whether a chunk below c has panicked, so that chunk c,
// waiting for its predecessors, can give up: its result is never used.
func (j *job) aborted(c int) bool { return j.stop.Load() < int64(c) }

// GoexitError is the panic value with which an operation fails when a
// chunk body called runtime.Goexit (t.FailNow, for instance) on a worker:
// the worker cannot end the caller's goroutine, so the caller panics with
// this instead.
type GoexitError struct {
	Chunk int // the chunk whose body called runtime.Goexit
}

func (e *GoexitError) Error() string {
	return "parallel: a chunk body called runtime.Goexit"
}

// wait blocks chunk c until ready reports true and then returns true; it
// returns false as soon as a chunk below c has panicked (chunk c's result
// is then never used). It spins briefly, then sleeps on the job's
// condition variable, so that a waiter whose predecessor's thread is
// descheduled (GOMAXPROCS above the free cores, a loaded machine) does
// not burn the core that predecessor needs. Publishers call publish after
// making ready true.
func (j *job) wait(c int, ready func() bool) bool {
	for i := range spinRounds {
		if ready() {
			return true
		}
		if j.aborted(c) {
			return false
		}
		if i >= spinRounds/2 {
			runtime.Gosched()
		}
	}
	j.waiters.Add(1)
	j.mu.Lock()
	for !ready() && !j.aborted(c) {
		j.cond.Wait()
	}
	j.mu.Unlock()
	j.waiters.Add(-1)
	return !j.aborted(c)
}

// spinRounds is how many times wait polls before it sleeps (the second
// half of the rounds yielding the processor): some tens of microseconds,
// which covers the usual wait for a predecessor near the end of its chunk
// without a sleep and a wake-up (several microseconds each, one after
// another along a chain of waiters).
const spinRounds = 256

// publish wakes the sleeping waiters of the job, if there are any, after
// a chunk made its result ready (or panicked). A waiter registers before it
// checks ready under mu, and publish reads the count after ready became
// true, so one of the two always sees the other.
func (j *job) publish() {
	if j.waiters.Load() > 0 {
		j.mu.Lock()
		j.cond.Broadcast()
		j.mu.Unlock()
	}
}

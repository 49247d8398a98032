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
	"time"
)

// job is one parallel operation over k chunks.
//
// Invariants: chunks are claimed in increasing index order (next); a
// goroutine finishes one chunk, including any wait inside it, before it
// claims the next, so the goroutine holding chunk c-1 is never waiting for
// a chunk >= c. stop is the lowest chunk index that panicked (k while none
// has); it only decreases, and only under mu.
type job struct {
	k   int
	run func(j *job, c int) // runs chunk c; may panic
	// linger is set for jobs whose chunks never wait for one another:
	// a worker that leaves one looks for the next job for idleSpin
	// before it parks (awaitPosted).
	linger bool
	next   atomic.Int64
	stop   atomic.Int64

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
//
// A worker that has just left a job whose chunks never wait for one
// another (executeIndependent: maps, reductions, streams) does not park
// at once: for idleSpin it looks for the next job posted (posted),
// yielding the processor now and then, so that a caller's next operation
// finds it running — on the 16-core host a parked worker took 100-200 µs
// to run again after its wake-up (Go wakes one idle thread at a time),
// most of a call of 1e5 elements. After a job whose chunks wait for their
// predecessors (scans, filters, carried kernels) workers park at once:
// there, workers spinning while the last chunks ran and waited slowed
// calls of 1e5 elements by a fifth (16-core host, 2026-11-26).
// Callers post their job before they send it to parked workers, and
// count the spinning workers as helpers on their way.
var pool struct {
	jobs     chan *job
	mu       sync.Mutex
	started  atomic.Int64        // workers started (they never exit)
	posted   atomic.Pointer[job] // the latest job open to helpers, or nil
	spinning atomic.Int64        // workers looking at posted before they park
}

// idleSpin is how long a worker looks for a posted job after leaving one
// before it parks: long enough to bridge the gap between two operations
// called one after the other (the caller's own code between them), short
// against a parked worker's wake-up; it costs at most idleSpin of CPU time
// per worker after a program's last operation.
const idleSpin = 50 * time.Microsecond

// idleYield is how many looks at posted a spinning worker makes between
// two yields of its processor (runtime.Gosched): a yield goes through
// the global run queue, where a scan's waiting chunks queue too.
const idleYield = 256

func init() { pool.jobs = make(chan *job) }

// spawnPerCall, set only by benchmarks, replaces the pool with fresh
// goroutines per call, to measure the choice documented in doc.go.
var spawnPerCall = false

// Workers returns the number of pool goroutines started so far. Between
// operations each looks for the next one for idleSpin, then parks on a
// channel receive; the pool grows to
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
	j := first
	for {
		j.help()
		if j.linger {
			if next := awaitPosted(j); next != nil {
				j = next
				continue
			}
		}
		j = <-pool.jobs
	}
}

// awaitPosted looks for a posted job other than last, still open, for up
// to idleSpin, and returns it, or nil if none came. It yields the
// processor every idleYield looks, so a spinning worker holds up other
// goroutines by a few microseconds at most. It stops counting itself as spinning before its last look:
// a caller that posts a job and then reads the count either counted this
// worker (whose last look then sees the job) or did not (and sends the
// job to the channel or starts a worker instead).
func awaitPosted(last *job) *job {
	pool.spinning.Add(1)
	start := time.Now()
	for i := 1; ; i++ {
		if j := openPosted(last); j != nil {
			pool.spinning.Add(-1)
			return j
		}
		if i%idleYield == 0 {
			if time.Since(start) >= idleSpin {
				break
			}
			runtime.Gosched()
		}
	}
	pool.spinning.Add(-1)
	return openPosted(last)
}

// openPosted returns the posted job if it is open and not last.
func openPosted(last *job) *job {
	if j := pool.posted.Load(); j != nil && j != last && j.state.Load()&closedBit == 0 {
		return j
	}
	return nil
}

// execute runs chunks 0..k-1 of run, in parallel where workers are idle,
// and returns when every chunk has run; it re-panics on the caller's
// goroutine with the value of the lowest chunk that panicked, after every
// helper has left. k must be at least 2: with one chunk, callers call
// their body directly (the sequential loop). Workers park as soon as they
// leave the job (see pool): use it for chunks that may wait for others.
func execute(k int, run func(j *job, c int)) { executeJob(k, false, run) }

// executeIndependent is execute for chunks that never wait for one
// another: the workers that leave the job look for the next one for
// idleSpin before they park.
func executeIndependent(k int, run func(j *job, c int)) { executeJob(k, true, run) }

// executeJob is execute, with the job's linger set as given.
func executeJob(k int, linger bool, run func(j *job, c int)) {
	j := &job{k: k, run: run, linger: linger, done: make(chan struct{}, 1)}
	j.cond.L = &j.mu
	j.stop.Store(int64(k))
	h := min(k, runtime.GOMAXPROCS(0)) - 1
	woken := 0 // parked workers sent the job
	if h > 0 {
		if spawnPerCall {
			for range h {
				go j.help()
			}
			woken = h
		} else {
			pool.posted.Store(j)
			sent := min(h, int(pool.spinning.Load())) // on their way (awaitPosted)
		dispatch:
			for sent < h {
				select {
				case pool.jobs <- j:
					sent++
					woken++
				default:
					break dispatch
				}
			}
			for sent < h && grow(h, j) {
				sent++
			}
		}
	}
	if woken > 0 {
		// A worker woken by the send above waits in this P's runnext
		// slot, where another P steals it late or not at all; yielding
		// once runs it here and lets an idle P take the caller. Measured
		// on 2 cores (2-core VM, 2026-11-23): the caller
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
	pool.posted.CompareAndSwap(j, nil) // no helper joins it any more; let it go
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

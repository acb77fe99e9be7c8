package main

// Folder runs: files processed on up to --jobs goroutines within a memory
// budget, the costliest of each window first, results printed in order.

import (
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
)

// Folder runs process files concurrently: up to --jobs files at once
// (GOMAXPROCS by default), while the memory the files in flight are
// estimated to need stays within memoryBudget. Results are printed in the
// order the files were named, as a run on one core prints them.
//
// Memory stays bounded on any number of cores: a file is started only when
// its estimate (perFileFactor times its size) fits in what the files in
// flight leave of the budget, so 64 workers on small files run 64 at a
// time, and a file larger than the whole budget runs alone. Results wait
// for their turn to be printed, but they are small (a status and its
// problems), and at most ahead windows of them wait; files are written
// by the workers themselves.
const (
	memoryBudget  = 1 << 30 // bytes of estimated peak memory in flight
	perFileFactor = 4       // peak memory of one file's work ÷ its size
	perFileBase   = 1 << 20 // and a fixed part, for tiny files
)

// defaultJobs is the number of files processed at once by default.
func defaultJobs() int { return runtime.GOMAXPROCS(0) }

// cost estimates the peak memory of processing in: perFileFactor times its
// size (as the folder search found it, else as it is now), or the whole
// budget when the size is unknown (standard input, a pipe), so that such
// an input runs alone.
func cost(in input) int64 {
	size := in.size
	if !in.sized {
		if in.stdin() {
			return memoryBudget
		}
		fi, err := os.Stat(in.path)
		if err != nil || !fi.Mode().IsRegular() {
			return memoryBudget
		}
		size = fi.Size()
	}
	return min(memoryBudget, perFileFactor*size+perFileBase)
}

// window is how many consecutive files forEach schedules together, and
// ahead how many windows of results may wait for their turn to be printed.
const (
	window = 256
	ahead  = 16
)

// forEach runs work(i) for every i < n on up to jobs goroutines, never
// starting one while the costs of those in flight would exceed budget, and
// calls emit(i, result) on the calling goroutine in index order.
//
// Work is taken a window of consecutive indexes at a time (the first
// window holds n mod window of them, the others window each), and within
// a window the costliest first (ties in index order): what is left to do
// while the largest file of the run's last window runs is the window's
// smaller files, which keep the other workers busy, where in index order
// a large file near the end would run alone after all the others. Jobs
// start in that order, first come, first served: a large job waits for
// room, and those after it wait behind it, so nothing starves. Workers
// never wait for emit unless it falls ahead windows behind them (a
// file that takes as long as thousands of others, a full pipe), so the
// results waiting stay within ahead windows.
func forEach[R any](n, jobs int, budget int64, cost func(int) int64, work func(int) R, emit func(int, R)) {
	if jobs <= 1 || n <= 1 {
		for i := range n {
			emit(i, work(i))
		}
		return
	}
	b := &batch[R]{n: n, budget: budget, avail: budget, cost: cost, pending: map[int]R{}}
	b.more.L, b.ready.L = &b.mu, &b.mu
	var wg sync.WaitGroup
	for range min(jobs, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i, c, ok := b.take()
				if !ok {
					return
				}
				b.finish(i, c, work(i))
			}
		}()
	}
	b.mu.Lock()
	for b.next < n {
		r, ok := b.pending[b.next]
		if !ok {
			b.ready.Wait()
			continue
		}
		i := b.next
		delete(b.pending, i)
		b.next++
		if b.behind {
			b.more.Broadcast()
		}
		b.mu.Unlock()
		emit(i, r)
		b.mu.Lock()
	}
	b.mu.Unlock()
	wg.Wait()
}

// batch is the state forEach's workers and emitter share, under mu.
type batch[R any] struct {
	n             int
	budget, avail int64 // the budget, and what the jobs in flight leave of it
	cost          func(int) int64

	mu      sync.Mutex
	more    sync.Cond // a worker waits for room, a window, or emit to catch up
	ready   sync.Cond // emit waits for the result of next
	order   []int     // the current window's indexes, costliest first
	costs   []int64   // and their costs (at most the budget)
	pos     int       // the next of order to start
	end     int       // the indexes below end are in a window
	filling bool      // a worker is making the next window
	behind  bool      // a worker waits for emit to catch up
	pending map[int]R // results waiting for emit
	next    int       // the index emit prints next
}

// take returns the next job to start and its cost, once it fits in the
// budget; ok is false when no job is left.
func (b *batch[R]) take() (i int, c int64, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		switch {
		case b.pos < len(b.order):
			if c := b.costs[b.pos]; c <= b.avail {
				i := b.order[b.pos]
				b.pos++
				b.avail -= c
				return i, c, true
			}
		case b.end == b.n:
			return 0, 0, false
		case b.filling:
		case b.end-b.next > (ahead-1)*window:
			b.behind = true
		default:
			b.fill()
			continue
		}
		b.more.Wait()
	}
}

// fill makes the next window the current one (costs are computed outside
// the lock: they may stat files).
func (b *batch[R]) fill() {
	lo := b.end
	hi := lo + window
	if lo == 0 && b.n%window != 0 {
		hi = b.n % window
	}
	hi = min(hi, b.n)
	b.filling, b.behind = true, false
	b.mu.Unlock()
	order := make([]int, 0, hi-lo)
	costs := make([]int64, hi-lo)
	for i := lo; i < hi; i++ {
		order = append(order, i)
		costs[i-lo] = min(b.cost(i), b.budget)
	}
	slices.SortStableFunc(order, func(x, y int) int {
		cx, cy := costs[x-lo], costs[y-lo]
		switch {
		case cx > cy:
			return -1
		case cx < cy:
			return 1
		}
		return 0
	})
	sorted := make([]int64, len(order))
	for k, i := range order {
		sorted[k] = costs[i-lo]
	}
	b.mu.Lock()
	b.order, b.costs, b.pos, b.end, b.filling = order, sorted, 0, hi, false
	b.more.Broadcast()
}

// finish records the result of job i, which cost c.
func (b *batch[R]) finish(i int, c int64, r R) {
	b.mu.Lock()
	b.avail += c
	b.pending[i] = r
	if i == b.next {
		b.ready.Signal()
	}
	b.more.Broadcast()
	b.mu.Unlock()
}

// batchGC sets the garbage collector up for a run over the files ins. Over
// many, with two or more workers: the heap may grow to 5× what is live
// between collections (GOGC 400, not 100), and the memory budget becomes
// the runtime's soft limit, so collections come sooner only as the heap
// nears it; small notebooks allocate little but often, and collecting
// less often leaves the cores to the workers. Over one file: a soft limit
// proportional to its size (see fileMemory). A user's own GOGC or
// GOMEMLIMIT is left alone. It returns a function that restores the
// previous settings.
func batchGC(ins []input, jobs int) (restore func()) {
	if len(ins) == 1 && !ins[0].stdin() {
		if fi, err := os.Stat(ins[0].path); err == nil && fi.Mode().IsRegular() {
			return fileMemory(fi.Size())
		}
	}
	if len(ins) < 2 || jobs < 2 || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	percent := debug.SetGCPercent(batchGCPercent)
	limit := debug.SetMemoryLimit(memoryBudget)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

const batchGCPercent = 400

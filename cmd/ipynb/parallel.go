package main

import (
	"os"
	"runtime"
	"runtime/debug"
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
// problems); files are written by the workers themselves.
const (
	memoryBudget  = 1 << 30 // bytes of estimated peak memory in flight
	perFileFactor = 4       // peak memory of one file's work ÷ its size
	perFileBase   = 1 << 20 // and a fixed part, for tiny files
)

// defaultJobs is the number of files processed at once by default.
func defaultJobs() int { return runtime.GOMAXPROCS(0) }

// cost estimates the peak memory of processing in: perFileFactor times its
// size, or the whole budget when the size is unknown (standard input, a
// pipe), so that such an input runs alone.
func cost(in input) int64 {
	if in.stdin() {
		return memoryBudget
	}
	fi, err := os.Stat(in.path)
	if err != nil || !fi.Mode().IsRegular() {
		return memoryBudget
	}
	return min(memoryBudget, perFileFactor*fi.Size()+perFileBase)
}

// forEach runs work(i) for every i < n on up to jobs goroutines, never
// starting one while the costs of those in flight would exceed budget, and
// calls emit(i, result) on the calling goroutine in index order. Work is
// started in index order too (first come, first served: a large file
// waits for room, and the small ones after it wait behind it, so nothing
// starves).
func forEach[R any](n, jobs int, budget int64, cost func(int) int64, work func(int) R, emit func(int, R)) {
	if jobs <= 1 || n <= 1 {
		for i := range n {
			emit(i, work(i))
		}
		return
	}
	var (
		mu    sync.Mutex
		room  = sync.NewCond(&mu)
		avail = budget
	)
	type job struct {
		i    int
		cost int64
	}
	type done struct {
		i int
		r R
	}
	jobsc := make(chan job)
	results := make(chan done, jobs)
	go func() {
		defer close(jobsc)
		for i := range n {
			c := min(cost(i), budget)
			mu.Lock()
			for avail < c {
				room.Wait()
			}
			avail -= c
			mu.Unlock()
			jobsc <- job{i, c}
		}
	}()
	var wg sync.WaitGroup
	for range min(jobs, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobsc {
				r := work(j.i)
				mu.Lock()
				avail += j.cost
				room.Signal()
				mu.Unlock()
				results <- done{j.i, r}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	pending := map[int]R{}
	next := 0
	for d := range results {
		pending[d.i] = d.r
		for {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			emit(next, r)
			next++
		}
	}
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

package main

// Tests of forEach and of runs on many cores: the same output as on one core,
// within the memory budget.

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// forEach emits every result once, in index order, whatever order the
// work finishes in; the costs in flight never exceed the budget; a cost
// over the budget runs alone; and with room, jobs really run at once.
func TestForEach(t *testing.T) {
	t.Parallel()
	const n, jobs, budget = 200, 4, 100
	costs := make([]int64, n)
	for i := range costs {
		costs[i] = int64(rand.IntN(60)) + 1
	}
	costs[50] = 1000 // over the budget: alone
	var inFlight, maxInFlight, running atomic.Int64
	var bigAlone atomic.Bool
	bigAlone.Store(true)
	var got []int
	forEach(n, jobs, budget, func(i int) int64 { return costs[i] }, func(i int) int {
		c := min(costs[i], budget)
		now := inFlight.Add(c)
		r := running.Add(1)
		for {
			m := maxInFlight.Load()
			if now <= m || maxInFlight.CompareAndSwap(m, now) {
				break
			}
		}
		if i == 50 && r != 1 {
			bigAlone.Store(false)
		}
		time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
		running.Add(-1)
		inFlight.Add(-c)
		return i * 2
	}, func(i, r int) {
		if r != i*2 {
			t.Errorf("emit(%d, %d)", i, r)
		}
		got = append(got, i)
	})
	if len(got) != n {
		t.Fatalf("%d results, want %d", len(got), n)
	}
	for i, g := range got {
		if g != i {
			t.Fatalf("result %d emitted at position %d", g, i)
		}
	}
	if m := maxInFlight.Load(); m > budget {
		t.Errorf("%d of cost in flight, budget %d", m, budget)
	}
	if !bigAlone.Load() {
		t.Error("a job costing more than the budget ran beside others")
	}
}

// With room in the budget, forEach runs jobs at once: the first jobs
// work(i) calls all wait for each other, which only completes if they run
// concurrently.
func TestForEachConcurrent(t *testing.T) {
	t.Parallel()
	const jobs = 4
	var wg sync.WaitGroup
	wg.Add(jobs)
	finished := make(chan struct{})
	go func() {
		forEach(jobs, jobs, 1<<20, func(int) int64 { return 1 }, func(i int) int {
			wg.Done()
			wg.Wait()
			return i
		}, func(int, int) {})
		close(finished)
	}()
	select {
	case <-finished:
	case <-time.After(30 * time.Second):
		t.Fatal("jobs did not run concurrently")
	}
}

// Within a window, the costliest job starts first: the largest file near
// the end of a run does not start last and run alone after the others.
func TestForEachCostliestFirst(t *testing.T) {
	t.Parallel()
	const jobs = 2
	n := 10 + window // a first window of 10, then one of window
	big := n - 1     // the costliest, last of its window
	var started atomic.Int64
	var rank atomic.Int64
	forEach(n, jobs, 1<<40, func(i int) int64 {
		if i == big {
			return 1000
		}
		return int64(1 + i%7)
	}, func(i int) int {
		r := started.Add(1) - 1
		if i == big {
			rank.Store(r)
		}
		return i
	}, func(int, int) {})
	// The first window's 10 jobs start before it; of the last window, at
	// most the other worker's first job may record its start first.
	if r := rank.Load(); r < 10 || r > 10+jobs-1 {
		t.Errorf("the costliest job of the last window started %dth, want among the first %d of its window (after %d)", r, jobs, 10)
	}
}

// Workers do not wait for a slow emit: while emit(0) waits for every other
// job to have run, they all run (within the two windows workers may get
// ahead of emit).
func TestForEachSlowEmit(t *testing.T) {
	t.Parallel()
	const n, jobs = window, 3
	var ran atomic.Int64
	all := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		forEach(n, jobs, 1<<20, func(int) int64 { return 1 }, func(i int) int {
			if ran.Add(1) == n {
				close(all)
			}
			return i
		}, func(i, _ int) {
			if i == 0 {
				<-all
			}
		})
		close(finished)
	}()
	select {
	case <-finished:
	case <-time.After(30 * time.Second):
		t.Fatalf("workers waited for emit: %d of %d jobs ran", ran.Load(), n)
	}
}

// While emit waits, workers get at most ahead windows beyond it: the
// results waiting for their turn stay bounded.
func TestForEachAheadBounded(t *testing.T) {
	t.Parallel()
	const jobs = 3
	n := (ahead + 4) * window
	var ran atomic.Int64
	forEach(n, jobs, 1<<20, func(int) int64 { return 1 }, func(i int) int {
		ran.Add(1)
		return i
	}, func(i, _ int) {
		if i != 0 {
			return
		}
		// Wait until the workers stop (or 10 s).
		last := int64(-1)
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond)
			now := ran.Load()
			if now == last {
				break
			}
			last = now
		}
		if r := ran.Load(); r > int64(ahead*window+1) {
			t.Errorf("%d jobs ran while the first result waited to be printed, want at most %d", r, ahead*window+1)
		}
	})
	if r := ran.Load(); r != int64(n) {
		t.Errorf("%d jobs ran, want %d", r, n)
	}
}

// A run on many cores prints exactly what a run on one prints.
func TestCheckJobsSameOutput(t *testing.T) {
	t.Parallel()
	dirs := []string{shipped}
	if s := corpus.Shared(); s != "" && testtier.Full() {
		dirs = append(dirs, filepath.Join(s, "corpus"))
	}
	for _, dir := range dirs {
		checkJobsSameOutput(t, dir)
	}
}

func checkJobsSameOutput(t *testing.T, dir string) {
	one := ipynb(t, dir, "", "check", "--jobs", "1", ".")
	many := ipynb(t, dir, "", "check", "--jobs", "8", ".")
	if one != many {
		t.Errorf("check --jobs 8 differs from --jobs 1:\n%s\n---\n%s", many.stdout[:min(500, len(many.stdout))], one.stdout[:min(500, len(one.stdout))])
	}
	if strings.Count(one.stdout, "\n") < 10 {
		t.Errorf("too few files checked: %q", one.stdout)
	}
	j1 := ipynb(t, dir, "", "check", "--json", "--jobs", "1", ".")
	j8 := ipynb(t, dir, "", "check", "--json", "--jobs", "8", ".")
	if j1 != j8 {
		t.Error("check --json --jobs 8 differs from --jobs 1")
	}
}

// --files-from reads paths one per line (from a file or standard input),
// as xargs or a batch engine hands them over; an empty list checks nothing.
func TestCheckFilesFrom(t *testing.T) {
	t.Parallel()
	list := "jupyter.ipynb\r\n\ninvalid.ipynb\n"
	r := ipynb(t, shipped, list, "check", "--json", "--files-from", "-")
	files, summary := checkLines(t, r.stdout)
	if r.code != 1 || len(files) != 2 || files[0].Path != "jupyter.ipynb" || files[1].Path != "invalid.ipynb" || summary["invalid"] != 1 {
		t.Errorf("check --files-from -: %+v", r)
	}
	listFile := filepath.Join(t.TempDir(), "list")
	if err := os.WriteFile(listFile, []byte("dialog.ipynb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = ipynb(t, shipped, "", "check", "--files-from", listFile, "jupyter.ipynb")
	if r.code != 0 || r.stdout != "same jupyter.ipynb\nsame dialog.ipynb\n2 same, 0 diff, 0 invalid, 0 error\n" {
		t.Errorf("check --files-from FILE PATH: %+v", r)
	}
	if r := ipynb(t, shipped, "", "check", "--files-from", "-"); r.code != 0 {
		t.Errorf("empty list: %+v", r)
	}
	if r := ipynb(t, shipped, "x.ipynb\n", "check", "--files-from", "-", "-"); r.code != 2 {
		t.Errorf("stdin as list and notebook: %+v", r)
	}
	if r := ipynb(t, shipped, "", "check", "--files-from", "no-such-list"); r.code != 2 || !strings.Contains(r.stderr, "no-such-list") {
		t.Errorf("missing list: %+v", r)
	}
}

// fmt and strip on many cores print what they print on one, and write the
// same files.
func TestRewriteJobsSameResult(t *testing.T) {
	t.Parallel()
	names := []string{"kaggle.ipynb", "invalid.ipynb", "jupyter.ipynb", "colab.ipynb", "vscode.ipynb", "minified.ipynb", "crlf.ipynb", "v3.ipynb", "dialog.ipynb", "ascii.ipynb"}
	for _, cmd := range [][]string{{"fmt", "--keep-style", "-v"}, {"fmt", "--canonical"}, {"strip", "-v"}, {"strip", "--verify"}} {
		one, many := work(t, names...), work(t, names...)
		r1 := ipynb(t, one, "", append(append([]string{}, cmd...), "--jobs", "1", ".")...)
		r8 := ipynb(t, many, "", append(append([]string{}, cmd...), "--jobs", "8", ".")...)
		if r1 != r8 {
			t.Errorf("%v: --jobs 8 printed\n%+v\n--jobs 1 printed\n%+v", cmd, r8, r1)
		}
		if r1.stdout == "" && r1.stderr == "" {
			t.Errorf("%v printed nothing", cmd)
		}
		for _, n := range names {
			a, _ := os.ReadFile(filepath.Join(one, n))
			b, _ := os.ReadFile(filepath.Join(many, n))
			if !bytes.Equal(a, b) {
				t.Errorf("%v: %s differs between --jobs 1 and --jobs 8", cmd, n)
			}
		}
	}
}

// A run over many files on several cores collects garbage less often,
// within the memory budget as the runtime's limit, and puts the settings
// back afterwards; one core, or the user's own GOGC changes nothing; one
// file gets a soft limit of fileMemory's, put back afterwards.
func TestBatchGC(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set in the environment")
	}
	percent := debug.SetGCPercent(100)
	defer debug.SetGCPercent(percent)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(limit)

	files := func(n int) []input { return make([]input, n) } // (paths that are not files)
	restore := batchGC(files(10), 2)
	if p := debug.SetGCPercent(-1); p != batchGCPercent {
		t.Errorf("GC percent %d during a batch, want %d", p, batchGCPercent)
	}
	debug.SetGCPercent(batchGCPercent)
	if l := debug.SetMemoryLimit(-1); l != memoryBudget {
		t.Errorf("memory limit %d during a batch, want the budget %d", l, int64(memoryBudget))
	}
	restore()
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GC percent %d after the batch, want 100 back", p)
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("memory limit %d after the batch, want none", l)
	}
	for _, c := range [][2]int{{1, 2}, {10, 1}} {
		batchGC(files(c[0]), c[1])()
		if p := debug.SetGCPercent(100); p != 100 {
			t.Errorf("batchGC(%d, %d) changed the GC percent to %d", c[0], c[1], p)
		}
	}
	one := filepath.Join(t.TempDir(), "one.ipynb")
	if err := os.WriteFile(one, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	restore = batchGC([]input{{path: one}}, 2)
	if l, want := debug.SetMemoryLimit(-1), int64(fileMemoryPerByte*1000)+fileMemoryBase; l != want {
		t.Errorf("memory limit %d for one file of 1000 bytes, want %d", l, want)
	}
	restore()
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("memory limit %d after one file, want none", l)
	}
	t.Setenv("GOGC", "50")
	batchGC(files(10), 2)
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("batchGC overrode the user's GOGC: %d", p)
	}
}

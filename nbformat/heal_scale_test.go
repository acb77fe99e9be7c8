//go:build unix

package nbformat_test

// Tests that Heal is linear in the number of problems, in bytes allocated and
// processor time.

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// healShapes build notebooks with n problems of one kind.
var healShapes = []struct {
	name  string
	build func(n int) string
}{
	// Every other cell lacks an id, the others share one.
	{"ids", func(n int) string {
		var b strings.Builder
		b.WriteString(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			id := ""
			if i%2 == 1 {
				id = `"id": "same", `
			}
			fmt.Fprintf(&b, `{"cell_type": "markdown", %s"metadata": {}, "source": "cell %d"}`, id, i)
		}
		b.WriteString("]}")
		return b.String()
	}},
	// One markdown cell with n attachments whose data is not text.
	{"attachments", func(n int) string {
		var b strings.Builder
		b.WriteString(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "markdown", "id": "a", "metadata": {}, "source": "", "attachments": {`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `"a%d.png": {"image/png": %d}`, i, i)
		}
		b.WriteString("}}]}")
		return b.String()
	}},
	// One output with n invalid MIME entries and n stray members.
	{"output", func(n int) string {
		var b strings.Builder
		b.WriteString(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "id": "a", "metadata": {}, "source": "", "execution_count": null, "outputs": [{"output_type": "display_data", "metadata": {}, "data": {`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `"text/x%d": %d`, i, i)
		}
		b.WriteString("}")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, `, "k%d": %d`, i, i)
		}
		b.WriteString("}]}]}")
		return b.String()
	}},
}

// cpuTime is the processor time this process has used (user and system):
// unlike the wall clock, it does not grow when other processes load the
// machine.
func cpuTime(t testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// healCost heals in once and returns the bytes allocated and the
// processor time taken (the least of runs).
func healCost(t testing.TB, in string, runs int) (alloc uint64, took time.Duration) {
	for r := 0; r < runs; r++ {
		nb, err := nbformat.Unmarshal([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		newID := func() nbformat.CellID { n++; return nbformat.CellID("h" + strconv.Itoa(n)) }
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := cpuTime(t)
		_, err = healWith(nb, newID)
		d := cpuTime(t) - start
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if r == 0 {
			if err := nbformat.Validate(nb); err != nil {
				t.Fatalf("healed notebook invalid: %.300v", err)
			}
		}
		a := after.TotalAlloc - before.TotalAlloc
		if r == 0 || a < alloc {
			alloc = a
		}
		if r == 0 || d < took {
			took = d
		}
	}
	return alloc, took
}

// Heal is linear in the number of problems: at doubling sizes (12,500 to
// 100,000 cells with missing or duplicate ids, attachments, invalid MIME
// entries and stray members of one output) the bytes it allocates double
// (a quadratic heal quadruples them), and the processor time it takes
// (not the wall clock, which other work on the machine stretches) grows
// 8× over the range within a generous bound, 24× (quadratic: 64×); each
// measure is the least of two runs.
func TestHealScalesLinearly(t *testing.T) {
	testtier.Long(t)
	if testtier.Race {
		// The instrumented regexp allocates heavily, so the step where the
		// reading shape stops remembering member names' matches (4096)
		// looks like growth at these sizes; without -race the bytes
		// double with the problems.
		t.Skip("the race detector's instrumentation allocates")
	}
	sizes := []int{12500, 25000, 50000, 100000}
	if testing.Short() {
		sizes = []int{3125, 6250, 12500, 25000}
	}
	for _, shape := range healShapes {
		t.Run(shape.name, func(t *testing.T) {
			var allocs []uint64
			var times []time.Duration
			for _, n := range sizes {
				a, d := healCost(t, shape.build(n), 2)
				allocs = append(allocs, a)
				times = append(times, d)
				t.Logf("n=%d: %d bytes, %v", n, a, d)
			}
			for i := 1; i < len(sizes); i++ {
				if r := float64(allocs[i]) / float64(allocs[i-1]); r > 2.6 {
					t.Errorf("allocations grew %.2f× from n=%d to n=%d (linear: 2×)", r, sizes[i-1], sizes[i])
				}
			}
			// 8× the problems: linear is 8×, quadratic 64×.
			if r := float64(times[len(times)-1]) / float64(times[0]); r > 24 {
				t.Errorf("time grew %.1f× from n=%d to n=%d (linear: 8×)", r, sizes[0], sizes[len(sizes)-1])
			}
		})
	}
}

// BenchmarkHeal heals notebooks with 25,000 problems of each kind.
func BenchmarkHeal(b *testing.B) {
	for _, shape := range healShapes {
		in := shape.build(25000)
		b.Run(shape.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				nb, err := nbformat.Unmarshal([]byte(in))
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := nbformat.Heal(nb); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

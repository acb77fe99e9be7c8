// Command benchrun times, for each file, encoding/json.Valid scanning its
// bytes (the floor) and this module's round trip (nbformat.Unmarshal +
// Validate + Marshal), and the dialog round trip (convert.Unmarshal +
// Marshal), in one process; it prints one tab-separated line per file:
// path, bytes, then the median seconds of each. scripts/bench-compare
// runs it beside Python nbformat.
//
// With -buckets it measures every notebook under the given folders instead
// and prints a table by size class (see runBuckets).
//
// With -phase it runs one measure over the notebooks of a size range,
// untimed, for instruction counts under valgrind (see runPhase).
//
// Usage: benchrun [-runs N] FILE...
//
//	benchrun -buckets [-runs N] [-python TIMES] DIR...
//	benchrun -phase read|valid|nbformat|dialog [-min B] [-max B] [-runs N] DIR...
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"time"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/nbformat"
)

func main() {
	runs := flag.Int("runs", 7, "timed runs per measure (the median is printed)")
	buckets := flag.Bool("buckets", false, "measure every notebook under the given folders and print the size-bucket table (per-file minimum of -runs runs)")
	pyTimes := flag.String("python", "", "with -buckets: Python's per-file times (scripts/reference/nbformat_bucket_timing.py output)")
	phase := flag.String("phase", "", "run one measure (read, valid, nbformat or dialog) over the notebooks of -min ≤ size < -max bytes, -runs times, untimed")
	lo := flag.Int64("min", 0, "with -phase: the smallest file size in bytes")
	hi := flag.Int64("max", 20e3, "with -phase: files are smaller than this many bytes")
	cpuProfile := flag.String("cpuprofile", "", "with -phase: write a CPU profile of the runs to this file")
	flag.Parse()
	if *phase != "" {
		if err := runPhase(flag.Args(), *phase, *lo, *hi, *runs, *cpuProfile); err != nil {
			fmt.Fprintln(os.Stderr, "benchrun:", err)
			os.Exit(1)
		}
		return
	}
	if *buckets {
		if err := runBuckets(flag.Args(), *runs, *pyTimes); err != nil {
			fmt.Fprintln(os.Stderr, "benchrun:", err)
			os.Exit(1)
		}
		return
	}
	for _, path := range flag.Args() {
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchrun:", err)
			os.Exit(1)
		}
		valid := median(*runs, func() error {
			json.Valid(data)
			return nil
		})
		ours := median(*runs, func() error {
			nb, err := nbformat.Unmarshal(data)
			if err != nil {
				return err
			}
			_ = nbformat.Validate(nb)
			_, err = nbformat.Marshal(nb)
			return err
		})
		dlg := median(*runs, func() error {
			d, err := convert.Unmarshal(data, convert.ReadOptions{})
			if err != nil {
				return err
			}
			_, err = convert.Marshal(d, convert.WriteOptions{})
			return err
		})
		fmt.Printf("%s\t%d\t%.6f\t%.6f\t%.6f\n", path, len(data), valid, ours, dlg)
	}
}

// median runs f (once untimed, to warm up) runs times and returns the
// median duration in seconds.
func median(runs int, f func() error) float64 {
	if err := f(); err != nil {
		fmt.Fprintln(os.Stderr, "benchrun:", err)
		os.Exit(1)
	}
	var ds []float64
	for i := 0; i < runs; i++ {
		runtime.GC()
		start := time.Now()
		if err := f(); err != nil {
			fmt.Fprintln(os.Stderr, "benchrun:", err)
			os.Exit(1)
		}
		ds = append(ds, time.Since(start).Seconds())
	}
	sort.Float64s(ds)
	return ds[len(ds)/2]
}

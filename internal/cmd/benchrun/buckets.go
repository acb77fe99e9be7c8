package main

// The -buckets measure: per-file minimum times of json.Valid and the round
// trips, summed over the corpus's size classes.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/nbformat"
)

// bucket is a size class of notebooks and the summed per-file minimum
// times of each measure over its files.
type bucket struct {
	name                  string
	upTo                  int64 // bytes; the last bucket has no bound
	files                 int
	valid, ours, dialog   float64
	pyFiles               int     // files Python also handled
	pyTime, pyOurs, pyDlg float64 // sums over those files only
	bytes                 int64
}

func newBuckets() []*bucket {
	return []*bucket{
		{name: "< 20 KB", upTo: 20e3},
		{name: "20–200 KB", upTo: 200e3},
		{name: "200 KB–2 MB", upTo: 2e6},
		{name: "> 2 MB", upTo: 1 << 62},
	}
}

// runBuckets measures every notebook under the given folders (or files):
// per file, the minimum of runs runs of json.Valid, the nbformat round trip
// and the dialog round trip; sums them by size bucket and prints the
// table, with Python nbformat's per-file minimum times (pyTimes: the
// output of scripts/reference/nbformat_bucket_timing.py) beside them.
func runBuckets(paths []string, runs int, pyTimes string) error {
	files, err := notebooks(paths)
	if err != nil {
		return err
	}
	py := map[string]float64{}
	if pyTimes != "" {
		if py, err = readPyTimes(pyTimes); err != nil {
			return err
		}
	}
	bs := newBuckets()
	skipped := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if _, err := convert.Unmarshal(data, convert.ReadOptions{}); err != nil {
			skipped++ // not a notebook we (or anyone) can round-trip
			continue
		}
		valid := minimum(runs, func() { json.Valid(data) })
		ours := minimum(runs, func() {
			nb, _ := nbformat.Unmarshal(data)
			_ = nbformat.Validate(nb)
			_, _ = nbformat.Marshal(nb)
		})
		dlg := minimum(runs, func() {
			d, _ := convert.Unmarshal(data, convert.ReadOptions{})
			_, _ = convert.Marshal(d, convert.WriteOptions{})
		})
		var b *bucket
		for _, c := range bs {
			if int64(len(data)) < c.upTo {
				b = c
				break
			}
		}
		b.files++
		b.bytes += int64(len(data))
		b.valid += valid
		b.ours += ours
		b.dialog += dlg
		if p, ok := py[path]; ok {
			b.pyFiles++
			b.pyTime += p
			b.pyOurs += ours
			b.pyDlg += dlg
		}
	}
	fmt.Printf("%d notebooks (%d not readable, left out); per file the minimum of %d runs, summed by size\n", len(files)-skipped, skipped, runs)
	fmt.Printf("%-12s %6s %8s | %14s %14s | %s\n", "size", "files", "MB", "nbformat÷Valid", "dialog÷Valid", "Python÷ours (nbformat / dialog)")
	for _, b := range bs {
		if b.files == 0 {
			continue
		}
		pyCol := "-"
		if b.pyFiles > 0 {
			pyCol = fmt.Sprintf("%.0fx / %.0fx (%d files)", b.pyTime/b.pyOurs, b.pyTime/b.pyDlg, b.pyFiles)
		}
		fmt.Printf("%-12s %6d %8.1f | %13.2fx %13.2fx | %s\n", b.name, b.files, float64(b.bytes)/1e6, b.ours/b.valid, b.dialog/b.valid, pyCol)
	}
	return nil
}

// notebooks lists the .ipynb files under paths (files are taken as they are).
func notebooks(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			out = append(out, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() && strings.HasSuffix(path, ".ipynb") {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

func readPyTimes(name string) (map[string]float64, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != 3 || fields[2] == "-" {
			continue
		}
		if s, err := strconv.ParseFloat(fields[2], 64); err == nil {
			out[fields[0]] = s
		}
	}
	return out, sc.Err()
}

// minimum runs f (once untimed, to warm up) runs times and returns the
// shortest duration in seconds.
func minimum(runs int, f func()) float64 {
	f()
	best := -1.0
	for range runs {
		runtime.GC()
		start := time.Now()
		f()
		if d := time.Since(start).Seconds(); best < 0 || d < best {
			best = d
		}
	}
	return best
}

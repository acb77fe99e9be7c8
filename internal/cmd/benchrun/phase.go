// benchrun's -phase mode: one measure run over a size range of notebooks, untimed, for instruction counts.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/nbformat"
)

// runPhase loads every notebook under paths whose size is in [lo, hi)
// bytes and that convert can read, then runs one measure over all of them
// runs times: "valid" (json.Valid), "nbformat" (Unmarshal + Validate +
// Marshal), "dialog" (convert.Unmarshal + Marshal) or "read" (nothing: the
// loading alone, to subtract from the others' counts). It reports nothing
// but the number of files and bytes, so that `valgrind --tool=callgrind`
// of each phase, less that of "read", is the phase's instruction count.
// With a non-empty profile it writes a CPU profile of the runs there.
func runPhase(paths []string, phase string, lo, hi int64, runs int, profile string) error {
	files, err := notebooks(paths)
	if err != nil {
		return err
	}
	var datas [][]byte
	var total int64
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if int64(len(data)) < lo || int64(len(data)) >= hi {
			continue
		}
		if _, err := convert.Unmarshal(data, convert.ReadOptions{}); err != nil {
			continue // left out of the buckets too
		}
		datas = append(datas, data)
		total += int64(len(data))
	}
	var f func([]byte)
	switch phase {
	case "read":
		f = func([]byte) {}
	case "valid":
		f = func(data []byte) { json.Valid(data) }
	case "nbformat":
		f = func(data []byte) {
			nb, _ := nbformat.Unmarshal(data)
			_ = nbformat.Validate(nb)
			_, _ = nbformat.Marshal(nb)
		}
	case "dialog":
		f = func(data []byte) {
			d, _ := convert.Unmarshal(data, convert.ReadOptions{})
			_, _ = convert.Marshal(d, convert.WriteOptions{})
		}
	default:
		return fmt.Errorf("unknown -phase %q (read, valid, nbformat or dialog)", phase)
	}
	if profile != "" {
		pf, err := os.Create(profile)
		if err != nil {
			return err
		}
		defer pf.Close()
		if err := pprof.StartCPUProfile(pf); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	for range runs {
		for _, data := range datas {
			f(data)
		}
	}
	fmt.Printf("%s: %d files, %d bytes, %d runs\n", phase, len(datas), total, runs)
	return nil
}

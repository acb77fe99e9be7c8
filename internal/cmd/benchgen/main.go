// Command benchgen writes a deterministic, output-heavy nbformat 4.5
// notebook of about the requested size, for benchmarks (nbtest.Heavy, as
// the scale tests make them): code cells with source lines, stream
// output, image/png display data (random bytes, base64, as Jupyter stores
// PNGs) and execute_result text and HTML tables; markdown cells between
// them. It is written in Python nbformat's canonical style, so Python
// nbformat reads and writes it unchanged.
//
// With -dense it writes instead a small notebook holding one dense value of
// about the requested size, the worst case for memory per byte: "meta" puts
// {"x":[0,0,…]} in the notebook metadata, "cell" in a cell's metadata,
// "output" as application/json output data, "objects" puts
// {"x":[{"a":0},…]} in the notebook metadata, and "source" makes a cell's
// source a list of one-character lines ["a","a",…].
//
// Usage: benchgen -mb 100 -o big.ipynb
//
//	benchgen -mb 50 -dense meta -o dense.ipynb
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

func main() {
	mb := flag.Float64("mb", 10, "approximate size in megabytes (10^6 bytes)")
	out := flag.String("o", "", "output file")
	seed := flag.Uint64("seed", 1, "random seed")
	dense := flag.String("dense", "", "write one dense value instead: meta, cell, output, objects or source")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: benchgen -mb N -o FILE")
		os.Exit(2)
	}
	var data []byte
	var err error
	if *dense != "" {
		data, err = generateDense(int(*mb*1e6), *dense)
	} else {
		data = generate(int(*mb*1e6), *seed)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
}

// generate is the output-heavy notebook of about size bytes: nbtest.Heavy
// with the outputs of a plotting notebook (a 20-line stream, a 30–70 kB
// PNG, a 15-row table).
func generate(size int, seed uint64) []byte {
	return nbtest.Heavy{
		Bytes: size, Seed: seed,
		Kinds:       []nbtest.OutputKind{nbtest.Stream, nbtest.Image, nbtest.Table},
		StreamLines: 20, TableRows: 15, ImageBytes: 30000, ImageJitter: 40000,
	}.Notebook()
}

// generateDense writes a notebook whose bulk is one value of many small
// values (see the package comment): nbtest.Dense of about size bytes.
func generateDense(size int, where string) ([]byte, error) {
	item := "0"
	switch where {
	case "meta", "cell", "output":
	case "objects":
		item = `{"a":0}`
	case "source":
		item = `"a"`
	default:
		return nil, fmt.Errorf("unknown -dense %q (meta, cell, output, objects or source)", where)
	}
	return nbtest.Dense(where, max(1, size/(len(item)+1))), nil
}

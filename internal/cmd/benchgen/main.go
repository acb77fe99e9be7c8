// Command benchgen writes a deterministic, output-heavy nbformat 4.5
// notebook of about the requested size, for benchmarks: code cells with
// source lines, stream output, execute_result text and HTML tables, and
// image/png display data (random bytes, base64, as Jupyter stores PNGs);
// markdown cells between them. It is written in Python nbformat's
// canonical style, so Python nbformat reads and writes it unchanged.
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
	"encoding/base64"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/nbdialog/ipynb/nbformat"
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
		data, err = generate(int(*mb*1e6), *seed)
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

func generate(size int, seed uint64) ([]byte, error) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	nb := nbformat.New()
	nb.Metadata.Kernelspec = &nbformat.Kernelspec{Name: "python3", DisplayName: "Python 3"}
	estimate := 200
	for i := 0; estimate < size; i++ {
		md := nbformat.NewMarkdownCell(fmt.Sprintf("## Step %d\n\nWe look at *sample %d* with café ☕ and a table.", i, i))
		md.ID = nbformat.CellID(fmt.Sprintf("m%07d", i))
		var src strings.Builder
		for l := 0; l < 8; l++ {
			fmt.Fprintf(&src, "x_%d_%d = compute(%d, scale=%0.3f)\n", i, l, l, rng.Float64())
		}
		src.WriteString("plot(x)")
		code := nbformat.NewCodeCell(src.String())
		code.ID = nbformat.CellID(fmt.Sprintf("c%07d", i))
		n := i + 1
		code.ExecutionCount = &n
		var stream strings.Builder
		for l := 0; l < 20; l++ {
			fmt.Fprintf(&stream, "epoch %d: loss=%0.6f acc=%0.4f\n", l, rng.Float64(), rng.Float64())
		}
		png := make([]byte, 30000+rng.IntN(40000))
		for k := range png {
			png[k] = byte(rng.Uint32())
		}
		var html strings.Builder
		html.WriteString("<table>\n")
		for r := 0; r < 15; r++ {
			fmt.Fprintf(&html, "<tr><td>%d</td><td>%0.5f</td><td>%0.5f</td></tr>\n", r, rng.Float64(), rng.Float64())
		}
		html.WriteString("</table>")
		image := nbformat.NewDisplayData(nbformat.NewMimeBundle(
			"image/png", base64.StdEncoding.EncodeToString(png)+"\n",
			"text/plain", "<Figure size 640x480 with 1 Axes>"))
		result := nbformat.NewExecuteResult(n, nbformat.NewMimeBundle(
			"text/html", html.String(),
			"text/plain", fmt.Sprintf("array([%0.4f, %0.4f, %0.4f])", rng.Float64(), rng.Float64(), rng.Float64())))
		code.Outputs = []nbformat.Output{nbformat.NewStream("stdout", stream.String()), image, result}
		nb.Cells = append(nb.Cells, md, code)
		estimate += 2000 + len(png)*4/3 + stream.Len() + html.Len()*2
	}
	return nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
}

// generateDense writes a notebook whose bulk is one value of many small
// values (see the package comment).
func generateDense(size int, where string) ([]byte, error) {
	item := "0"
	switch where {
	case "objects":
		item = `{"a":0}`
	case "source":
		item = `"a"`
	}
	n := max(1, size/(len(item)+1))
	var b strings.Builder
	b.Grow(size + 1024)
	b.WriteString(`{"x":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(item)
	}
	b.WriteString("]}")
	value := b.String()
	nbMeta, cellMeta, data, source := "{}", "{}", `{"text/plain":"0"}`, `"x"`
	switch where {
	case "source":
		source = strings.TrimSuffix(strings.TrimPrefix(value, `{"x":`), "}")
	case "meta", "objects":
		nbMeta = value
	case "cell":
		cellMeta = value
	case "output":
		data = `{"application/json":` + value + `,"text/plain":"0"}`
	default:
		return nil, fmt.Errorf("unknown -dense %q (meta, cell, output, objects or source)", where)
	}
	return []byte(`{"cells":[{"cell_type":"code","execution_count":1,"id":"c1","metadata":` + cellMeta +
		`,"outputs":[{"data":` + data + `,"execution_count":1,"metadata":{},"output_type":"execute_result"}],"source":` + source + `}],` +
		`"metadata":` + nbMeta + `,"nbformat":4,"nbformat_minor":5}` + "\n"), nil
}

// Command benchgen writes a deterministic, output-heavy nbformat 4.5
// notebook of about the requested size, for benchmarks: code cells with
// source lines, stream output, execute_result text and HTML tables, and
// image/png display data (random bytes, base64, as Jupyter stores PNGs);
// markdown cells between them. It is written in Python nbformat's
// canonical style, so Python nbformat reads and writes it unchanged.
//
// Usage: benchgen -mb 100 -o big.ipynb
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
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: benchgen -mb N -o FILE")
		os.Exit(2)
	}
	data, err := generate(int(*mb*1e6), *seed)
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

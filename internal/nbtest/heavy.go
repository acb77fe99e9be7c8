package nbtest

// Heavy, a deterministic output-heavy notebook of a given size, written as
// Python nbformat writes it, for scale tests and benchmarks.

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// An OutputKind is a kind of output [Heavy] gives its code cells.
type OutputKind int

// The outputs Heavy writes, with random numbers in them.
const (
	// Stream is a stdout stream of StreamLines lines
	// "epoch J: loss=… acc=…", stored as a list of lines.
	Stream OutputKind = iota
	// Table is an execute_result: an HTML table of TableRows rows and
	// a text/plain array, both stored as lists of lines.
	Table
	// Image is a display_data: random bytes (ImageBytes to
	// ImageBytes+ImageJitter of them) as base64 image/png, and a
	// text/plain "<Figure …>".
	Image
	// Error is an error output: a ValueError with a traceback of
	// TracebackLines lines (with ANSI colour codes, as IPython writes
	// them).
	Error
)

// Heavy describes a deterministic, output-heavy nbformat 4.5 notebook of
// a given size, for scale tests and benchmarks (internal/cmd/benchgen
// writes one): code cells, each holding Outputs outputs and followed by a
// markdown cell. The same description gives the same bytes. They are
// Python nbformat's canonical bytes (nbformat.writes + "\n": indent 1,
// keys sorted, text as lists of lines, raw UTF-8), so Python nbformat
// reads and writes them unchanged, except that ImageLines stores images
// as lines, as older writers did (Python joins them when it reads).
//
// Its zero value, with Cells or Bytes set, is a useful description: the
// defaults are those of the comment of each field.
type Heavy struct {
	// Cells is the number of code cells. With Cells 0, Bytes sets the
	// size instead.
	Cells int
	// Bytes is the least size of the file when Cells is 0: cells are
	// added until it is reached (each code and markdown cell pair is
	// about 5 kB with the defaults, plus the images' base64).
	Bytes int
	// Seed seeds the random numbers (the notebook's text and images).
	Seed uint64
	// Kinds are the kinds of the outputs of each code cell, in order
	// (nil: Stream, Table, Image).
	Kinds []OutputKind
	// Outputs is the number of outputs of each code cell, their kinds
	// taken from Kinds in turn, starting again at its first when it runs
	// out (0: len(Kinds), each kind once).
	Outputs int
	// StreamLines is the number of lines of a Stream output (0: 40).
	StreamLines int
	// TableRows is the number of rows of a Table output (0: 30).
	TableRows int
	// ImageBytes is the least size of an Image's PNG before base64 (0:
	// 6000); ImageJitter more bytes at most are added at random.
	ImageBytes, ImageJitter int
	// ImageLines stores an image's base64 as a list of lines of 76
	// characters (as older writers did); without it, as one string
	// ending in a newline, as Jupyter writes it.
	ImageLines bool
	// TracebackLines is the number of lines of an Error's traceback (0:
	// 12).
	TracebackLines int
}

func (h Heavy) withDefaults() Heavy {
	if h.Kinds == nil {
		h.Kinds = []OutputKind{Stream, Table, Image}
	}
	def := func(p *int, v int) {
		if *p <= 0 {
			*p = v
		}
	}
	def(&h.Outputs, len(h.Kinds))
	def(&h.StreamLines, 40)
	def(&h.TableRows, 30)
	def(&h.ImageBytes, 6000)
	def(&h.TracebackLines, 12)
	h.ImageJitter = max(0, h.ImageJitter)
	return h
}

// Notebook returns the notebook's bytes (see Heavy). It panics when
// neither Cells nor Bytes is set, or Kinds is empty but not nil.
func (h Heavy) Notebook() []byte {
	h = h.withDefaults()
	if h.Cells <= 0 && h.Bytes <= 0 || len(h.Kinds) == 0 {
		panic(fmt.Sprintf("nbtest: Heavy with neither Cells nor Bytes, or no Kinds: %+v", h))
	}
	g := &heavyWriter{h: h, rng: rand.New(rand.NewPCG(h.Seed, h.Seed^0x9e3779b97f4a7c15))}
	b := &g.b
	b.WriteString("{\n \"cells\": [")
	for i := 0; h.Cells > 0 && i < h.Cells || h.Cells <= 0 && (i == 0 || b.Len() < h.Bytes); i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		g.markdownCell(i)
		b.WriteByte(',')
		g.codeCell(i)
	}
	b.WriteString("\n ],\n \"metadata\": {\n  \"kernelspec\": {\n   \"display_name\": \"Python 3\",\n" +
		"   \"language\": \"python\",\n   \"name\": \"python3\"\n  },\n  \"language_info\": {\n" +
		"   \"name\": \"python\"\n  }\n },\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n")
	return []byte(b.String())
}

// WriteFile writes the notebook (see Heavy) to a file in dir named after
// its cells and seed, and returns its path and size.
func (h Heavy) WriteFile(t testing.TB, dir string) (path string, size int64) {
	t.Helper()
	data := h.Notebook()
	path = filepath.Join(dir, fmt.Sprintf("heavy-%d-%d-%d.ipynb", h.Cells, h.Bytes, h.Seed))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, int64(len(data))
}

// heavyWriter writes one Heavy notebook.
type heavyWriter struct {
	h   Heavy
	rng *rand.Rand
	b   strings.Builder
}

// indent starts a new line indented by n spaces.
func (g *heavyWriter) indent(n int) {
	g.b.WriteByte('\n')
	for range n {
		g.b.WriteByte(' ')
	}
}

// key writes `"k": ` on a new line indented by n.
func (g *heavyWriter) key(n int, k string) {
	g.indent(n)
	g.b.WriteString(quote(k))
	g.b.WriteString(": ")
}

// lines writes text as Python nbformat does, a list of its lines (each
// with its newline), its items indented by n.
func (g *heavyWriter) lines(n int, text string) {
	g.list(n, strings.SplitAfter(strings.TrimSuffix(text, "\n"), "\n"), text)
}

// list writes items as a JSON list of strings, indented by n; the last
// item gets back the newline the text ends with, if any.
func (g *heavyWriter) list(n int, items []string, text string) {
	if strings.HasSuffix(text, "\n") {
		items[len(items)-1] += "\n"
	}
	g.b.WriteByte('[')
	for i, l := range items {
		if i > 0 {
			g.b.WriteByte(',')
		}
		g.indent(n)
		g.b.WriteString(quote(l))
	}
	g.indent(n - 1)
	g.b.WriteByte(']')
}

func (g *heavyWriter) markdownCell(i int) {
	g.indent(2)
	g.b.WriteString(`{`)
	g.key(3, "cell_type")
	g.b.WriteString(`"markdown",`)
	g.key(3, "id")
	g.b.WriteString(quote(fmt.Sprintf("m%07d", i)) + ",")
	g.key(3, "metadata")
	g.b.WriteString("{},")
	g.key(3, "source")
	g.lines(4, fmt.Sprintf("## Step %d\n\nWe look at *sample %d* with café ☕ and a table.", i, i))
	g.indent(2)
	g.b.WriteByte('}')
}

func (g *heavyWriter) codeCell(i int) {
	var src strings.Builder
	for l := range 8 {
		fmt.Fprintf(&src, "x_%d_%d = compute(%d, scale=%0.3f)\n", i, l, l, g.rng.Float64())
	}
	src.WriteString("plot(x)")
	count := strconv.Itoa(i + 1)
	g.indent(2)
	g.b.WriteString(`{`)
	g.key(3, "cell_type")
	g.b.WriteString(`"code",`)
	g.key(3, "execution_count")
	g.b.WriteString(count + ",")
	g.key(3, "id")
	g.b.WriteString(quote(fmt.Sprintf("c%07d", i)) + ",")
	g.key(3, "metadata")
	g.b.WriteString("{},")
	g.key(3, "outputs")
	g.b.WriteByte('[')
	for j := range g.h.Outputs {
		if j > 0 {
			g.b.WriteByte(',')
		}
		g.indent(4)
		g.b.WriteByte('{')
		g.output(g.h.Kinds[j%len(g.h.Kinds)], count)
		g.indent(4)
		g.b.WriteByte('}')
	}
	g.indent(3)
	g.b.WriteString("],")
	g.key(3, "source")
	g.lines(4, src.String())
	g.indent(2)
	g.b.WriteByte('}')
}

// output writes the members of one output (sorted, indented by 5).
func (g *heavyWriter) output(k OutputKind, count string) {
	rng := g.rng
	switch k {
	case Stream:
		var text strings.Builder
		for l := range g.h.StreamLines {
			fmt.Fprintf(&text, "epoch %d: loss=%0.6f acc=%0.4f\n", l, rng.Float64(), rng.Float64())
		}
		g.key(5, "name")
		g.b.WriteString(`"stdout",`)
		g.key(5, "output_type")
		g.b.WriteString(`"stream",`)
		g.key(5, "text")
		g.lines(6, text.String())
	case Table:
		var html strings.Builder
		html.WriteString("<table>\n")
		for r := range g.h.TableRows {
			fmt.Fprintf(&html, "<tr><td>%d</td><td>%0.5f</td><td>%0.5f</td></tr>\n", r, rng.Float64(), rng.Float64())
		}
		html.WriteString("</table>")
		g.key(5, "data")
		g.b.WriteByte('{')
		g.key(6, "text/html")
		g.lines(7, html.String())
		g.b.WriteByte(',')
		g.key(6, "text/plain")
		g.lines(7, fmt.Sprintf("array([%0.4f, %0.4f, %0.4f])", rng.Float64(), rng.Float64(), rng.Float64()))
		g.indent(5)
		g.b.WriteString("},")
		g.key(5, "execution_count")
		g.b.WriteString(count + ",")
		g.key(5, "metadata")
		g.b.WriteString("{},")
		g.key(5, "output_type")
		g.b.WriteString(`"execute_result"`)
	case Image:
		png := make([]byte, g.h.ImageBytes+rng.IntN(g.h.ImageJitter+1))
		for j := range png {
			png[j] = byte(rng.Uint32())
		}
		b64 := base64.StdEncoding.EncodeToString(png)
		g.key(5, "data")
		g.b.WriteByte('{')
		g.key(6, "image/png")
		if g.h.ImageLines {
			var ls []string
			for len(b64) > 76 {
				ls = append(ls, b64[:76]+"\n")
				b64 = b64[76:]
			}
			g.list(7, append(ls, b64), "")
		} else {
			g.b.WriteString(quote(b64 + "\n"))
		}
		g.b.WriteByte(',')
		g.key(6, "text/plain")
		g.lines(7, "<Figure size 640x480 with 1 Axes>")
		g.indent(5)
		g.b.WriteString("},")
		g.key(5, "metadata")
		g.b.WriteString("{},")
		g.key(5, "output_type")
		g.b.WriteString(`"display_data"`)
	case Error:
		value := fmt.Sprintf("bad scale %0.4f", rng.Float64())
		tb := make([]string, g.h.TracebackLines)
		for l := range tb {
			tb[l] = fmt.Sprintf("\x1b[0;32m  File \"/tmp/x.py\", line %d\x1b[0m, in step_%d\n    compute(scale=%0.3f)", l+1, l, rng.Float64())
		}
		tb[len(tb)-1] = "\x1b[0;31mValueError\x1b[0m: " + value
		g.key(5, "ename")
		g.b.WriteString(`"ValueError",`)
		g.key(5, "evalue")
		g.b.WriteString(quote(value) + ",")
		g.key(5, "output_type")
		g.b.WriteString(`"error",`)
		g.key(5, "traceback")
		g.list(6, tb, "")
	default:
		panic(fmt.Sprintf("nbtest: unknown OutputKind %d", k))
	}
}

// quote is s as a JSON string as Python's json.dumps(ensure_ascii=False)
// writes it.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

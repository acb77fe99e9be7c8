package convert_test

// A generator of version 2 and 3 notebooks of odd shapes, and a dump of what
// reading and writing them gives, for comparing two trees.

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// Generated version 2 and 3 notebooks of every shape the reading of
// version 3 dialogs meets (headings of every level, pyout, pyerr,
// stream, display_data and unknown outputs, several or no worksheets,
// metadata of odd types, unicode, empty and long texts, invalid cells):
// v3Gen writes one from a seed, dumpDialog prints what a dialog read
// holds (messages, ids, metadata, attributes, outputs decoded), and
// v3Writes what writing it gives after edits.

type v3Gen struct {
	r    *rand.Rand
	rare int // odd shapes come once in rare choices
}

// odd reports whether to make an odd shape.
func (g v3Gen) odd() bool { return g.r.IntN(g.rare) == 0 }

func (g v3Gen) pick(xs ...any) any { return xs[g.r.IntN(len(xs))] }

func (g v3Gen) text() any {
	words := []string{"", "a", "x = 1", "# T", "ü ß 漢字 😀", "line\n", "\t", "\\n", "\"q\"", "\u0000z", "\r\n", "<b>h</b>", "---", "solveit", "##### reply"}
	if g.r.IntN(20) == 0 {
		return strings.Repeat("long ", 2000+g.r.IntN(100))
	}
	n := g.r.IntN(4)
	if g.r.IntN(2) == 0 {
		var sb strings.Builder
		for range n {
			sb.WriteString(words[g.r.IntN(len(words))])
		}
		return sb.String()
	}
	lines := []any{}
	for range n {
		lines = append(lines, words[g.r.IntN(len(words))]+g.pick("", "\n").(string))
	}
	return lines
}

func (g v3Gen) scalar() any {
	if !g.odd() {
		return g.pick(true, 0, 1, 42, "s", "ü", false)
	}
	return g.pick(nil, true, false, 0, 1, -3, 1.5, 1e300, "s", "ü", json.Number("123456789012345678901234"), json.Number("1.0"), json.Number("1E5"))
}

func (g v3Gen) value(depth int) any {
	if depth > 2 || g.r.IntN(3) > 0 {
		return g.scalar()
	}
	if g.r.IntN(2) == 0 {
		return []any{g.value(depth + 1), g.scalar()}
	}
	return map[string]any{"k": g.value(depth + 1), "ü": g.scalar()}
}

func (g v3Gen) meta() any {
	if g.odd() {
		return g.pick(nil, 3, "m", []any{1})
	}
	m := map[string]any{}
	keys := []string{"tags", "collapsed", "scrolled", "name", "solveit_ai", "trusted", "slideshow", "skipped", "pinned", "hide_input", "bookmark", "jupyter", "execution", "heading_collapsed", "ExecuteTime", "x"}
	for range g.r.IntN(4) {
		k := keys[g.r.IntN(len(keys))]
		switch {
		case g.odd():
			m[k] = g.pick([]any{"a", "b"}, []any{"a,b"}, []any{}, map[string]any{})
		default:
			m[k] = g.value(0)
		}
	}
	return m
}

func (g v3Gen) output() any {
	switch g.r.IntN(9) {
	case 0:
		return map[string]any{"output_type": "pyout", "prompt_number": g.pick(1, nil, 7, "2"), "text": g.text(), "metadata": g.meta()}
	case 1:
		return map[string]any{"output_type": "pyerr", "ename": "E", "evalue": g.text(), "traceback": g.pick([]any{"t1", "t2"}, []any{}, "tb")}
	case 2:
		return map[string]any{"output_type": "stream", "stream": g.pick("stdout", "stderr", 3, nil), "text": g.text()}
	case 3:
		return map[string]any{"output_type": "display_data", "html": g.text(), "png": "iVBORw0KGgo=", "metadata": g.meta()}
	case 4:
		return map[string]any{"output_type": "display_data", "json": g.value(0), "javascript": g.text(), "latex": g.text(), "svg": g.text(), "jpeg": "AAAA"}
	case 5:
		if !g.odd() {
			return map[string]any{"output_type": "pyerr", "ename": "ü", "evalue": "", "traceback": []any{}}
		}
		return map[string]any{"output_type": g.pick("weird", "Stream", "", 3), "text": g.text()}
	case 6:
		if g.odd() {
			return g.pick(1, "o", nil, []any{})
		}
		return map[string]any{"output_type": "stream", "stream": "stdout", "text": g.text()}
	case 7:
		return map[string]any{"output_type": "stream", "name": "stdout", "text": g.text(), "metadata": g.meta()}
	}
	return map[string]any{"output_type": "pyout", "prompt_number": 3, "text": g.text(), "html": g.text(), "application/json": g.value(0)}
}

func (g v3Gen) cell() any {
	c := map[string]any{}
	switch g.r.IntN(10) {
	case 0, 1, 2:
		c["cell_type"] = "code"
		if g.r.IntN(10) > 0 {
			c["input"] = g.text()
		}
		c["language"] = "python"
		if g.r.IntN(5) > 0 {
			c["prompt_number"] = g.pick(1, nil, 2, 1.5, "3", -1)
		}
		if g.r.IntN(3) == 0 {
			c["collapsed"] = g.pick(true, false, 1, nil)
		}
		if g.r.IntN(10) > 0 {
			outs := []any{}
			for range g.r.IntN(4) {
				outs = append(outs, g.output())
			}
			c["outputs"] = outs
		}
	case 3:
		c["cell_type"] = "heading"
		if g.r.IntN(8) > 0 {
			c["level"] = g.pick(1, 2, 3, 4, 5, 6, 0, 7, -1, "2", 2.0, nil)
		}
		c["source"] = g.text()
	case 4, 5:
		c["cell_type"] = "markdown"
		c["source"] = g.text()
	case 6:
		c["cell_type"] = g.pick("raw", "html", "Markdown", "plaintext")
		c["source"] = g.text()
	case 7:
		c["cell_type"] = "heading"
		c["level"] = g.r.IntN(8)
		if g.odd() {
			c["cell_type"] = g.pick("unknown", nil, 3)
		}
		c["source"] = g.text()
	case 8:
		if g.odd() {
			return g.pick(1, "cell", nil, []any{})
		}
		c["cell_type"] = "code"
		c["input"] = g.text()
		c["outputs"] = []any{g.output(), g.output()}
	default:
		c["cell_type"] = "markdown"
		c["source"] = g.text()
		if !g.odd() {
			break
		}
		c["attachments"] = map[string]any{"a.png": map[string]any{"image/png": "AAAA"}}
	}
	if g.r.IntN(6) > 0 {
		c["metadata"] = g.meta()
	}
	return c
}

// notebook returns the JSON of a generated version 2 or 3 notebook.
func (g v3Gen) notebook() []byte {
	nb := map[string]any{"nbformat": g.pick(3, 3, 3, 2), "nbformat_minor": g.pick(0, 0, 0, 0, 1)}
	md := map[string]any{"name": g.pick("n", "", 3)}
	if g.r.IntN(2) == 0 {
		md["kernelspec"] = map[string]any{"name": "python3", "display_name": "P"}
	}
	if g.r.IntN(3) == 0 {
		md["signature"] = "sha256:00"
		md["odd"] = g.value(0)
	}
	nb["metadata"] = md
	switch g.r.IntN(12) {
	case 0:
	case 1:
		nb["worksheets"] = g.pick(nil, 3, map[string]any{})
	default:
		wss := []any{}
		for range g.pick(1, 1, 1, 2, 3, 0).(int) {
			ws := map[string]any{"metadata": map[string]any{}}
			cells := []any{}
			for range g.r.IntN(7) {
				cells = append(cells, g.cell())
			}
			if g.r.IntN(15) > 0 {
				ws["cells"] = cells
			}
			wss = append(wss, ws)
		}
		nb["worksheets"] = wss
	}
	b, err := json.MarshalIndent(nb, "", g.pick(" ", "  ", "").(string))
	if err != nil {
		panic(err)
	}
	return b
}

// dumpDialog prints what d holds, outputs decoded.
func dumpDialog(d *dialog.Dialog) string {
	var sb strings.Builder
	meta := typedDump(d.Meta)
	fmt.Fprintf(&sb, "name=%q meta=%s\n", d.Name, meta)
	for _, m := range d.Messages {
		mm, ma := typedDump(m.Meta), typedDump(m.Attrs)
		ec := "nil"
		if m.ExecutionCount != nil {
			ec = strconv.Itoa(*m.ExecutionCount)
		}
		fmt.Fprintf(&sb, "%s %s %q ec=%s meta=%s attrs=%s att=%d\n", m.ID, m.Kind, m.Content, ec, mm, ma, len(m.Attachments))
		for _, a := range m.Attachments {
			fmt.Fprintf(&sb, "  att %s %s %q\n", a.ID, a.MIME, a.Data)
		}
		for _, o := range m.Outputs {
			g, err := o.Map()
			j := typedDump(g)
			fmt.Fprintf(&sb, "  out %s %s %v reply=%v\n", o.Type(), j, err, o.IsReply())
		}
	}
	return sb.String()
}

// typedDump prints a generic value with the Go type of every scalar
// (int, float64, json.Number, json.RawMessage are told apart), maps in
// key order.
func typedDump(v any) string {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var sb strings.Builder
		sb.WriteString("{")
		for _, k := range keys {
			fmt.Fprintf(&sb, "%q:%s,", k, typedDump(v[k]))
		}
		return sb.String() + "}"
	case []any:
		var sb strings.Builder
		sb.WriteString("[")
		for _, x := range v {
			sb.WriteString(typedDump(x) + ",")
		}
		return sb.String() + "]"
	case json.RawMessage:
		var b bytes.Buffer
		if json.Compact(&b, v) != nil {
			return fmt.Sprintf("badraw(%s)", v)
		}
		return fmt.Sprintf("raw(%s)", b.Bytes())
	case []string:
		return fmt.Sprintf("strs%q", v)
	}
	return fmt.Sprintf("%T(%#v)", v, v)
}

// v3Writes reads data and writes it through a sequence of calls,
// returning what each step gave.
func v3Writes(data []byte, reg *convert.Registry) string {
	o := convert.Options{Registry: reg}
	var sb strings.Builder
	step := func(name string, b []byte, err error) {
		fmt.Fprintf(&sb, "%s: %x %d %v\n", name, sha256.Sum256(b), len(b), err)
	}
	d, err := o.Unmarshal(data)
	if err != nil {
		return "read: " + err.Error()
	}
	sb.WriteString(dumpDialog(d.Dialog))
	b, err := o.Marshal(d)
	step("marshal", b, err)
	nb, err := o.ToNotebook(d)
	if err == nil {
		b, err = nbformat.Marshal(nb)
	}
	step("tonotebook", b, err)
	d2, _ := o.Unmarshal(data)
	if len(d2.Messages) > 0 {
		d2.Messages[len(d2.Messages)-1].Content += "e"
		b, err = o.Marshal(d2)
		step("edit-last", b, err)
		ours := b
		d3, _ := o.Unmarshal(data)
		d3.Messages[0].Content += "\nt"
		theirs, err := o.Marshal(d3)
		step("edit-first", theirs, err)
		if ours != nil && theirs != nil {
			r, err := o.Merge(data, ours, theirs, dialog.MergeOptions{})
			if err == nil {
				step("merge", r.Data, nil)
			} else {
				step("merge", nil, err)
			}
		}
	}
	d4, _ := o.Unmarshal(data)
	d4.Random = rand.NewChaCha8([32]byte{3})
	d4.Add(dialog.Code, "new")
	if len(d4.Messages) > 2 {
		d4.Messages[0], d4.Messages[1] = d4.Messages[1], d4.Messages[0]
	}
	for _, m := range d4.Messages {
		if len(m.Outputs) > 1 {
			m.Outputs = m.Outputs[1:]
			break
		}
	}
	b, err = o.Marshal(d4)
	step("reorder-add-trim", b, err)
	if err == nil {
		d5, err := o.Unmarshal(b)
		if err == nil {
			sb.WriteString(dumpDialog(d5.Dialog))
		}
	}
	return sb.String()
}

// TestV3GenDiffManifest writes, for generated version 2 and 3 notebooks,
// what reading and writing them gives to $LAZYATTACK_OUT (run in two
// trees, compared with diff).
func TestV3GenDiffManifest(t *testing.T) {
	t.Parallel()
	out := os.Getenv("LAZYATTACK_OUT")
	if out == "" {
		t.Skip("LAZYATTACK_OUT not set")
	}
	n := 3000
	if s := os.Getenv("LAZYATTACK_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	var lines []string
	for i := range n {
		data := v3Gen{rand.New(rand.NewPCG(uint64(i), 7)), []int{2, 8, 40, 1000}[i%4]}.notebook()
		for _, reg := range []*convert.Registry{nil, convert.MustRegistry(convert.Solveit())} {
			got := v3Writes(data, reg)
			line := fmt.Sprintf("%05d %v %x", i, reg != nil, sha256.Sum256([]byte(got)))
			if os.Getenv("LAZYATTACK_KEEP") != "" {
				line += "\n" + got
			}
			lines = append(lines, line)
		}
	}
	sort.Strings(lines)
	if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

package nbmap_test

// The differential test of the move from internal/nbgeneric (nbformat's
// own conversions, reached through function variables) to this package:
// both give the same values and errors on every cell, output and
// metadata of testdata and of the corpus, and on values at the edges.

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/mimetype"
	"github.com/nbdialog/ipynb/internal/nbgeneric"
	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/nbformat"
)

// notebooks yields testdata's notebooks and the corpus sample's.
func notebooks(t *testing.T, f func(where string, nb *nbformat.Notebook)) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "*.ipynb"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if nb, err := nbformat.Unmarshal(data); err == nil {
			f(p, nb)
		}
	}
	if corpus.Shared() == "" {
		return
	}
	for e, data := range corpus.Sample(t) {
		if nb, err := nbformat.Unmarshal(data); err == nil {
			f(e.Path, nb)
		}
	}
}

func metadataOf(c nbformat.Cell) any {
	switch c := c.(type) {
	case *nbformat.CodeCell:
		return &c.Metadata
	case *nbformat.MarkdownCell:
		return &c.Metadata
	case *nbformat.RawCell:
		return &c.Metadata
	}
	return nil
}

// sameErr reports whether two errors are both nil, or both not nil with
// the same cycle's place when one names it.
func sameErr(a, b error) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	var fa, fb *nbformat.FormatError
	if errors.As(a, &fa) || errors.As(b, &fb) {
		return errors.As(a, &fa) && errors.As(b, &fb) && fa.Pointer == fb.Pointer && fa.Msg == fb.Msg
	}
	return true
}

var rawBytes = cmp.Comparer(func(a, b json.RawMessage) bool { return string(a) == string(b) })

var nanEqual = cmp.Comparer(func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) })

// joinTexts joins, in place, the texts of a cell or an output as the old
// route gives them (lists of lines kept as lists): the new one gives every
// text as one string.
func joinTexts(m map[string]any) {
	join := func(o map[string]any, k string) {
		if l, ok := o[k].([]any); ok {
			if s, ok := lines.Join(l); ok {
				o[k] = s
			}
		}
	}
	bundle := func(b any) {
		if b, ok := b.(map[string]any); ok {
			for k := range b {
				if !mimetype.IsJSON(k) {
					join(b, k)
				}
			}
		}
	}
	if _, isCell := m["cell_type"]; isCell {
		join(m, "source")
		if atts, ok := m["attachments"].(map[string]any); ok {
			for _, b := range atts {
				bundle(b)
			}
		}
		if outs, ok := m["outputs"].([]any); ok {
			for _, o := range outs {
				if o, ok := o.(map[string]any); ok {
					joinTexts(o)
				}
			}
		}
		return
	}
	switch m["output_type"] {
	case "stream":
		join(m, "text")
	case "display_data", "execute_result":
		bundle(m["data"])
	}
}

func checkToMap(t *testing.T, where string, v any) map[string]any {
	t.Helper()
	want, werr := nbgeneric.ToMap(v)
	got, err := nbmap.ToMap(v)
	switch v.(type) {
	case *nbformat.CodeCell, *nbformat.MarkdownCell, *nbformat.RawCell:
		if want != nil {
			joinTexts(want)
		}
	}
	if !sameErr(err, werr) {
		t.Fatalf("%s: ToMap error %v, old %v", where, err, werr)
	}
	if diff := cmp.Diff(want, got, rawBytes, nanEqual); diff != "" {
		t.Fatalf("%s: ToMap (-old +new):\n%s", where, diff)
	}
	return want
}

// checkFromMap compares FromMap into a new value of the type of ptr's.
func checkFromMap(t *testing.T, where string, m map[string]any, newPtr func() any) {
	t.Helper()
	want, got := newPtr(), newPtr()
	werr := nbgeneric.FromMap(m, want)
	err := nbmap.FromMap(m, got)
	if !sameErr(err, werr) {
		t.Fatalf("%s: FromMap error %v, old %v", where, err, werr)
	}
	if werr != nil {
		return
	}
	if diff := cmp.Diff(want, got, rawBytes, nanEqual); diff != "" {
		t.Fatalf("%s: FromMap (-old +new):\n%s", where, diff)
	}
}

// outputJSON is an output as the writer writes it in a notebook of each
// style (texts as lines, and as strings), and as generic JSON.
func outputJSON(t *testing.T, o nbformat.Output) string {
	t.Helper()
	var b strings.Builder
	for _, src := range []string{`["a\n", "b"]`, `"a\nb"`} {
		nb, err := nbformat.Unmarshal([]byte(`{"cells": [{"cell_type": "code", "execution_count": null, "id": "x", "metadata": {}, "outputs": [], "source": ` + src + `}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`))
		if err != nil {
			t.Fatal(err)
		}
		nb.Cells[0].(*nbformat.CodeCell).Outputs = []nbformat.Output{o}
		out, err := nbformat.Marshal(nb)
		if err != nil {
			fmt.Fprintf(&b, "error %v\n", err)
			continue
		}
		b.Write(out)
	}
	g, err := nbgeneric.OutputToMap(o)
	fmt.Fprintf(&b, "%#v %v", g, err)
	switch o := o.(type) {
	case *nbformat.DisplayData:
		fmt.Fprintf(&b, " %q", o.Data.Keys())
	case *nbformat.ExecuteResult:
		fmt.Fprintf(&b, " %q", o.Data.Keys())
	}
	return b.String()
}

func checkOutputFromMap(t *testing.T, where string, m map[string]any) {
	t.Helper()
	w, werr := nbgeneric.OutputFromMap(m)
	got, err := nbmap.OutputFromMap(m)
	if !sameErr(err, werr) {
		t.Fatalf("%s: OutputFromMap error %v, old %v", where, err, werr)
	}
	if werr != nil {
		return
	}
	want := w.(nbformat.Output)
	if fmt.Sprintf("%T", want) != fmt.Sprintf("%T", got) {
		t.Fatalf("%s: OutputFromMap gave a %T, old a %T", where, got, want)
	}
	if a, b := outputJSON(t, want), outputJSON(t, got); a != b {
		t.Fatalf("%s: OutputFromMap:\nold %s\nnew %s", where, a, b)
	}
}

func newOfType(v any) func() any {
	switch v.(type) {
	case *nbformat.CodeCellMetadata:
		return func() any { return new(nbformat.CodeCellMetadata) }
	case *nbformat.MarkdownCellMetadata:
		return func() any { return new(nbformat.MarkdownCellMetadata) }
	case *nbformat.RawCellMetadata:
		return func() any { return new(nbformat.RawCellMetadata) }
	}
	return func() any { return new(nbformat.NotebookMetadata) }
}

// decodedAll is m with its json.RawMessage values decoded, all the way down.
func decodedAll(t *testing.T, m map[string]any) map[string]any {
	raw, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	g, err := nbformat.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	return g.(map[string]any)
}

func TestOldRouteSame(t *testing.T) {
	cells, outputs := 0, 0
	notebooks(t, func(where string, nb *nbformat.Notebook) {
		m := checkToMap(t, where+": metadata", &nb.Metadata)
		checkFromMap(t, where+": metadata", m, newOfType(&nb.Metadata))
		if d := decodedAll(t, m); d != nil {
			checkFromMap(t, where+": metadata decoded", d, newOfType(&nb.Metadata))
		}
		for i, c := range nb.Cells {
			w := fmt.Sprintf("%s: cell %d", where, i)
			if _, unknown := c.(*nbformat.UnknownCell); !unknown {
				checkToMap(t, w, c)
			}
			if md := metadataOf(c); md != nil {
				m := checkToMap(t, w+" metadata", md)
				checkFromMap(t, w+" metadata", m, newOfType(md))
				if d := decodedAll(t, m); d != nil {
					checkFromMap(t, w+" metadata decoded", d, newOfType(md))
				}
			}
			cells++
			code, ok := c.(*nbformat.CodeCell)
			if !ok {
				continue
			}
			for k, o := range code.Outputs {
				w := fmt.Sprintf("%s output %d", w, k)
				want, werr := nbgeneric.OutputToMap(o)
				got, err := nbmap.OutputToMap(o)
				if want != nil {
					checkOutputFromMap(t, w+" as stored", want)
					want, _ = nbgeneric.OutputToMap(o)
					joinTexts(want)
				}
				if !sameErr(err, werr) {
					t.Fatalf("%s: OutputToMap error %v, old %v", w, err, werr)
				}
				if diff := cmp.Diff(want, got, rawBytes, nanEqual); diff != "" {
					t.Fatalf("%s: OutputToMap (-old +new):\n%s", w, diff)
				}
				if werr != nil {
					continue
				}
				checkOutputFromMap(t, w, want)
				if d := decodedAll(t, want); d != nil {
					checkOutputFromMap(t, w+" decoded", d)
				}
				outputs++
			}
		}
	})
	t.Logf("%d cells, %d outputs", cells, outputs)
}

// selfMap returns a map that contains itself under key.
func selfMap(key string) map[string]any {
	m := map[string]any{"a": 1.0}
	m[key] = m
	return m
}

// deep returns arrays nested n deep.
func deep(n int) json.RawMessage {
	return json.RawMessage(strings.Repeat("[", n) + strings.Repeat("]", n))
}

func deepGo(n int) any {
	var v any = []any{}
	for range n - 1 {
		v = []any{v}
	}
	return v
}

type named string

func TestOldRouteSameEdges(t *testing.T) {
	values := []any{
		nil, true, false, "", "x", "a\"b\\c\n\t\x00<>&\u2028é😀", "\xff", "\xed\xa0\x80", "a\xed\xb0\x80b",
		0, -1, math.MaxInt64, math.MinInt64, 1.5, 3.0, math.Copysign(0, -1), 1e300, 1e21, 1e20, math.NaN(), math.Inf(1), math.Inf(-1),
		int8(-3), int64(7), uint64(math.MaxUint64), float32(1.5), json.Number("12"), json.Number("1e5"),
		json.Number("123456789012345678901234567890"), json.Number("bad"), json.Number("NaN"),
		json.RawMessage(`{"x": [1, 2]}`), json.RawMessage(` [ "a" , "b" ] `), json.RawMessage(`"s"`), json.RawMessage(`7`),
		json.RawMessage(`true`), json.RawMessage(`null`), json.RawMessage(nil), json.RawMessage(`{bad`),
		json.RawMessage(`{"name": "a", "name": "b", "display_name": 1}`), json.RawMessage(`"\ud800"`),
		[]any{}, []any{"a", "b\n"}, []any{"a", 1}, []any{json.RawMessage(`"r"`), "s"}, []any{"\xff"}, []any(nil),
		map[string]any{}, map[string]any(nil), map[string]any{"name": "k", "display_name": "K", "x": []any{1}},
		map[string]any{"name": 5}, map[string]any{"\xff": 1}, map[string]any{"name": json.RawMessage(`"q"`)},
		[]string{"a"}, map[string]string{"k": "v"}, named("n"), nbformat.CellTypeCode, nbformat.Text("t\nu"),
		struct{ A int }{1}, make(chan int), selfMap("self"), []any{selfMap("s")},
	}
	keys := []string{"collapsed", "scrolled", "tags", "name", "jupyter", "execution", "format",
		"kernelspec", "language_info", "authors", "title", "orig_nbformat", "other"}
	types := []func() any{
		func() any { return new(nbformat.CodeCellMetadata) },
		func() any { return new(nbformat.MarkdownCellMetadata) },
		func() any { return new(nbformat.RawCellMetadata) },
		func() any { return new(nbformat.NotebookMetadata) },
	}
	for _, k := range keys {
		for i, v := range values {
			m := map[string]any{k: v, "tags": []any{"t"}, "z": 1}
			if k == "tags" {
				delete(m, "z")
			}
			for _, newPtr := range types {
				w := fmt.Sprintf("%s=value %d (%T) into %T", k, i, v, newPtr())
				checkFromMap(t, w, m, newPtr)
				md := newPtr()
				if nbgeneric.FromMap(m, md) == nil {
					checkToMap(t, w, md)
				}
			}
			// Typed members holding the value, through the struct.
			var md nbformat.CodeCellMetadata
			md.Scrolled = v
			md.AdditionalProperties = map[string]any{k: v}
			checkToMap(t, fmt.Sprintf("ToMap with %s=value %d (%T)", k, i, v), &md)
		}
	}
	// Values nested about as deep as a file may be, in a few places.
	for _, v := range []any{deep(9997), deep(9998), deep(9999), deep(10000), deepGo(9998), deepGo(9999), deepGo(10000)} {
		for _, k := range []string{"tags", "kernelspec", "other"} {
			m := map[string]any{k: v}
			werr := nbgeneric.FromMap(m, new(nbformat.NotebookMetadata))
			err := nbmap.FromMap(m, new(nbformat.NotebookMetadata))
			if !sameErr(err, werr) {
				t.Errorf("%s=%T nested: FromMap error %v, old %v", k, v, err, werr)
			}
			_, werr = nbgeneric.OutputFromMap(map[string]any{"output_type": "display_data", "data": map[string]any{"application/json": v}, k: v})
			_, err = nbmap.OutputFromMap(map[string]any{"output_type": "display_data", "data": map[string]any{"application/json": v}, k: v})
			if !sameErr(err, werr) {
				t.Errorf("%s=%T nested: OutputFromMap error %v, old %v", k, v, err, werr)
			}
		}
	}
	okeys := []string{"output_type", "name", "text", "data", "metadata", "execution_count", "ename", "evalue", "traceback", "other"}
	otypes := []string{"stream", "display_data", "execute_result", "error", "future"}
	for _, typ := range otypes {
		for _, k := range okeys {
			for i, v := range values {
				m := map[string]any{"output_type": typ, k: v}
				checkOutputFromMap(t, fmt.Sprintf("%s output: %s=value %d (%T)", typ, k, i, v), m)
				for _, mime := range []string{"text/plain", "application/json", "image/png", "application/vnd.x+json"} {
					m := map[string]any{"output_type": typ, "data": map[string]any{mime: v, "text/html": "<b>"}, "metadata": map[string]any{k: v}}
					checkOutputFromMap(t, fmt.Sprintf("%s output: data %s=value %d (%T)", typ, mime, i, v), m)
				}
			}
		}
	}
}

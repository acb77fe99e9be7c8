package nbmap_test

// The conversions against nbformat's own reader and writer, through its
// public API: ToMap and OutputToMap give what decoding the JSON
// encoding/json writes for the value gives (texts joined, arrays and
// objects of AdditionalProperties as json.RawMessage); FromMap and
// OutputFromMap give what reading the JSON of the generic object as
// metadata (or an output) of a notebook gives (the output's texts new).
// On every cell, output and metadata of testdata and the corpus sample,
// and on values at the edges.

import (
	"bytes"
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
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/mimetype"
	"github.com/nbdialog/ipynb/internal/nbjson"
	"github.com/nbdialog/ipynb/internal/nblimits"
	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// notebooks calls f with testdata's notebooks and the corpus sample's.
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

// Generic values compare with their json.RawMessage values decoded (the
// writer respaces them) and NaN equal to NaN.
var (
	rawBytes = cmp.Comparer(func(a, b json.RawMessage) bool { return string(a) == string(b) })
	nanEqual = cmp.Comparer(func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) })
)

// decodedAll is v with its json.RawMessage values decoded, all the way down.
func decodedAll(t *testing.T, v any) any {
	t.Helper()
	switch x := v.(type) {
	case json.RawMessage:
		g, err := nbformat.Decode(x)
		if err != nil {
			t.Fatalf("%s: %v", x, err)
		}
		return g
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = decodedAll(t, e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = decodedAll(t, e)
		}
		return out
	}
	return v
}

// joinTexts joins, in place, the texts of a decoded cell or output stored
// as lists of lines.
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

// written is what decoding the JSON encoding/json writes for v gives,
// texts joined.
func written(t *testing.T, v any) (map[string]any, error) {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	g, err := nbformat.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	m := g.(map[string]any)
	joinTexts(m)
	return m, nil
}

// checkToMap compares ToMap (or OutputToMap) of v with what the writer
// writes for it, and returns it.
func checkToMap(t *testing.T, where string, v any) map[string]any {
	t.Helper()
	var got map[string]any
	var err error
	var want any
	var werr error
	if o, ok := v.(nbformat.Output); ok {
		got, err = nbmap.OutputToMap(o)
		want, werr = written(t, o)
	} else {
		got, err = nbmap.ToMap(v)
		if c, ok := v.(nbformat.Cell); ok {
			want, werr = written(t, c)
		} else {
			// Metadata: as the metadata of a notebook.
			want, werr = metadataWritten(t, v)
		}
	}
	if err == nil && werr != nil && (strings.Contains(werr.Error(), "not valid UTF-8") || strings.Contains(werr.Error(), "invalid raw JSON")) {
		return got // (a string that is not text, a json.RawMessage that is not JSON, are kept as they are; the writer refuses them)
	}
	if (err == nil) != (werr == nil) {
		t.Fatalf("%s: ToMap error %v, the writer's %v", where, err, werr)
	}
	if err != nil {
		return nil
	}
	if c, ok := v.(nbformat.Cell); ok && nbformat.CellIDOf(c) == "" {
		delete(got, "id") // (json.Marshal writes a cell without an id as one of nbformat 4.4)
		delete(want.(map[string]any), "id")
	}
	if diff := cmp.Diff(want, decodedAll(t, got), nanEqual); diff != "" {
		t.Fatalf("%s: ToMap (-written +got):\n%s", where, diff)
	}
	return got
}

// metadataWritten is the metadata md of a new notebook, as written.
func metadataWritten(t *testing.T, md any) (any, error) {
	t.Helper()
	nb := nbformat.New()
	switch md := md.(type) {
	case *nbformat.NotebookMetadata:
		nb.Metadata = *md
	case *nbformat.CodeCellMetadata:
		c := nbformat.NewCodeCell("")
		c.Metadata = *md
		nb.Cells = []nbformat.Cell{c}
	case *nbformat.MarkdownCellMetadata:
		c := nbformat.NewMarkdownCell("")
		c.Metadata = *md
		nb.Cells = []nbformat.Cell{c}
	case *nbformat.RawCellMetadata:
		c := nbformat.NewRawCell("")
		c.Metadata = *md
		nb.Cells = []nbformat.Cell{c}
	}
	raw, err := nbformat.Marshal(nb)
	if err != nil {
		return nil, err
	}
	g, err := nbformat.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	doc := g.(map[string]any)
	if len(nb.Cells) == 1 {
		return doc["cells"].([]any)[0].(map[string]any)["metadata"], nil
	}
	return doc["metadata"], nil
}

// read returns metadata of the type of newPtr's read from raw, the JSON
// of an object, by nbformat's reader: as the metadata of a notebook or of
// its cell.
func read(raw []byte, newPtr func() any) (any, error) {
	md := newPtr()
	if nm, ok := md.(*nbformat.NotebookMetadata); ok {
		nb, err := nbformat.Unmarshal([]byte(`{"cells": [], "metadata": ` + string(raw) + `, "nbformat": 4, "nbformat_minor": 5}`))
		if err != nil {
			return nil, err
		}
		*nm = nb.Metadata
		return nm, nil
	}
	typ := map[string]string{"*nbformat.CodeCellMetadata": "code", "*nbformat.MarkdownCellMetadata": "markdown", "*nbformat.RawCellMetadata": "raw"}[fmt.Sprintf("%T", md)]
	cell := `{"cell_type": "` + typ + `", "id": "x", "metadata": ` + string(raw) + `, "source": ""` + map[bool]string{true: `, "outputs": [], "execution_count": null`}[typ == "code"] + `}`
	nb, err := nbformat.Unmarshal([]byte(`{"cells": [` + cell + `], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`))
	if err != nil {
		return nil, err
	}
	switch c := nb.Cells[0].(type) {
	case *nbformat.CodeCell:
		*md.(*nbformat.CodeCellMetadata) = c.Metadata
	case *nbformat.MarkdownCell:
		*md.(*nbformat.MarkdownCellMetadata) = c.Metadata
	case *nbformat.RawCell:
		*md.(*nbformat.RawCellMetadata) = c.Metadata
	}
	return md, nil
}

// sameErr reports whether two errors are both nil, or both not nil with
// the same cycle's place when one names it.
func sameErr(a, b error) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	var fa, fb *nbformat.FormatError
	if errors.As(a, &fa) && fa.Err != nil || errors.As(b, &fb) && fb.Err != nil {
		return errors.As(a, &fa) && errors.As(b, &fb) && fa.Pointer == fb.Pointer && fa.Msg == fb.Msg
	}
	return true
}

// checkFromMap compares FromMap of m into a new value of newPtr's type
// with what nbformat's reader reads from m's JSON.
func checkFromMap(t *testing.T, where string, m map[string]any, newPtr func() any) {
	t.Helper()
	got := newPtr()
	err := nbmap.FromMap(m, got)
	raw, werr := encodeChecked(m)
	if !sameErr(err, werr) {
		t.Fatalf("%s: FromMap error %v, the reader's %v", where, err, werr)
	}
	if werr != nil || !shallow(raw) {
		return
	}
	want, werr := read(raw, newPtr)
	if werr != nil {
		t.Fatalf("%s: the reader: %v", where, werr)
	}
	if diff := cmp.Diff(want, got, rawBytes, nanEqual); diff != "" {
		t.Fatalf("%s: FromMap (-read +got):\n%s", where, diff)
	}
}

// outputJSON is an output as the writer writes it in a notebook of each
// style (texts as lines, and as strings), and its MIME types in order.
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
	switch o := o.(type) {
	case *nbformat.DisplayData:
		fmt.Fprintf(&b, " %q", o.Data.Keys())
	case *nbformat.ExecuteResult:
		fmt.Fprintf(&b, " %q", o.Data.Keys())
	}
	return b.String()
}

// newTexts replaces the texts of o by new ones (nbformat.Text).
func newTexts(t *testing.T, o nbformat.Output) {
	t.Helper()
	renew := func(b *nbformat.MimeBundle) {
		var nb nbformat.MimeBundle
		for _, k := range b.Keys() {
			if s, ok := b.Text(k); ok {
				nb.SetText(k, s)
				continue
			}
			raw, _ := b.RawJSON(k)
			if nb.SetJSON(k, raw) != nil { // NaN or an infinity inside
				g, err := nbformat.Decode(raw)
				if err != nil {
					t.Fatal(err)
				}
				if err := nb.SetJSON(k, g); err != nil {
					t.Fatal(err)
				}
			}
		}
		*b = nb
	}
	switch o := o.(type) {
	case *nbformat.Stream:
		o.Text = nbformat.Text(o.Text.String())
	case *nbformat.DisplayData:
		renew(&o.Data)
	case *nbformat.ExecuteResult:
		renew(&o.Data)
	}
}

// readOutput reads an output from raw by nbformat's reader.
func readOutput(raw []byte) (nbformat.Output, error) {
	nb, err := nbformat.Unmarshal([]byte(`{"cells": [{"cell_type": "code", "execution_count": null, "id": "x", "metadata": {}, "outputs": [` + string(raw) + `], "source": ""}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`))
	if err != nil {
		return nil, err
	}
	return nb.Cells[0].(*nbformat.CodeCell).Outputs[0], nil
}

// encodeChecked returns the JSON of m, and the error of writing it or of
// reading it as a file (which refuses values nested too deep).
func encodeChecked(m map[string]any) ([]byte, error) {
	raw, err := nbjson.Encode(m)
	if err != nil {
		return nil, err
	}
	_, err = jsontree.Parse(raw, jsontree.Limits{MaxDepth: nblimits.DefaultMaxDepth})
	return raw, err
}

// shallow reports whether raw is shallow enough to be read as a member of
// a notebook (the reader's wrapping adds up to five levels).
func shallow(raw []byte) bool {
	_, err := jsontree.Parse(raw, jsontree.Limits{MaxDepth: nblimits.DefaultMaxDepth - 5})
	return err == nil
}

func checkOutputFromMap(t *testing.T, where string, m map[string]any) {
	t.Helper()
	got, err := nbmap.OutputFromMap(m)
	raw, werr := encodeChecked(m)
	if !sameErr(err, werr) {
		t.Fatalf("%s: OutputFromMap error %v, the reader's %v", where, err, werr)
	}
	if werr != nil || !shallow(raw) {
		return
	}
	want, werr := readOutput(raw)
	if werr != nil {
		t.Fatalf("%s: the reader: %v", where, werr)
	}
	if fmt.Sprintf("%T", want) != fmt.Sprintf("%T", got) {
		t.Fatalf("%s: OutputFromMap gave a %T, the reader a %T", where, got, want)
	}
	if u, ok := want.(*nbformat.UnknownOutput); ok {
		if !bytes.Equal(u.Raw, got.(*nbformat.UnknownOutput).Raw) {
			t.Fatalf("%s: OutputFromMap gave %s, the reader %s", where, got.(*nbformat.UnknownOutput).Raw, u.Raw)
		}
		return
	}
	newTexts(t, want)
	if a, b := outputJSON(t, want), outputJSON(t, got); a != b {
		t.Fatalf("%s: OutputFromMap:\nread %s\ngot  %s", where, a, b)
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

func TestCorpus(t *testing.T) {
	t.Parallel()
	cells, outputs := 0, 0
	notebooks(t, func(where string, nb *nbformat.Notebook) {
		m := checkToMap(t, where+": metadata", &nb.Metadata)
		checkFromMap(t, where+": metadata", m, newOfType(&nb.Metadata))
		checkFromMap(t, where+": metadata decoded", decodedAll(t, m).(map[string]any), newOfType(&nb.Metadata))
		for i, c := range nb.Cells {
			w := fmt.Sprintf("%s: cell %d", where, i)
			if _, unknown := c.(*nbformat.UnknownCell); !unknown {
				checkToMap(t, w, c)
			}
			if md := metadataOf(c); md != nil {
				m := checkToMap(t, w+" metadata", md)
				checkFromMap(t, w+" metadata", m, newOfType(md))
				checkFromMap(t, w+" metadata decoded", decodedAll(t, m).(map[string]any), newOfType(md))
			}
			cells++
			code, ok := c.(*nbformat.CodeCell)
			if !ok {
				continue
			}
			for k, o := range code.Outputs {
				w := fmt.Sprintf("%s output %d", w, k)
				m := checkToMap(t, w, o)
				if m == nil {
					continue
				}
				checkOutputFromMap(t, w, m)
				checkOutputFromMap(t, w+" decoded", decodedAll(t, m).(map[string]any))
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

// edgeValues are values a generic object may hold, of every kind the
// conversions tell apart.
var edgeValues = []any{
	nil, true, false, "", "x", "a\"b\\c\n\t\x00<>&\u2028é😀", "\xff", "\xed\xa0\x80", "a\xed\xb0\x80b",
	0, -1, math.MaxInt64, math.MinInt64, 1.5, 3.0, math.Copysign(0, -1), 1e300, 1e21, 1e20, math.NaN(), math.Inf(1), math.Inf(-1),
	int8(-3), int64(7), uint64(math.MaxUint64), float32(1.5), json.Number("12"), json.Number("1e5"),
	json.Number("123456789012345678901234567890"), json.Number("bad"), json.Number("NaN"),
	json.RawMessage(`{"x": [1, 2]}`), json.RawMessage(` [ "a" , "b" ] `), json.RawMessage(`"s"`), json.RawMessage(`7`),
	json.RawMessage(`true`), json.RawMessage(`null`), json.RawMessage(nil), json.RawMessage(`{bad`),
	json.RawMessage(`{"name": "a", "name": "b", "display_name": 1}`), json.RawMessage(`"\ud800"`), json.RawMessage(`[NaN]`),
	[]any{}, []any{"a", "b\n"}, []any{"a", 1}, []any{json.RawMessage(`"r"`), "s"}, []any{"\xff"}, []any(nil),
	map[string]any{}, map[string]any(nil), map[string]any{"name": "k", "display_name": "K", "x": []any{1}},
	map[string]any{"name": 5}, map[string]any{"\xff": 1}, map[string]any{"name": json.RawMessage(`"q"`)},
	[]string{"a"}, map[string]string{"k": "v"}, named("n"), nbformat.CellTypeCode, nbformat.Text("t\nu"),
	struct{ A int }{1}, make(chan int), selfMap("self"), []any{selfMap("s")},
}

// FromMap reads each value in each member of each metadata type as the
// reader does, and ToMap gives back what the writer writes.
func TestEdgesMetadata(t *testing.T) {
	keys := []string{"collapsed", "scrolled", "tags", "name", "jupyter", "execution", "format",
		"kernelspec", "language_info", "authors", "title", "orig_nbformat", "other"}
	types := []func() any{
		func() any { return new(nbformat.CodeCellMetadata) },
		func() any { return new(nbformat.MarkdownCellMetadata) },
		func() any { return new(nbformat.RawCellMetadata) },
		func() any { return new(nbformat.NotebookMetadata) },
	}
	t.Parallel()
	for ki, k := range keys {
		for i, v := range edgeValues {
			if !testtier.Sample(ki*len(edgeValues) + i) {
				continue // (each value in some member in the fast tier)
			}
			m := map[string]any{k: v, "tags": []any{"t"}, "z": 1}
			if k == "tags" {
				delete(m, "z")
			}
			for _, newPtr := range types {
				w := fmt.Sprintf("%s=value %d (%T) into %T", k, i, v, newPtr())
				checkFromMap(t, w, m, newPtr)
				if md := newPtr(); nbmap.FromMap(m, md) == nil {
					checkToMap(t, w, md)
				}
			}
			if _, isText := v.(nbformat.MultilineString); isText {
				continue // (held anywhere, a text comes as one string)
			}
			var md nbformat.CodeCellMetadata
			md.Scrolled = v
			md.AdditionalProperties = map[string]any{k: v}
			checkToMap(t, fmt.Sprintf("ToMap with %s=value %d (%T)", k, i, v), &md)
		}
	}
}

// Values nested about as deep as a file may be are refused as the reader
// refuses them, from the top of the object.
func TestEdgesDepth(t *testing.T) {
	t.Parallel()
	for _, v := range []any{deep(9997), deep(9998), deep(9999), deep(10000), deepGo(9998), deepGo(9999), deepGo(10000)} {
		for _, k := range []string{"tags", "kernelspec", "other"} {
			checkFromMap(t, fmt.Sprintf("%s=%T nested", k, v), map[string]any{k: v}, func() any { return new(nbformat.NotebookMetadata) })
			checkOutputFromMap(t, fmt.Sprintf("%s=%T nested", k, v), map[string]any{"output_type": "display_data", "data": map[string]any{"application/json": v}, k: v})
		}
	}
}

// OutputFromMap reads each value in each member of each output type (and
// in its data and metadata) as the reader does.
func TestEdgesOutputs(t *testing.T) {
	t.Parallel()
	okeys := []string{"output_type", "name", "text", "data", "metadata", "execution_count", "ename", "evalue", "traceback", "other"}
	otypes := []string{"stream", "display_data", "execute_result", "error", "future"}
	mimes := []string{"text/plain", "application/json", "image/png", "application/vnd.x+json"}
	n := 0
	for _, typ := range otypes {
		for _, k := range okeys {
			for i, v := range edgeValues {
				n++
				if !testtier.Sample(n) {
					continue
				}
				checkOutputFromMap(t, fmt.Sprintf("%s output: %s=value %d (%T)", typ, k, i, v), map[string]any{"output_type": typ, k: v})
				mime := mimes[n%len(mimes)]
				m := map[string]any{"output_type": typ, "data": map[string]any{mime: v, "text/html": "<b>"}, "metadata": map[string]any{k: v}}
				checkOutputFromMap(t, fmt.Sprintf("%s output: data %s=value %d (%T)", typ, mime, i, v), m)
			}
		}
	}
}

// The arguments that are not a struct of the right kind are refused.
func TestRefused(t *testing.T) {
	if _, err := nbmap.ToMap(42); err == nil {
		t.Error("ToMap(42): no error")
	}
	if _, err := nbmap.ToMap((*nbformat.CodeCellMetadata)(nil)); err == nil {
		t.Error("ToMap of a nil pointer: no error")
	}
	if err := nbmap.FromMap(map[string]any{}, nbformat.CodeCellMetadata{}); err == nil {
		t.Error("FromMap into a non-pointer: no error")
	}
	if err := nbmap.FromMap(map[string]any{}, new(nbformat.CodeCell)); err == nil {
		t.Error("FromMap into a cell: no error")
	}
	if _, err := nbmap.OutputToMap((*nbformat.Stream)(nil)); err == nil {
		t.Error("OutputToMap of a nil output: no error")
	}
	if _, err := nbmap.OutputToMap(&nbformat.UnknownOutput{Raw: json.RawMessage(`[1]`)}); err == nil {
		t.Error("OutputToMap of an output that is not an object: no error")
	}
}

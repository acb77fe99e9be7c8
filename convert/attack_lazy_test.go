package convert_test

// Attacks on outputs and cells kept as read: concurrent writes, in-place edits
// and moved cells of ToNotebook's notebook are written.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// Attacks on the lazy snapshot of convert's notebooks (taken at the first
// write that needs it), on nbformat's cells found as read by the snapshot
// by blocks (snapcert.go) and on version 2 and 3 notebooks read straight
// into messages (their upgrade made at first need).

// lazyInputs returns corpus notebooks of every version (valid and
// invalid, up to limit of each version) and generated version 2 and 3
// notebooks (see v3Gen).
func lazyInputs(t *testing.T, limit, generated int) map[string][]byte {
	in := map[string][]byte{}
	count := map[bool]int{}
	for e, data := range corpus.Files(t) {
		v3 := bytes.Contains(data, []byte(`"worksheets"`))
		if count[v3] >= limit || len(data) > 256<<10 {
			continue
		}
		count[v3]++
		in[e.Path] = data
	}
	for i := range generated {
		in[fmt.Sprintf("generated-%d", i)] = v3Gen{rand.New(rand.NewPCG(uint64(i), 5)), []int{4, 40, 1000}[i%3]}.notebook()
	}
	return in
}

// writes is what the calls of a caller on dialog d give: Marshal, the
// notebook ToNotebook returns written, the first message alone, and every
// output decoded.
func writes(d *convert.File) []string {
	var out []string
	b, err := convert.Marshal(d, convert.WriteOptions{})
	out = append(out, fmt.Sprintf("marshal %q %v", b, err))
	nb, err := convert.ToNotebook(d, convert.WriteOptions{})
	if err == nil {
		b, err = nbformat.Marshal(nb)
	}
	out = append(out, fmt.Sprintf("tonotebook %q %v", b, err))
	if len(d.Messages) > 0 {
		b, err = convert.Marshal(d, convert.WriteOptions{Messages: d.Messages[:1]})
		out = append(out, fmt.Sprintf("first %q %v", b, err))
	}
	for _, m := range d.Messages {
		for _, o := range m.Outputs {
			g, err := o.Map()
			out = append(out, fmt.Sprintf("output %s %v", typedDump(g), err))
		}
	}
	return out
}

// Several goroutines writing one dialog at once (Marshal, ToNotebook,
// a subset, outputs decoded), unedited or edited, each before any other
// write (so they race for the snapshot's take and for a version 3
// upgrade), give what the same calls give one after another on another
// dialog read from the same bytes. Run with -race.
func TestLazyAttackConcurrentWrites(t *testing.T) {
	t.Parallel()
	limit, generated := 40, 60
	if !testtier.Full() {
		limit, generated = 8, 12
	}
	n := 0
	for name, data := range lazyInputs(t, limit, generated) {
		for _, edit := range []bool{false, true} {
			read := func() *convert.File {
				d, err := convert.Unmarshal(data, convert.ReadOptions{})
				if err != nil {
					return nil
				}
				if edit && len(d.Messages) > 0 {
					d.Messages[len(d.Messages)-1].Content += "\nedited"
				}
				return d
			}
			ref := read()
			if ref == nil {
				continue
			}
			want := writes(ref)
			d := read()
			var wg sync.WaitGroup
			got := make([][]string, 3)
			for g := range got {
				wg.Go(func() { got[g] = writes(d) })
			}
			wg.Wait()
			for g := range got {
				if !slicesEqual(got[g], want) {
					t.Errorf("%s (edited %v): goroutine %d: %s", name, edit, g, diffLines(want, got[g]))
				}
			}
			n++
		}
	}
	t.Logf("%d dialogs written concurrently", n)
}

func slicesEqual(a, b []string) bool { return cmp.Equal(a, b) }

// An in-place edit of the cells ToNotebook hands out: the cell's
// metadata, the first output's metadata, a stream's text, the source.
type inPlaceEdit struct {
	name string
	// typed edits the notebook's cell i (false: not applicable); generic
	// makes the same edit on its JSON (encoding/json's).
	typed   func(c nbformat.Cell) bool
	generic func(cell map[string]any)
}

var inPlaceEdits = []inPlaceEdit{
	{"cell metadata", func(c nbformat.Cell) bool {
		var ap *map[string]any
		switch c := c.(type) {
		case *nbformat.CodeCell:
			ap = &c.Metadata.AdditionalProperties
		case *nbformat.MarkdownCell:
			ap = &c.Metadata.AdditionalProperties
		case *nbformat.RawCell:
			ap = &c.Metadata.AdditionalProperties
		default:
			return false
		}
		if *ap == nil {
			return false // (a new map is not an in-place change)
		}
		(*ap)["lazyattack"] = "ü"
		return true
	}, func(cell map[string]any) { cell["metadata"].(map[string]any)["lazyattack"] = "ü" }},
	{"output metadata", func(c nbformat.Cell) bool {
		code, ok := c.(*nbformat.CodeCell)
		if !ok || len(code.Outputs) == 0 {
			return false
		}
		var md map[string]any
		switch o := code.Outputs[0].(type) {
		case *nbformat.DisplayData:
			md = o.Metadata
		case *nbformat.ExecuteResult:
			md = o.Metadata
		}
		if md == nil {
			return false
		}
		md["lazyattack"] = 1
		return true
	}, func(cell map[string]any) {
		cell["outputs"].([]any)[0].(map[string]any)["metadata"].(map[string]any)["lazyattack"] = float64(1)
	}},
	{"stream text", func(c nbformat.Cell) bool {
		code, ok := c.(*nbformat.CodeCell)
		if !ok || len(code.Outputs) == 0 {
			return false
		}
		s, ok := code.Outputs[0].(*nbformat.Stream)
		if !ok {
			return false
		}
		s.Text.Set(s.Text.String() + "!")
		return true
	}, func(cell map[string]any) {
		o := cell["outputs"].([]any)[0].(map[string]any)
		o["text"] = joined(o["text"]) + "!"
	}},
	{"source", func(c nbformat.Cell) bool {
		switch c := c.(type) {
		case *nbformat.CodeCell:
			c.Source.Set(c.Source.String() + "#")
		case *nbformat.MarkdownCell:
			c.Source.Set(c.Source.String() + "#")
		case *nbformat.RawCell:
			c.Source.Set(c.Source.String() + "#")
		default:
			return false
		}
		return true
	}, func(cell map[string]any) { cell["source"] = joined(cell["source"]) + "#" }},
}

// joined is a multiline string's text.
func joined(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var sb strings.Builder
	for _, l := range v.([]any) {
		sb.WriteString(l.(string))
	}
	return sb.String()
}

// normalized is a notebook's JSON with its multiline strings joined.
func normalized(t *testing.T, data []byte) map[string]any {
	var nb map[string]any
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	for _, c := range nb["cells"].([]any) {
		c := c.(map[string]any)
		if s, ok := c["source"]; ok {
			c["source"] = joined(s)
		}
		outs, _ := c["outputs"].([]any)
		for _, o := range outs {
			o := o.(map[string]any)
			if s, ok := o["text"]; ok {
				o["text"] = joined(s)
			}
		}
	}
	return nb
}

// A caller's in-place edit of a cell ToNotebook handed out (a metadata
// map's new key, a stream's text, an output's metadata, a source), alone
// or with two other cells swapped, is written: the notebook's JSON is the
// file's (encoding/json) with the same edit. It stays written after a
// write of the dialog, edited, has taken the snapshot of the notebook
// read (which must not record the caller's edit as read). Valid version
// 4 corpus notebooks, which ToNotebook writes back as the file.
func TestLazyAttackInPlaceEditsWritten(t *testing.T) {
	t.Parallel()
	limit := 80
	if !testtier.Full() {
		limit = 15
	}
	_, entries := corpus.Entries(t)
	files := map[string]bool{}
	for _, e := range entries {
		if e.Schema == "valid" {
			files[e.Path] = true
		}
	}
	tried, written := 0, 0
	for e, data := range corpus.Files(t) {
		if !files[e.Path] || bytes.Contains(data, []byte(`"worksheets"`)) || len(data) > 128<<10 || tried == limit {
			continue
		}
		tried++
		r := rand.New(rand.NewPCG(uint64(tried), 9))
		for _, ed := range inPlaceEdits {
			for _, swap := range []bool{false, true} {
				d, err := convert.Unmarshal(data, convert.ReadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				nb, err := convert.ToNotebook(d, convert.WriteOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if b, err := nbformat.Marshal(nb); err != nil || !bytes.Equal(b, data) {
					t.Fatalf("%s: ToNotebook's notebook, unedited, is not the file (%v) %s", e.Path, err, firstDiff(data, b))
				}
				want := normalized(t, data)
				cells := want["cells"].([]any)
				at := -1
				for _, i := range r.Perm(len(nb.Cells)) {
					if ed.typed(nb.Cells[i]) {
						at = i
						ed.generic(cells[i].(map[string]any))
						break
					}
				}
				if at < 0 {
					continue
				}
				if swap && len(nb.Cells) >= 3 {
					i, j := (at+1)%len(nb.Cells), (at+2)%len(nb.Cells)
					nb.Cells[i], nb.Cells[j] = nb.Cells[j], nb.Cells[i]
					cells[i], cells[j] = cells[j], cells[i]
				}
				check := func(when string) {
					t.Helper()
					b, err := nbformat.Marshal(nb)
					if err != nil {
						t.Fatalf("%s: %v", e.Path, err)
					}
					if diff := cmp.Diff(want, normalized(t, b)); diff != "" {
						t.Errorf("%s: %s (cell %d, swap %v) %s: not written %s (-want +got):\n%s", e.Path, ed.name, at, swap, when, firstDiff(data, b), diff)
					}
					if !nb.Edited() {
						t.Errorf("%s: %s (cell %d) %s: the notebook is not Edited", e.Path, ed.name, at, when)
					}
				}
				check("")
				// The dialog edited elsewhere and written: the snapshot is
				// taken now if it was not.
				last := len(d.Messages) - 1
				if last == at && last > 0 {
					last = 0
				}
				d.Messages[last].Content += "\nmore"
				if _, err := convert.Marshal(d, convert.WriteOptions{}); err != nil {
					t.Fatalf("%s: %v", e.Path, err)
				}
				check("after the dialog's write")
				written++
			}
		}
	}
	t.Logf("%d notebooks, %d edits", tried, written)
	if written == 0 {
		t.Error("no edit made")
	}
}

// Cells of ToNotebook's notebook moved (two swapped), repeated (the first
// appended again) or taken from another notebook (read from another
// file, so values shared between two notebooks) are written as their
// cells: the JSON is the files' (encoding/json) with the same moves. No
// value changed, so every region read is as read (the snapshot finds the
// cells as read): each cell must be matched with its own node.
func TestLazyAttackMovedCellsWritten(t *testing.T) {
	t.Parallel()
	limit := 60
	if !testtier.Full() {
		limit = 12
	}
	_, entries := corpus.Entries(t)
	valid := map[string]bool{}
	for _, e := range entries {
		valid[e.Path] = e.Schema == "valid"
	}
	var prev []byte
	tried := 0
	for e, data := range corpus.Files(t) {
		if !valid[e.Path] || bytes.Contains(data, []byte(`"worksheets"`)) || len(data) > 128<<10 || tried == limit {
			continue
		}
		other := prev
		prev = data
		if other == nil {
			continue
		}
		tried++
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		od, err := convert.Unmarshal(other, convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := convert.Marshal(od, convert.WriteOptions{}); err != nil { // (its snapshot need not be taken)
			t.Fatal(err)
		}
		nb, err := convert.ToNotebook(d, convert.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		onb, err := convert.ToNotebook(od, convert.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := normalized(t, data)
		cells := want["cells"].([]any)
		ocells := normalized(t, other)["cells"].([]any)
		r := rand.New(rand.NewPCG(uint64(tried), 13))
		if n := len(nb.Cells); n >= 2 {
			i, j := r.IntN(n), r.IntN(n)
			nb.Cells[i], nb.Cells[j] = nb.Cells[j], nb.Cells[i]
			cells[i], cells[j] = cells[j], cells[i]
		}
		if len(nb.Cells) > 0 {
			nb.Cells = append(nb.Cells, nb.Cells[0])
			cells = append(cells, cells[0])
		}
		// (A cell of a notebook without ids taken into one with them is
		// written with an empty id: only notebooks alike in that.)
		if len(onb.Cells) > 0 && (nb.NbformatMinor >= 5) == (onb.NbformatMinor >= 5) {
			k := r.IntN(len(onb.Cells))
			nb.Cells = append(nb.Cells, onb.Cells[k])
			cells = append(cells, ocells[k])
		}
		want["cells"] = cells
		b, err := nbformat.Marshal(nb)
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		if got := normalized(t, b); !cmp.Equal(got, want) {
			t.Errorf("%s: moved cells not written as moved: %s", e.Path, genericDiff(want, got))
		}
	}
	if tried == 0 {
		t.Error("no notebook")
	}
}

// genericDiff names the first cell (or other member) where two notebooks'
// JSON differ.
func genericDiff(want, got map[string]any) string {
	for k, w := range want {
		if k != "cells" && !cmp.Equal(w, got[k]) {
			return fmt.Sprintf("%q: want %v, got %v", k, w, got[k])
		}
	}
	wc, _ := want["cells"].([]any)
	gc, _ := got["cells"].([]any)
	for i := range max(len(wc), len(gc)) {
		var w, g any
		if i < len(wc) {
			w = wc[i]
		}
		if i < len(gc) {
			g = gc[i]
		}
		if !cmp.Equal(w, g) {
			return fmt.Sprintf("cell %d of %d (got %d):\n  want %.300v\n  got  %.300v", i, len(wc), len(gc), w, g)
		}
	}
	return "(members other than cells)"
}

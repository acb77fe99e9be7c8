package nbformat

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
)

// mutation changes a notebook just read in one way. change says what the
// change does to the notebook's value: 1 changes it (the walk must find
// it edited, and the snapshot differ), 0 keeps it (the walk must find it
// unedited; keep says the snapshot must match too), -1 either.
type mutation struct {
	name   string
	change int
	keep   bool
	apply  func(nb *Notebook, r *rand.Rand) bool // false: nothing to change in this notebook
}

func typedCells[T any](nb *Notebook) []T {
	var out []T
	for _, c := range nb.Cells {
		if x, ok := c.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

func allOutputs[T any](nb *Notebook) []T {
	var out []T
	for _, c := range typedCells[*CodeCell](nb) {
		for _, o := range c.Outputs {
			if x, ok := o.(T); ok {
				out = append(out, x)
			}
		}
	}
	return out
}

// one picks an element of list (false when empty).
func one[T any](r *rand.Rand, list []T) (T, bool) {
	var zero T
	if len(list) == 0 {
		return zero, false
	}
	return list[r.IntN(len(list))], true
}

// withCell applies f to a random typed cell matching ok.
func withCell[T any](ok func(T) bool, f func(T)) func(*Notebook, *rand.Rand) bool {
	return func(nb *Notebook, r *rand.Rand) bool {
		c, found := one(r, slices.DeleteFunc(typedCells[T](nb), func(c T) bool { return !ok(c) }))
		if found {
			f(c)
		}
		return found
	}
}

// withOutput applies f to a random output of type T matching ok.
func withOutput[T any](ok func(T) bool, f func(T)) func(*Notebook, *rand.Rand) bool {
	return func(nb *Notebook, r *rand.Rand) bool {
		o, found := one(r, slices.DeleteFunc(allOutputs[T](nb), func(o T) bool { return !ok(o) }))
		if found {
			f(o)
		}
		return found
	}
}

func always[T any](T) bool { return true }

// aKey returns a random key of m.
func aKey[V any](r *rand.Rand, m map[string]V) (string, bool) {
	return one(r, slices.Sorted(func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}))
}

var mutations = []mutation{
	{"nbformat_minor changed", 1, false, func(nb *Notebook, _ *rand.Rand) bool { nb.NbformatMinor++; return true }},
	{"nbformat_minor changed and restored", 0, true, func(nb *Notebook, _ *rand.Rand) bool {
		nb.NbformatMinor++
		nb.NbformatMinor--
		return true
	}},
	{"cell id changed", 1, false, func(nb *Notebook, r *rand.Rand) bool {
		c, ok := one(r, slices.DeleteFunc(slices.Clone(nb.Cells), func(c Cell) bool { return CellIDOf(c) == "" }))
		return ok && SetCellID(c, CellIDOf(c)+"x")
	}},
	{"cell id replaced by an equal string", 0, false, func(nb *Notebook, r *rand.Rand) bool {
		c, ok := one(r, slices.DeleteFunc(slices.Clone(nb.Cells), func(c Cell) bool { return CellIDOf(c) == "" }))
		return ok && SetCellID(c, CellID(strings.Clone(string(CellIDOf(c)))))
	}},
	{"execution count changed in place", 1, false, withCell(func(c *CodeCell) bool { return c.ExecutionCount != nil }, func(c *CodeCell) { *c.ExecutionCount++ })},
	{"execution count replaced by an equal one", 0, false, withCell(func(c *CodeCell) bool { return c.ExecutionCount != nil }, func(c *CodeCell) {
		x := *c.ExecutionCount
		c.ExecutionCount = &x
	})},
	{"execution count set to nil", 1, false, withCell(func(c *CodeCell) bool { return c.ExecutionCount != nil }, func(c *CodeCell) { c.ExecutionCount = nil })},
	{"execution count set", 1, false, withCell(func(c *CodeCell) bool { return c.ExecutionCount == nil }, func(c *CodeCell) { c.ExecutionCount = new(int) })},
	{"collapsed set or flipped", 1, false, withCell(always[*CodeCell], func(c *CodeCell) {
		if c.Metadata.Collapsed == nil {
			c.Metadata.Collapsed = new(bool)
		} else {
			*c.Metadata.Collapsed = !*c.Metadata.Collapsed
		}
	})},
	{"kernelspec set or removed", 1, false, func(nb *Notebook, _ *rand.Rand) bool {
		if nb.Metadata.Kernelspec == nil {
			nb.Metadata.Kernelspec = &Kernelspec{Name: "k", DisplayName: "K"}
		} else {
			nb.Metadata.Kernelspec = nil
		}
		return true
	}},
	{"kernelspec name changed in place", 1, false, func(nb *Notebook, _ *rand.Rand) bool {
		if nb.Metadata.Kernelspec == nil {
			return false
		}
		nb.Metadata.Kernelspec.Name += "x"
		return true
	}},
	{"two cells swapped", -1, false, func(nb *Notebook, r *rand.Rand) bool {
		if len(nb.Cells) < 2 {
			return false
		}
		i := r.IntN(len(nb.Cells) - 1)
		nb.Cells[i], nb.Cells[i+1] = nb.Cells[i+1], nb.Cells[i]
		return true
	}},
	{"cell replaced by an equal copy", -1, false, func(nb *Notebook, r *rand.Rand) bool {
		if len(nb.Cells) == 0 {
			return false
		}
		i := r.IntN(len(nb.Cells))
		nb.Cells[i] = cloneCell(nb.Cells[i])
		return true
	}},
	{"cell replaced by a new one", 1, false, func(nb *Notebook, r *rand.Rand) bool {
		if len(nb.Cells) == 0 {
			return false
		}
		nb.Cells[r.IntN(len(nb.Cells))] = NewMarkdownCell("a new cell")
		return true
	}},
	{"cells truncated", 1, false, func(nb *Notebook, _ *rand.Rand) bool {
		if len(nb.Cells) == 0 {
			return false
		}
		nb.Cells = nb.Cells[:len(nb.Cells)-1]
		return true
	}},
	// Slices whose elements the decoder put in its blocks (compared as
	// blocks, see snapblock.go), moved elsewhere: the snapshot compares
	// the elements where they are now with those recorded.
	{"outputs in a slice of their own", 0, true, withCell(func(c *CodeCell) bool { return len(c.Outputs) > 0 }, func(c *CodeCell) {
		c.Outputs = slices.Clone(c.Outputs)
	})},
	{"outputs in a slice of their own, one replaced", 1, false, withCell(func(c *CodeCell) bool { return len(c.Outputs) > 0 }, func(c *CodeCell) {
		c.Outputs = slices.Clone(c.Outputs)
		c.Outputs[len(c.Outputs)-1] = NewStream("stdout", "moved")
	})},
	{"tags in a slice of their own", 0, true, withCell(func(c *CodeCell) bool { return len(c.Metadata.Tags) > 0 }, func(c *CodeCell) {
		c.Metadata.Tags = slices.Clone(c.Metadata.Tags)
	})},
	{"tags in a slice of their own, one changed", 1, false, withCell(func(c *CodeCell) bool { return len(c.Metadata.Tags) > 0 }, func(c *CodeCell) {
		c.Metadata.Tags = slices.Clone(c.Metadata.Tags)
		c.Metadata.Tags[0] += "x"
	})},
	{"outputs of another cell, as many", -1, false, func(nb *Notebook, r *rand.Rand) bool {
		cells := typedCells[*CodeCell](nb)
		for range 8 {
			a, ok1 := one(r, cells)
			b, ok2 := one(r, cells)
			if ok1 && ok2 && a != b && len(a.Outputs) == len(b.Outputs) && len(a.Outputs) > 0 {
				a.Outputs = b.Outputs
				return true
			}
		}
		return false
	}},
	{"a cell's outputs moved into its block", 1, false, withCell(func(c *CodeCell) bool { return len(c.Outputs) > 1 }, func(c *CodeCell) {
		c.Outputs = c.Outputs[1:]
	})},
	{"cells truncated and extended back", 0, true, func(nb *Notebook, _ *rand.Rand) bool {
		n := len(nb.Cells)
		if n == 0 {
			return false
		}
		nb.Cells = nb.Cells[:n-1]
		nb.Cells = nb.Cells[:n]
		return true
	}},
	{"append within capacity over the last cell", 1, false, func(nb *Notebook, _ *rand.Rand) bool {
		n := len(nb.Cells)
		if n == 0 {
			return false
		}
		_ = append(nb.Cells[:n-1], Cell(NewMarkdownCell("over")))
		return true
	}},
	{"cells in a slice of their own", 0, true, func(nb *Notebook, _ *rand.Rand) bool {
		if nb.Cells == nil {
			return false
		}
		nb.Cells = append(slices.Clone(nb.Cells), nil)[:len(nb.Cells)]
		return true
	}},
	{"cells set to nil", -1, false, func(nb *Notebook, _ *rand.Rand) bool {
		if nb.Cells == nil {
			return false
		}
		nb.Cells = nil
		return true
	}},
	{"outputs emptied", 1, false, withCell(func(c *CodeCell) bool { return len(c.Outputs) > 0 }, func(c *CodeCell) { c.Outputs = c.Outputs[:0] })},
	{"output replaced", 1, false, withCell(func(c *CodeCell) bool { return len(c.Outputs) > 0 }, func(c *CodeCell) {
		c.Outputs[len(c.Outputs)-1] = NewStream("stdout", "new output\n")
	})},
	{"output appended", 1, false, withCell(always[*CodeCell], func(c *CodeCell) { c.Outputs = append(c.Outputs, NewStream("stdout", "more\n")) })},
	{"tag changed in place", 1, false, withCell(func(c *CodeCell) bool { return len(c.Metadata.Tags) > 0 }, func(c *CodeCell) { c.Metadata.Tags[0] += "x" })},
	{"tag added", 1, false, withCell(always[*MarkdownCell], func(c *MarkdownCell) { c.Metadata.Tags = append(c.Metadata.Tags, "new-tag") })},
	{"source set", 1, false, func(nb *Notebook, r *rand.Rand) bool {
		c, ok := one(r, typedCells[*CodeCell](nb))
		if !ok {
			return false
		}
		c.Source.Set(c.Source.String() + "x")
		return true
	}},
	{"source set to the text it has", 0, true, func(nb *Notebook, r *rand.Rand) bool {
		c, ok := one(r, typedCells[*MarkdownCell](nb))
		if !ok {
			return false
		}
		s := SourceOf(c)
		s.Set(s.String())
		setSource(c, s)
		return true
	}},
	{"stream text set", 1, false, withOutput(always[*Stream], func(s *Stream) { s.Text.Set(s.Text.String() + "more") })},
	{"stream name changed", 1, false, withOutput(always[*Stream], func(s *Stream) { s.Name += "x" })},
	{"error name changed", 1, false, withOutput(always[*ErrorOutput], func(e *ErrorOutput) { e.Ename += "x" })},
	{"traceback line changed in place", 1, false, withOutput(func(e *ErrorOutput) bool { return len(e.Traceback) > 0 }, func(e *ErrorOutput) { e.Traceback[0] += "x" })},
	{"traceback truncated", 1, false, withOutput(func(e *ErrorOutput) bool { return len(e.Traceback) > 0 }, func(e *ErrorOutput) { e.Traceback = e.Traceback[:len(e.Traceback)-1] })},
	{"bundle text set", 1, false, withOutput(func(d *DisplayData) bool { return len(textKeys(d.Data)) > 0 }, func(d *DisplayData) {
		k := textKeys(d.Data)[0]
		s, _ := d.Data.Text(k)
		d.Data.SetText(k, s+"x")
	})},
	{"bundle text set to the text it has", 0, true, withOutput(func(d *DisplayData) bool { return len(textKeys(d.Data)) > 0 }, func(d *DisplayData) {
		k := textKeys(d.Data)[0]
		s, _ := d.Data.Text(k)
		d.Data.SetText(k, s)
	})},
	{"bundle entry deleted", 1, false, withOutput(func(d *ExecuteResult) bool { return d.Data.Len() > 0 }, func(d *ExecuteResult) { d.Data.Delete(d.Data.Keys()[0]) })},
	{"output metadata key set", 1, false, withOutput(always[*DisplayData], func(d *DisplayData) {
		if d.Metadata == nil {
			d.Metadata = map[string]any{}
		}
		d.Metadata["snapshot-test"] = true
	})},
	{"output metadata value replaced", 1, false, withOutput(func(d *DisplayData) bool { return len(d.Metadata) > 0 }, func(d *DisplayData) {
		for k := range d.Metadata {
			d.Metadata[k] = "replaced"
		}
	})},
	{"attachment added", 1, false, withCell(always[*MarkdownCell], func(c *MarkdownCell) {
		if c.Attachments == nil {
			c.Attachments = map[string]MimeBundle{}
		}
		c.Attachments["new.png"] = NewMimeBundle("image/png", "iVBO")
	})},
	{"attachment changed in place", 1, false, withCell(func(c *MarkdownCell) bool { return len(c.Attachments) > 0 }, func(c *MarkdownCell) {
		for _, b := range c.Attachments {
			b.SetText("image/png", "changed")
		}
	})},
	{"notebook metadata key added", 1, false, func(nb *Notebook, _ *rand.Rand) bool {
		if nb.Metadata.AdditionalProperties == nil {
			nb.Metadata.AdditionalProperties = map[string]any{}
		}
		nb.Metadata.AdditionalProperties["snapshot-test"] = json.RawMessage(`{"a":[1,2]}`)
		return true
	}},
	{"notebook metadata key deleted", 1, false, func(nb *Notebook, r *rand.Rand) bool {
		k, ok := aKey(r, nb.Metadata.AdditionalProperties)
		if ok {
			delete(nb.Metadata.AdditionalProperties, k)
		}
		return ok
	}},
	{"notebook metadata value replaced by an equal one", 0, false, func(nb *Notebook, r *rand.Rand) bool {
		m := nb.Metadata.AdditionalProperties
		k, ok := aKey(r, m)
		if ok {
			switch v := m[k].(type) {
			case json.RawMessage:
				m[k] = append(json.RawMessage(nil), v...)
			case string:
				m[k] = strings.Clone(v)
			}
		}
		return ok
	}},
	{"notebook metadata value replaced", 1, false, func(nb *Notebook, r *rand.Rand) bool {
		k, ok := aKey(r, nb.Metadata.AdditionalProperties)
		if ok {
			nb.Metadata.AdditionalProperties[k] = json.RawMessage(`["snapshot-test"]`)
		}
		return ok
	}},
	{"notebook metadata map replaced by an equal copy", 0, true, func(nb *Notebook, _ *rand.Rand) bool {
		m := nb.Metadata.AdditionalProperties
		if m == nil {
			return false
		}
		c := make(map[string]any, len(m))
		for k, v := range m {
			c[k] = v
		}
		nb.Metadata.AdditionalProperties = c
		return true
	}},
	{"cell metadata key set", 1, false, withCell(always[*CodeCell], func(c *CodeCell) {
		if c.Metadata.AdditionalProperties == nil {
			c.Metadata.AdditionalProperties = map[string]any{}
		}
		c.Metadata.AdditionalProperties["snapshot-test"] = 1.5
	})},
	{"cell metadata value set to the value it has", 0, true, withCell(func(c *CodeCell) bool { return len(c.Metadata.AdditionalProperties) > 0 }, func(c *CodeCell) {
		for k, v := range c.Metadata.AdditionalProperties {
			c.Metadata.AdditionalProperties[k] = v
		}
	})},
	{"unknown cell changed in place", 1, false, withCell(func(c *UnknownCell) bool { return bytes.ContainsAny(c.Raw, "abcdefghijklmnopqrstuvwxyz") }, func(c *UnknownCell) {
		i := bytes.IndexAny(c.Raw, "abcdefghijklmnopqrstuvwxyz")
		if c.Raw[i] != 'q' {
			c.Raw[i] = 'q'
		} else {
			c.Raw[i] = 'r'
		}
	})},
}

func textKeys(b MimeBundle) []string {
	var out []string
	for _, k := range b.Keys() {
		if _, ok := b.Text(k); ok {
			out = append(out, k)
		}
	}
	return out
}

package nbformat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/nbdialog/ipynb/internal/corpus"
)

// Hostile edits against the unedited check by blocks (snapblock.go,
// snaploose.go): every way a caller can change a notebook after
// Unmarshal, alone and in random sequences, on notebooks of every version
// and of sizes on both sides of the threshold where the snapshot falls
// back to the walk from the Document. The oracles never come from the
// snapshot: the reflective walk (walkSaysUnedited) must agree whenever the
// snapshot says "unedited"; Marshal must write what the encoder writes
// with the unedited path bypassed (nb.encode); and, where the notebook as
// read passes it, what encoding/json reads from Marshal's output must be
// what it reads from the same Document written as a notebook built in
// memory (no source at all: no snapshot, no walk, no originals).

// blockEdit is one edit a caller can make; it reports whether it applied.
type blockEdit struct {
	name  string
	apply func(nb *Notebook, r *rand.Rand) bool
}

func codeCells(nb *Notebook) []*CodeCell {
	var cs []*CodeCell
	for _, c := range nb.Cells {
		if cc, ok := c.(*CodeCell); ok && cc != nil {
			cs = append(cs, cc)
		}
	}
	return cs
}

func pick[T any](r *rand.Rand, xs []T) (T, bool) {
	var z T
	if len(xs) == 0 {
		return z, false
	}
	return xs[r.IntN(len(xs))], true
}

func withOutputs(nb *Notebook) []*CodeCell {
	var cs []*CodeCell
	for _, c := range codeCells(nb) {
		if len(c.Outputs) > 0 {
			cs = append(cs, c)
		}
	}
	return cs
}

// metadataMaps returns the AdditionalProperties and output metadata maps
// of nb that are not nil.
func metadataMaps(nb *Notebook) []map[string]any {
	var ms []map[string]any
	add := func(m map[string]any) {
		if len(m) > 0 {
			ms = append(ms, m)
		}
	}
	add(nb.Metadata.AdditionalProperties)
	add(nb.AdditionalProperties)
	for _, c := range nb.Cells {
		switch c := c.(type) {
		case *CodeCell:
			add(c.Metadata.AdditionalProperties)
			add(c.AdditionalProperties)
			for _, o := range c.Outputs {
				switch o := o.(type) {
				case *ExecuteResult:
					add(o.Metadata)
				case *DisplayData:
					add(o.Metadata)
				}
			}
		case *MarkdownCell:
			add(c.Metadata.AdditionalProperties)
		case *RawCell:
			add(c.Metadata.AdditionalProperties)
		}
	}
	return ms
}

func anyKey(r *rand.Rand, m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys[r.IntN(len(keys))]
}

// otherNumber returns a value equal-looking to v of another Go type, or
// v changed, when v is a number.
func otherNumber(v any, r *rand.Rand) (any, bool) {
	var f float64
	switch x := v.(type) {
	case int:
		f = float64(x)
	case float64:
		f = x
	case json.Number:
		g, err := x.Float64()
		if err != nil {
			return nil, false
		}
		f = g
	case json.RawMessage:
		g, err := strconv.ParseFloat(string(bytes.TrimSpace(x)), 64)
		if err != nil {
			return nil, false
		}
		f = g
	default:
		return nil, false
	}
	switch r.IntN(4) {
	case 0:
		if f != float64(int(f)) {
			return f + 1, true
		}
		return int(f), true
	case 1:
		return f, true
	case 2:
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), true
	}
	return json.RawMessage(strconv.FormatFloat(f, 'f', -1, 64)), true
}

var blockEdits = []blockEdit{
	{"cells reversed", func(nb *Notebook, r *rand.Rand) bool {
		if len(nb.Cells) < 2 {
			return false
		}
		slices.Reverse(nb.Cells)
		return true
	}},
	{"two cells swapped in place", func(nb *Notebook, r *rand.Rand) bool {
		if len(nb.Cells) < 2 {
			return false
		}
		i, j := r.IntN(len(nb.Cells)), r.IntN(len(nb.Cells))
		nb.Cells[i], nb.Cells[j] = nb.Cells[j], nb.Cells[i]
		return true
	}},
	{"cells truncated, re-extended by append with the same cell", func(nb *Notebook, r *rand.Rand) bool {
		if len(nb.Cells) == 0 {
			return false
		}
		k := r.IntN(len(nb.Cells))
		c := nb.Cells[k]
		rest := slices.Clone(nb.Cells[k+1:])
		nb.Cells = append(append(nb.Cells[:k], c), rest...)
		return true
	}},
	{"cells truncated, re-extended by append with a new cell", func(nb *Notebook, r *rand.Rand) bool {
		if len(nb.Cells) == 0 {
			return false
		}
		k := r.IntN(len(nb.Cells))
		nb.Cells = append(nb.Cells[:k], NewMarkdownCell("appended"))
		return true
	}},
	{"cells truncated, re-extended by append with another cell", func(nb *Notebook, r *rand.Rand) bool {
		if len(nb.Cells) < 2 {
			return false
		}
		k := 1 + r.IntN(len(nb.Cells)-1)
		nb.Cells = append(nb.Cells[:k], nb.Cells[0])
		return true
	}},
	{"cells truncated then resliced back", func(nb *Notebook, r *rand.Rand) bool {
		n := len(nb.Cells)
		if n == 0 {
			return false
		}
		nb.Cells = nb.Cells[:r.IntN(n)]
		nb.Cells = nb.Cells[:n]
		return true
	}},
	{"cells truncated", func(nb *Notebook, r *rand.Rand) bool {
		if len(nb.Cells) == 0 {
			return false
		}
		nb.Cells = nb.Cells[:r.IntN(len(nb.Cells))]
		return true
	}},
	{"cells moved to a new array, old array scribbled", func(nb *Notebook, r *rand.Rand) bool {
		if len(nb.Cells) == 0 {
			return false
		}
		old := nb.Cells
		nb.Cells = slices.Clone(old)
		old[r.IntN(len(old))] = NewRawCell("scribble")
		return true
	}},
	{"cells moved to a new array, then one replaced", func(nb *Notebook, r *rand.Rand) bool {
		if len(nb.Cells) == 0 {
			return false
		}
		nb.Cells = slices.Clone(nb.Cells)
		nb.Cells[r.IntN(len(nb.Cells))] = NewCodeCell("x")
		return true
	}},
	{"cells rebuilt from empty by append", func(nb *Notebook, r *rand.Rand) bool {
		old := nb.Cells
		nb.Cells = nb.Cells[:0:0]
		nb.Cells = append(nb.Cells, old...)
		return true
	}},
	{"a code cell replaced by a copy of itself", func(nb *Notebook, r *rand.Rand) bool {
		for i, c := range nb.Cells {
			if cc, ok := c.(*CodeCell); ok && cc != nil {
				cp := *cc
				nb.Cells[i] = &cp
				return true
			}
		}
		return false
	}},
	{"a code cell replaced by a copy with its count changed", func(nb *Notebook, r *rand.Rand) bool {
		for i, c := range nb.Cells {
			if cc, ok := c.(*CodeCell); ok && cc != nil {
				cp := *cc
				v := 1000 + r.IntN(10)
				cp.ExecutionCount = &v
				nb.Cells[i] = &cp
				return true
			}
		}
		return false
	}},
	{"a markdown cell replaced by a copy with its source changed", func(nb *Notebook, r *rand.Rand) bool {
		for i, c := range nb.Cells {
			if mc, ok := c.(*MarkdownCell); ok && mc != nil {
				cp := *mc
				cp.Source = Text(cp.Source.String() + "!")
				nb.Cells[i] = &cp
				return true
			}
		}
		return false
	}},
	{"an output replaced by another of the cell", func(nb *Notebook, r *rand.Rand) bool {
		c, ok := pick(r, withOutputs(nb))
		if !ok {
			return false
		}
		c.Outputs[r.IntN(len(c.Outputs))] = c.Outputs[r.IntN(len(c.Outputs))]
		return true
	}},
	{"an output replaced by one of another cell", func(nb *Notebook, r *rand.Rand) bool {
		cs := withOutputs(nb)
		a, ok := pick(r, cs)
		b, _ := pick(r, cs)
		if !ok {
			return false
		}
		a.Outputs[r.IntN(len(a.Outputs))] = b.Outputs[r.IntN(len(b.Outputs))]
		return true
	}},
	{"outputs of two cells exchanged", func(nb *Notebook, r *rand.Rand) bool {
		cs := codeCells(nb)
		a, ok := pick(r, cs)
		b, _ := pick(r, cs)
		if !ok {
			return false
		}
		a.Outputs, b.Outputs = b.Outputs, a.Outputs
		return true
	}},
	{"outputs moved, old array scribbled", func(nb *Notebook, r *rand.Rand) bool {
		c, ok := pick(r, withOutputs(nb))
		if !ok {
			return false
		}
		old := c.Outputs
		c.Outputs = slices.Clone(old)
		old[0] = NewStream("stdout", "scribble")
		return true
	}},
	{"outputs moved, then one changed", func(nb *Notebook, r *rand.Rand) bool {
		c, ok := pick(r, withOutputs(nb))
		if !ok {
			return false
		}
		c.Outputs = slices.Clone(c.Outputs)
		c.Outputs[r.IntN(len(c.Outputs))] = NewStream("stderr", "new")
		return true
	}},
	{"outputs truncated and re-extended by append", func(nb *Notebook, r *rand.Rand) bool {
		c, ok := pick(r, withOutputs(nb))
		if !ok {
			return false
		}
		k := r.IntN(len(c.Outputs))
		c.Outputs = append(c.Outputs[:k], NewStream("stdout", "appended"))
		return true
	}},
	{"outputs truncated", func(nb *Notebook, r *rand.Rand) bool {
		c, ok := pick(r, withOutputs(nb))
		if !ok {
			return false
		}
		c.Outputs = c.Outputs[:len(c.Outputs)-1]
		return true
	}},
	{"execution count changed in place", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			if c.ExecutionCount != nil {
				*c.ExecutionCount += 1 + r.IntN(3)
				return true
			}
		}
		return false
	}},
	{"execution count changed in place and back", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			if c.ExecutionCount != nil {
				*c.ExecutionCount += 7
				runtime.GC()
				*c.ExecutionCount -= 7
				return true
			}
		}
		return false
	}},
	{"execution count set to nil", func(nb *Notebook, r *rand.Rand) bool {
		c, ok := pick(r, codeCells(nb))
		if !ok || c.ExecutionCount == nil {
			return false
		}
		c.ExecutionCount = nil
		return true
	}},
	{"execution count pointed at an equal int", func(nb *Notebook, r *rand.Rand) bool {
		c, ok := pick(r, codeCells(nb))
		if !ok || c.ExecutionCount == nil {
			return false
		}
		v := *c.ExecutionCount
		c.ExecutionCount = &v
		return true
	}},
	{"execution count shared with another cell, then changed", func(nb *Notebook, r *rand.Rand) bool {
		cs := codeCells(nb)
		a, ok := pick(r, cs)
		b, _ := pick(r, cs)
		if !ok || b.ExecutionCount == nil {
			return false
		}
		a.ExecutionCount = b.ExecutionCount
		if r.IntN(2) == 0 {
			*a.ExecutionCount += 5
		}
		return true
	}},
	{"an output's execution count changed in place", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			for _, o := range c.Outputs {
				if er, ok := o.(*ExecuteResult); ok && er.ExecutionCount != nil {
					*er.ExecutionCount = -3
					return true
				}
			}
		}
		return false
	}},
	{"a metadata key deleted and re-added with its value", func(nb *Notebook, r *rand.Rand) bool {
		m, ok := pick(r, metadataMaps(nb))
		if !ok {
			return false
		}
		k := anyKey(r, m)
		v := m[k]
		delete(m, k)
		runtime.GC()
		m[k] = v
		return true
	}},
	{"a metadata key deleted", func(nb *Notebook, r *rand.Rand) bool {
		m, ok := pick(r, metadataMaps(nb))
		if !ok {
			return false
		}
		delete(m, anyKey(r, m))
		return true
	}},
	{"a metadata number replaced by another type", func(nb *Notebook, r *rand.Rand) bool {
		for _, m := range metadataMaps(nb) {
			for _, k := range slices.Sorted(mapKeys(m)) {
				if v, ok := otherNumber(m[k], r); ok {
					m[k] = v
					return true
				}
			}
		}
		return false
	}},
	{"a metadata value replaced by its decoded form", func(nb *Notebook, r *rand.Rand) bool {
		for _, m := range metadataMaps(nb) {
			for _, k := range slices.Sorted(mapKeys(m)) {
				if raw, ok := m[k].(json.RawMessage); ok {
					v, err := Decode(raw)
					if err != nil {
						return false
					}
					m[k] = v
					return true
				}
			}
		}
		return false
	}},
	{"a nested metadata value changed in place", func(nb *Notebook, r *rand.Rand) bool {
		for _, m := range metadataMaps(nb) {
			for _, k := range slices.Sorted(mapKeys(m)) {
				switch v := m[k].(type) {
				case map[string]any:
					v["injected"] = true
					return true
				case []any:
					if len(v) > 0 {
						v[0] = "injected"
						return true
					}
				case json.RawMessage:
					d, err := Decode(v)
					if err != nil {
						return false
					}
					switch d := d.(type) {
					case map[string]any:
						m[k] = d
						d["injected"] = 1
						return true
					case []any:
						m[k] = d
						if len(d) > 0 {
							d[len(d)-1] = map[string]any{"x": nil}
						} else {
							m[k] = append(d, 1)
						}
						return true
					}
				}
			}
		}
		return false
	}},
	{"a metadata string reboxed", func(nb *Notebook, r *rand.Rand) bool {
		for _, m := range metadataMaps(nb) {
			for _, k := range slices.Sorted(mapKeys(m)) {
				if s, ok := m[k].(string); ok {
					m[k] = strings.Clone(s)
					return true
				}
			}
		}
		return false
	}},
	{"a metadata string changed", func(nb *Notebook, r *rand.Rand) bool {
		for _, m := range metadataMaps(nb) {
			for _, k := range slices.Sorted(mapKeys(m)) {
				if s, ok := m[k].(string); ok {
					m[k] = s + "?"
					return true
				}
			}
		}
		return false
	}},
	{"a tag changed in place", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			if len(c.Metadata.Tags) > 0 {
				c.Metadata.Tags[r.IntN(len(c.Metadata.Tags))] = "edited-tag"
				return true
			}
		}
		return false
	}},
	{"tags moved and one changed", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			if len(c.Metadata.Tags) > 0 {
				old := c.Metadata.Tags
				c.Metadata.Tags = slices.Clone(old)
				if r.IntN(2) == 0 {
					c.Metadata.Tags[0] += "x"
				} else {
					old[0] += "x"
				}
				return true
			}
		}
		return false
	}},
	{"tags of two cells exchanged", func(nb *Notebook, r *rand.Rand) bool {
		cs := codeCells(nb)
		a, ok := pick(r, cs)
		b, _ := pick(r, cs)
		if !ok {
			return false
		}
		a.Metadata.Tags, b.Metadata.Tags = b.Metadata.Tags, a.Metadata.Tags
		return true
	}},
	{"collapsed flipped", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			if c.Metadata.Collapsed != nil {
				*c.Metadata.Collapsed = !*c.Metadata.Collapsed
				return true
			}
		}
		return false
	}},
	{"a source set and restored", func(nb *Notebook, r *rand.Rand) bool {
		c, ok := pick(r, codeCells(nb))
		if !ok {
			return false
		}
		saved := c.Source
		c.Source.Set("tmp")
		runtime.GC()
		c.Source = saved
		return true
	}},
	{"a source set", func(nb *Notebook, r *rand.Rand) bool {
		c, ok := pick(r, nb.Cells)
		if !ok || c == nil {
			return false
		}
		switch c := c.(type) {
		case *CodeCell:
			c.Source.Set(c.Source.String() + "#")
		case *MarkdownCell:
			c.Source.Set(c.Source.String() + "#")
		case *RawCell:
			c.Source.Set(c.Source.String() + "#")
		default:
			return false
		}
		return true
	}},
	{"a source of one cell given to another", func(nb *Notebook, r *rand.Rand) bool {
		cs := codeCells(nb)
		a, ok := pick(r, cs)
		b, _ := pick(r, cs)
		if !ok {
			return false
		}
		a.Source = b.Source
		return true
	}},
	{"an id changed", func(nb *Notebook, r *rand.Rand) bool {
		c, ok := pick(r, codeCells(nb))
		if !ok {
			return false
		}
		c.ID += "z"
		return true
	}},
	{"a stream's text and name changed", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			for _, o := range c.Outputs {
				if s, ok := o.(*Stream); ok && s != nil {
					if r.IntN(2) == 0 {
						s.Name += "x"
					} else {
						s.Text = Text(s.Text.String() + "x")
					}
					return true
				}
			}
		}
		return false
	}},
	{"a bundle's text set", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			for _, o := range c.Outputs {
				switch o := o.(type) {
				case *ExecuteResult:
					o.Data.SetText("text/plain", "new text")
					return true
				case *DisplayData:
					o.Data.SetText("text/plain", "new text")
					return true
				}
			}
		}
		return false
	}},
	{"a bundle shared between two outputs", func(nb *Notebook, r *rand.Rand) bool {
		var ds []*MimeBundle
		for _, c := range codeCells(nb) {
			for _, o := range c.Outputs {
				switch o := o.(type) {
				case *ExecuteResult:
					ds = append(ds, &o.Data)
				case *DisplayData:
					ds = append(ds, &o.Data)
				}
			}
		}
		a, ok := pick(r, ds)
		b, _ := pick(r, ds)
		if !ok {
			return false
		}
		*a = *b
		return true
	}},
	{"an error's traceback changed in place", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			for _, o := range c.Outputs {
				if e, ok := o.(*ErrorOutput); ok && len(e.Traceback) > 0 {
					e.Traceback[0] += "!"
					return true
				}
			}
		}
		return false
	}},
	{"kernelspec name changed", func(nb *Notebook, r *rand.Rand) bool {
		if nb.Metadata.Kernelspec == nil {
			return false
		}
		nb.Metadata.Kernelspec.Name += "2"
		return true
	}},
	{"kernelspec replaced by an equal copy", func(nb *Notebook, r *rand.Rand) bool {
		if nb.Metadata.Kernelspec == nil {
			return false
		}
		k := *nb.Metadata.Kernelspec
		nb.Metadata.Kernelspec = &k
		return true
	}},
	{"minor version changed", func(nb *Notebook, r *rand.Rand) bool {
		if nb.NbformatMinor >= 4 {
			return false // 4.4 to 4.5 adds cell ids, which in-memory notebooks derive otherwise
		}
		nb.NbformatMinor ^= 1
		return true
	}},
	{"an unknown cell's raw bytes changed in place", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range nb.Cells {
			if u, ok := c.(*UnknownCell); ok && u != nil && len(u.Raw) > 2 {
				if inInputOf(nb, uintptr(unsafe.Pointer(unsafe.SliceData(u.Raw)))) {
					u.Raw = append(json.RawMessage(nil), u.Raw...) // the input's: never to be modified
				}
				u.Raw[len(u.Raw)-2] = ' '
				return true
			}
		}
		return false
	}},
	{"an unknown output's raw bytes changed in place", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			for _, o := range c.Outputs {
				if u, ok := o.(*UnknownOutput); ok && u != nil && len(u.Raw) > 2 {
					if inInputOf(nb, uintptr(unsafe.Pointer(unsafe.SliceData(u.Raw)))) {
						u.Raw = append(json.RawMessage(nil), u.Raw...)
					}
					u.Raw = append(u.Raw[:len(u.Raw)-1], `, "added": 1}`...)
					return true
				}
			}
		}
		return false
	}},
	{"an attachment deleted and re-added, or replaced by a clone", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range nb.Cells {
			if mc, ok := c.(*MarkdownCell); ok && mc != nil && len(mc.Attachments) > 0 {
				for k, v := range mc.Attachments {
					delete(mc.Attachments, k)
					if r.IntN(2) == 0 {
						v = v.Clone()
					}
					mc.Attachments[k] = v
					return true
				}
			}
		}
		return false
	}},
	{"an attachment's bundle changed", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range nb.Cells {
			if mc, ok := c.(*MarkdownCell); ok && mc != nil && len(mc.Attachments) > 0 {
				for k, v := range mc.Attachments {
					v.SetText("image/png", "AAAA")
					mc.Attachments[k] = v
					return true
				}
			}
		}
		return false
	}},
	{"a bundle set to the values it has, or cloned", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			for _, o := range c.Outputs {
				var d *MimeBundle
				switch o := o.(type) {
				case *ExecuteResult:
					d = &o.Data
				case *DisplayData:
					d = &o.Data
				default:
					continue
				}
				if r.IntN(2) == 0 {
					*d = d.Clone()
					return true
				}
				for _, k := range d.Keys() {
					if s, ok := d.Text(k); ok {
						d.SetText(k, s)
					} else if raw, ok := d.RawJSON(k); ok {
						if err := d.SetJSON(k, raw); err != nil {
							return false
						}
					}
				}
				return true
			}
		}
		return false
	}},
	{"a bundle's JSON value changed", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			for _, o := range c.Outputs {
				if er, ok := o.(*ExecuteResult); ok {
					return er.Data.SetJSON("application/json", map[string]any{"new": 1}) == nil
				}
			}
		}
		return false
	}},
	{"an author's name changed in place", func(nb *Notebook, r *rand.Rand) bool {
		if len(nb.Metadata.Authors) == 0 {
			return false
		}
		a := &nb.Metadata.Authors[0]
		if a.Name != nil && r.IntN(2) == 0 {
			*a.Name += "!"
		} else {
			s := "someone"
			a.Name = &s
		}
		return true
	}},
	{"a pointed-to optional string changed in place", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			if e := c.Metadata.Execution; e != nil && e.IopubStatusBusy != nil {
				*e.IopubStatusBusy += "1"
				return true
			}
		}
		if li := nb.Metadata.LanguageInfo; li != nil && li.FileExtension != nil {
			*li.FileExtension += "x"
			return true
		}
		return false
	}},
	{"scrolled reboxed or flipped", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			switch v := c.Metadata.Scrolled.(type) {
			case bool:
				if r.IntN(2) == 0 {
					c.Metadata.Scrolled = !v
				} else {
					c.Metadata.Scrolled = any(v)
				}
				return true
			case string:
				c.Metadata.Scrolled = strings.Clone(v)
				return true
			}
		}
		return false
	}},
	{"a metadata map replaced by an equal one, then the old one changed", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			if m := c.Metadata.AdditionalProperties; len(m) > 0 {
				c.Metadata.AdditionalProperties = maps.Clone(m)
				m["old map only"] = 1
				return true
			}
		}
		return false
	}},
	{"an execution count repointed, then the old int changed", func(nb *Notebook, r *rand.Rand) bool {
		for _, c := range codeCells(nb) {
			if p := c.ExecutionCount; p != nil {
				v := *p
				c.ExecutionCount = &v
				*p = v + 100
				return true
			}
		}
		return false
	}},
	{"a collection", func(nb *Notebook, r *rand.Rand) bool {
		runtime.GC()
		return true
	}},
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// semantic returns what encoding/json reads from b, numbers as float64
// (so that 1, 1.0 and 1e0 are one value).
func semantic(b []byte) (any, bool) {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil, false
	}
	return attackJoinLines(v), true
}

// attackJoinLines replaces every array of strings in v by their concatenation:
// a multiline string is one value whether written as one string or as
// lines (the notebook's style decides), and other arrays of strings are
// compared the same way on both sides.
func attackJoinLines(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = attackJoinLines(x)
		}
	case []any:
		all := len(v) > 0
		var b strings.Builder
		for i, x := range v {
			s, ok := x.(string)
			all = all && ok
			b.WriteString(s)
			v[i] = attackJoinLines(x)
		}
		if all {
			return b.String()
		}
	}
	return v
}

// firstDiff returns the first place where a and b differ.
func firstDiff(path string, a, b any) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return path
		}
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range x {
				if !yield(k) {
					return
				}
			}
		}) {
			if d := firstDiff(path+"/"+k, x[k], y[k]); d != "" {
				return d
			}
		}
		if len(x) != len(y) {
			return path + " (members)"
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return path + " (length)"
		}
		for i := range x {
			if d := firstDiff(path+"/"+strconv.Itoa(i), x[i], y[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		return fmt.Sprintf("%s: %v != %v", path, a, b)
	}
	return ""
}

// inMemory writes nb's Document as a notebook built in memory would be.
func inMemory(nb *Notebook) ([]byte, error) {
	return Marshal(&Notebook{Document: nb.Document})
}

// bypassed writes nb with the encoder, never as the bytes read.
func bypassed(nb *Notebook) ([]byte, error) {
	var out []byte
	err := nb.encode(func(pieces ...[]byte) error {
		out = join(pieces)
		return nil
	})
	return out, err
}

// snapOracles says which oracles built from the Document alone agree
// with the notebook as read (and so are used after its edits): what
// encoding/json reads from Marshal's output (json), the canonical bytes
// (canon), the problems Validate finds (valid).
type snapOracles struct{ json, canon, valid bool }

// attackCanonical returns the canonical bytes of nb, or the error's text.
func attackCanonical(nb *Notebook) string {
	out, err := MarshalOptions{Canonical: true}.Marshal(nb)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(out)
}

// problemsOf returns the problems Validate finds in nb, as text.
func problemsOf(nb *Notebook) string {
	err := Validate(nb)
	if err == nil {
		return "valid"
	}
	var b strings.Builder
	for _, p := range Problems(err) {
		b.WriteString(p.Error())
		b.WriteByte('\n')
	}
	if b.Len() == 0 {
		return "error: " + err.Error()
	}
	return b.String()
}

func oraclesFor(nb *Notebook, data []byte) snapOracles {
	mem := &Notebook{Document: nb.Document}
	c := attackCanonical(nb)
	return snapOracles{
		json: semanticOK(nb, data),
		// Only for notebooks that have a canonical form: one that has
		// none for a reason the Document does not hold (a member that
		// is not an object, kept as read) may get one once edited.
		canon: !strings.HasPrefix(c, "error: ") && c == attackCanonical(mem),
		valid: problemsOf(nb) == problemsOf(mem),
	}
}

// semanticOK reports whether nb, as read, writes what encoding/json reads
// as the Document written in memory (else the semantic oracle is not
// used for it: an upgraded version 3 notebook, invalid values).
func semanticOK(nb *Notebook, data []byte) bool {
	mem, err := inMemory(nb)
	if err != nil {
		return false
	}
	a, ok1 := semantic(data)
	b, ok2 := semantic(mem)
	return ok1 && ok2 && firstDiff("", a, b) == ""
}

// checkBlockEdit checks nb, read from data and edited (what).
func checkBlockEdit(t testing.TB, what string, nb *Notebook, data []byte, o snapOracles) {
	t.Helper()
	snap, walk := snapSaysUnedited(nb), walkSaysUnedited(nb)
	if snap && !walk {
		t.Errorf("%s: FALSE UNEDITED: the snapshot says unedited, the walk edited", what)
	}
	if bom := nb.dropBOM && nb.src.tape.BOM; nb.Edited() != (!walk || bom) {
		t.Errorf("%s: Edited() = %v, the walk says unedited = %v", what, nb.Edited(), walk)
	}
	if nilVariantError(nb) != nil {
		return
	}
	out, err := Marshal(nb)
	if err != nil {
		return // a cycle or a value that cannot be written (not this test's concern)
	}
	fresh, err := bypassed(nb)
	if err != nil {
		t.Errorf("%s: Marshal succeeds, the encoder fails: %v", what, err)
		return
	}
	if !bytes.Equal(out, fresh) {
		t.Errorf("%s: Marshal (snapshot %v, walk %v) differs from the encoder's output with the unedited path bypassed", what, snap, walk)
	}
	if bytes.Equal(out, data) != walk && !(nb.dropBOM && nb.src.tape.BOM) {
		// The walk says edited but the bytes are the same: allowed (an
		// edit undone in a way the walk sees). The reverse is not.
		if walk {
			t.Errorf("%s: the walk says unedited but Marshal wrote other bytes", what)
		}
	}
	mem := &Notebook{Document: nb.Document}
	if o.canon && attackCanonical(nb) != attackCanonical(mem) {
		t.Errorf("%s: the canonical bytes (snapshot %v, walk %v) are not those of the Document written in memory", what, snap, walk)
	}
	if o.valid {
		if a, b := problemsOf(nb), problemsOf(mem); a != b {
			t.Errorf("%s: Validate (snapshot %v, walk %v) finds %q, in the Document in memory %q", what, snap, walk, a, b)
		}
	}
	if o.json {
		mem, err := inMemory(nb)
		if err != nil {
			return
		}
		a, ok1 := semantic(out)
		b, ok2 := semantic(mem)
		if d := firstDiff("", a, b); !ok1 || !ok2 || d != "" {
			t.Errorf("%s: encoding/json reads Marshal's output (snapshot %v, walk %v) as other values than the Document written in memory, at %s", what, snap, walk, d)
		}
	}
}

// snapBlocksInputs returns notebooks of every version and shape: the
// module's testdata, hand-made ones of versions 3 and 4.0-4.5, the block
// notebooks, and a part of the shared corpus.
func snapBlocksInputs(t *testing.T) map[string][]byte {
	in := map[string][]byte{}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		in[filepath.Base(p)] = data
	}
	for minor := range 6 {
		in["v4."+strconv.Itoa(minor)] = versionNotebook(minor)
	}
	in["v3-made"] = snapBlocksInputsV3
	in["blocks-6"] = blockNotebook(6)
	in["blocks-40"] = blockNotebook(40)
	n := 0
	for e, data := range corpus.Files(t) {
		if testing.Short() && n >= 10 || n >= 50 {
			break
		}
		n++
		in["corpus/"+e.Path] = data
	}
	return in
}

// snapBlocksInputsV3 is a version 3 notebook of a bit of everything.
var snapBlocksInputsV3 = []byte(`{"nbformat": 3, "nbformat_minor": 0, "metadata": {"name": "x", "n": 1.5}, "worksheets": [{"cells": [` +
	`{"cell_type": "code", "collapsed": false, "input": ["a = 1\n", "a"], "language": "python", "metadata": {"tags": ["t"], "k": 2},` +
	` "outputs": [{"output_type": "pyout", "prompt_number": 3, "text": ["1"], "metadata": {}}, {"output_type": "stream", "stream": "stdout", "text": "x"}], "prompt_number": 3},` +
	`{"cell_type": "heading", "level": 2, "metadata": {}, "source": "T"}, {"cell_type": "markdown", "metadata": {}, "source": "m"}], "metadata": {}}]}`)

// versionNotebook returns a notebook of nbformat 4.minor with a bit of
// everything (ids only from 4.5 on).
func versionNotebook(minor int) []byte {
	id := func(s string) string {
		if minor >= 5 {
			return `"id": "` + s + `", `
		}
		return ""
	}
	return []byte(`{"nbformat": 4, "nbformat_minor": ` + strconv.Itoa(minor) + `, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},` +
		` "authors": [{"name": "ann", "x": 1}, {"name": "bob"}], "language_info": {"name": "python", "file_extension": ".py", "codemirror_mode": {"name": "ipython", "version": 3}},` +
		` "custom": {"a": [1, 2.5, {"b": null}], "n": 3, "f": 1.0, "s": "str\u00e9"}, "flag": true}, "cells": [` +
		`{"cell_type": "code", ` + id("c0") + `"execution_count": 4, "metadata": {"tags": ["a", "b"], "collapsed": true, "x": {"y": [1]}, "num": 7},` +
		` "source": ["x = 1\n", "x"], "outputs": [{"output_type": "execute_result", "execution_count": 4, "data": {"text/plain": ["1"], "application/json": {"k": [1, 2]}}, "metadata": {"isolated": true, "w": 2}},` +
		` {"output_type": "stream", "name": "stdout", "text": "out\n"}, {"output_type": "error", "ename": "E", "evalue": "v", "traceback": ["tb1", "tb2"]},` +
		` {"output_type": "display_data", "data": {"image/png": "iVBO", "text/plain": "<fig>"}, "metadata": {}}]},` +
		`{"cell_type": "code", ` + id("c1") + `"execution_count": 5, "metadata": {"tags": ["a"], "collapsed": false}, "source": "y = 2", "outputs": [{"output_type": "stream", "name": "stderr", "text": ["e\n"]}]},` +
		`{"cell_type": "markdown", ` + id("m0") + `"metadata": {"k": "v"}, "source": ["# T\n", "text"]},` +
		`{"cell_type": "raw", ` + id("r0") + `"metadata": {"format": "text/plain"}, "source": "raw"},` +
		`{"cell_type": "code", ` + id("c2") + `"execution_count": null, "metadata": {}, "source": "", "outputs": []},` +
		`{"cell_type": "code", ` + id("e0") + `"execution_count": 1, "metadata": {"scrolled": true, "execution": {"iopub.status.busy": "2024-01-01T00:00:00Z"}}, "source": "", "outputs": [{"output_type": "mystery", "k": [1, 2]}]},` +
		`{"cell_type": "markdown", ` + id("a0") + `"metadata": {}, "source": "![a](attachment:a.png)", "attachments": {"a.png": {"image/png": "iVBORw0K"}}},` +
		`{"cell_type": "future", "x": {"y": [1]}}]}` + "\n")
}

// TestSnapBlocksSingleEdits applies each edit alone, with several seeds,
// to every input.
func TestSnapBlocksSingleEdits(t *testing.T) {
	applied := make([]int, len(blockEdits))
	seeds := 3
	if testing.Short() {
		seeds = 1
	}
	for name, data := range snapBlocksInputs(t) {
		base, err := Unmarshal(data)
		if err != nil {
			continue
		}
		sem := oraclesFor(base, data)
		for ei, e := range blockEdits {
			for seed := range seeds {
				nb, _ := Unmarshal(data)
				if !e.apply(nb, rand.New(rand.NewPCG(uint64(ei), uint64(seed)))) {
					break
				}
				applied[ei]++
				checkBlockEdit(t, name+": "+e.name, nb, data, sem)
			}
		}
	}
	for ei, e := range blockEdits {
		if applied[ei] == 0 {
			t.Errorf("%s: applied to no notebook", e.name)
		}
	}
}

// applySequence applies edits chosen by ops to nb, checking after each.
func applySequence(t testing.TB, name string, nb *Notebook, data []byte, ops []byte, sem snapOracles) {
	r := rand.New(rand.NewPCG(uint64(len(ops)), uint64(len(data))))
	var done []string
	for _, op := range ops {
		if op >= 224 { // a site found by reflection
			sites := reflectSites(reflect.ValueOf(&nb.Document).Elem(), nil, 400, 0)
			sites = slices.DeleteFunc(sites, func(v reflect.Value) bool {
				a := v.UnsafeAddr()
				return a == uintptr(unsafe.Pointer(&nb.Nbformat)) || a == uintptr(unsafe.Pointer(&nb.NbformatMinor))
			})
			if len(sites) == 0 {
				continue
			}
			site := sites[(int(op)*7919+r.IntN(len(sites)))%len(sites)]
			if !reflectEdit(site, r) {
				continue
			}
			done = append(done, "reflect "+site.Type().String())
			checkBlockEdit(t, name+": "+strings.Join(done, " / "), nb, data, sem)
			if t.Failed() {
				return
			}
			continue
		}
		e := blockEdits[int(op)%len(blockEdits)]
		if !e.apply(nb, r) {
			continue
		}
		done = append(done, e.name)
		checkBlockEdit(t, name+": "+strings.Join(done, " / "), nb, data, sem)
		if t.Failed() {
			return
		}
	}
}

// TestSnapBlocksEditSequences applies random sequences of edits.
func TestSnapBlocksEditSequences(t *testing.T) {
	inputs := snapBlocksInputs(t)
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range inputs {
			if !yield(k) {
				return
			}
		}
	})
	r := rand.New(rand.NewPCG(7, 13))
	rounds := 12
	if testing.Short() {
		rounds = 4
	}
	for _, name := range names {
		data := inputs[name]
		base, err := Unmarshal(data)
		if err != nil {
			continue
		}
		sem := oraclesFor(base, data)
		for range rounds {
			ops := make([]byte, 1+r.IntN(6))
			for i := range ops {
				ops[i] = byte(r.IntN(256))
			}
			nb, _ := Unmarshal(data)
			applySequence(t, name, nb, data, ops, sem)
		}
	}
}

// TestSnapBlocksTwoNotebooks shares values between two notebooks read
// from the same bytes, then edits one through the other.
func TestSnapBlocksTwoNotebooks(t *testing.T) {
	for name, data := range map[string][]byte{"v4.5": versionNotebook(5), "v4.4": versionNotebook(4), "blocks": blockNotebook(12)} {
		for i, share := range []func(a, b *Notebook){
			func(a, b *Notebook) { a.Cells[0] = b.Cells[0] },
			func(a, b *Notebook) { a.Cells = b.Cells },
			func(a, b *Notebook) { a.Cells = b.Cells[:len(b.Cells):len(b.Cells)] },
			func(a, b *Notebook) { a.Cells[0].(*CodeCell).Outputs = b.Cells[0].(*CodeCell).Outputs },
			func(a, b *Notebook) { a.Cells[0].(*CodeCell).Metadata.Tags = b.Cells[0].(*CodeCell).Metadata.Tags },
			func(a, b *Notebook) { a.Cells[0].(*CodeCell).ExecutionCount = b.Cells[0].(*CodeCell).ExecutionCount },
			func(a, b *Notebook) { a.Metadata = b.Metadata },
			func(a, b *Notebook) { a.Document = b.Document },
			func(a, b *Notebook) { *a = *b }, // one source, one snapshot, the same values
			func(a, b *Notebook) { *a = *b; a.Cells = slices.Clone(b.Cells) },
		} {
			for j, edit := range []func(b *Notebook){
				func(b *Notebook) {},
				func(b *Notebook) { b.Cells[0].(*CodeCell).Source.Set("edited through b") },
				func(b *Notebook) { *b.Cells[0].(*CodeCell).ExecutionCount = 77 },
				func(b *Notebook) { b.Cells[0].(*CodeCell).Outputs[0] = NewStream("stdout", "b") },
				func(b *Notebook) { b.Cells[0].(*CodeCell).Metadata.Tags[0] = "b" },
				func(b *Notebook) { b.Cells[0] = NewCodeCell("b") },
				func(b *Notebook) {
					if b.Metadata.Kernelspec != nil {
						b.Metadata.Kernelspec.Name = "b"
					}
				},
			} {
				a, b := mustReadInternal(t, data), mustReadInternal(t, data)
				share(a, b)
				runtime.GC()
				edit(b)
				what := fmt.Sprintf("%s: share %d, edit %d", name, i, j)
				o := oraclesFor(mustReadInternal(t, data), data)
				checkBlockEdit(t, what+" (a)", a, data, o)
				checkBlockEdit(t, what+" (b)", b, data, o)
			}
		}
	}
}

func mustReadInternal(t testing.TB, data []byte) *Notebook {
	t.Helper()
	nb, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

// emptyCellsNotebook returns n nearly empty cells (markdown, code, raw in
// turn): the snapshot's blocks outweigh the file past a few hundred.
func emptyCellsNotebook(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		switch i % 3 {
		case 0:
			b.WriteString(`{"cell_type":"markdown","metadata":{},"source":""}`)
		case 1:
			fmt.Fprintf(&b, `{"cell_type":"code","execution_count":%d,"metadata":{"tags":["t"]},"outputs":[],"source":"x"}`, i)
		default:
			b.WriteString(`{"cell_type":"raw","metadata":{},"source":"r"}`)
		}
	}
	b.WriteString("]}\n")
	return []byte(b.String())
}

// TestSnapBlocksAroundThreshold applies the edits to notebooks whose
// sizes straddle the threshold where the snapshot is recorded by the walk
// from the Document rather than by blocks; both sides must be seen.
func TestSnapBlocksAroundThreshold(t *testing.T) {
	sides := map[bool]int{}
	step := 16
	if testing.Short() {
		step = 48
	}
	for n := 240; n <= 480; n += step {
		data := emptyCellsNotebook(n)
		base := mustReadInternal(t, data)
		byBlocks := base.src.snap.regions != nil
		sides[byBlocks]++
		if !snapSaysUnedited(base) {
			t.Fatalf("%d cells: the notebook just read does not match its snapshot", n)
		}
		sem := oraclesFor(base, data)
		for ei, e := range blockEdits {
			nb := mustReadInternal(t, data)
			if e.apply(nb, rand.New(rand.NewPCG(uint64(ei), uint64(n)))) {
				checkBlockEdit(t, fmt.Sprintf("%d cells (by blocks %v): %s", n, byBlocks, e.name), nb, data, sem)
			}
		}
	}
	if sides[true] == 0 || sides[false] == 0 {
		t.Errorf("recorded by blocks / by the walk: %v (want both sides of the threshold)", sides)
	}
}

// FuzzSnapBlocksEdits applies sequences of edits (ops) to one of the
// made notebooks (which) or to the fuzzed bytes themselves.
func FuzzSnapBlocksEdits(f *testing.F) {
	made := [][]byte{versionNotebook(5), versionNotebook(3), blockNotebook(5), emptyCellsNotebook(300), emptyCellsNotebook(400)}
	for i := range made {
		f.Add(uint8(i), []byte{0, 5, 9, 20, 33}, []byte(nil))
		f.Add(uint8(i), []byte{230, 240, 250, 1}, []byte(nil))
	}
	f.Add(uint8(255), []byte{1, 2, 3, 4}, versionNotebook(2))
	f.Fuzz(func(t *testing.T, which uint8, ops []byte, data []byte) {
		if len(ops) > 16 {
			ops = ops[:16]
		}
		if int(which) < len(made) {
			data = made[which]
		}
		nb, err := UnmarshalOptions{MaxDepth: 100}.Unmarshal(data)
		if err != nil {
			return
		}
		sem := oraclesFor(nb, data)
		applySequence(t, "fuzz", nb, data, ops, sem)
	})
}

// TestSnapBlocksAfterUpgradeAndHeal applies each edit to notebooks read
// then upgraded (version 3 and 4.0-4.4 to 4.5) or healed: what they
// change is no longer as read, and an edit after must still be written.
func TestSnapBlocksAfterUpgradeAndHeal(t *testing.T) {
	inputs := map[string][]byte{"v3": snapBlocksInputsV3, "v4.2": versionNotebook(2), "v4.4": versionNotebook(4), "v4.5": versionNotebook(5)}
	if data, err := os.ReadFile(filepath.Join("..", "testdata", "v3.ipynb")); err == nil {
		inputs["v3.ipynb"] = data
	}
	for name, data := range inputs {
		for _, prep := range []struct {
			name string
			f    func(*Notebook) error
		}{
			{"upgraded", Upgrade},
			{"healed", func(nb *Notebook) error { _, err := Heal(nb); return err }},
		} {
			base := mustReadInternal(t, data)
			if err := prep.f(base); err != nil {
				if errors.Is(err, ErrUnsupportedVersion) {
					continue // Heal of version 3
				}
				t.Fatalf("%s %s: %v", name, prep.name, err)
			}
			written, err := Marshal(base)
			if err != nil {
				t.Fatalf("%s %s: %v", name, prep.name, err)
			}
			o := snapOracles{json: semanticOK(base, written)}
			mem := &Notebook{Document: base.Document}
			c := attackCanonical(base)
			o.canon = !strings.HasPrefix(c, "error: ") && c == attackCanonical(mem)
			o.valid = problemsOf(base) == problemsOf(mem)
			for ei, e := range blockEdits {
				nb := mustReadInternal(t, data)
				if err := prep.f(nb); err != nil {
					t.Fatal(err)
				}
				if e.apply(nb, rand.New(rand.NewPCG(uint64(ei), 1))) {
					checkBlockEdit(t, name+" "+prep.name+": "+e.name, nb, data, o)
				}
			}
		}
	}
}

// TestSnapBlocksInputChangedAfterRead changes the bytes given to
// Unmarshal after it returns (it copies them: small inputs into the
// tape's block, beside the snapshot's record, larger ones on their own):
// Marshal of the notebook must still write the bytes as they were read.
func TestSnapBlocksInputChangedAfterRead(t *testing.T) {
	for _, n := range []int{1, 40, 400} {
		want := blockNotebook(n)
		data := bytes.Clone(want)
		nb := mustReadInternal(t, data)
		for i := range data {
			if data[i] == '1' {
				data[i] = '7'
			}
		}
		runtime.GC()
		if out := mustMarshalInternal(t, nb); !bytes.Equal(out, want) {
			t.Errorf("%d cells (%d bytes): the input changed after Unmarshal changed what Marshal writes", n, len(want))
		}
		if nb.Edited() {
			t.Errorf("%d cells: Edited after the input changed", n)
		}
	}
}

func mustMarshalInternal(t testing.TB, nb *Notebook) []byte {
	t.Helper()
	out, err := Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// reflectSites returns the settable values reachable from v through
// exported fields, slice elements, pointers and interfaces (map values
// are not addressable: the map itself is the site), at most limit.
func reflectSites(v reflect.Value, out []reflect.Value, limit int, depth int) []reflect.Value {
	if len(out) >= limit || depth > 12 {
		return out
	}
	if v.CanSet() {
		out = append(out, v)
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			out = reflectSites(v.Elem(), out, limit, depth+1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				out = reflectSites(v.Field(i), out, limit, depth+1)
			}
		}
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			return out
		}
		for i := range min(v.Len(), 8) {
			out = reflectSites(v.Index(i), out, limit, depth+1)
		}
	}
	return out
}

// reflectEdit changes, or rewrites with an equal value, the site v.
func reflectEdit(v reflect.Value, r *rand.Rand) bool {
	keep := r.IntN(2) == 0 // an equal value in other memory, or a change
	switch v.Kind() {
	case reflect.String:
		if keep {
			v.SetString(strings.Clone(v.String()))
		} else {
			v.SetString(v.String() + "~")
		}
	case reflect.Int:
		if !keep {
			v.SetInt(v.Int() + 1)
		}
	case reflect.Bool:
		if !keep {
			v.SetBool(!v.Bool())
		}
	case reflect.Pointer:
		if v.IsNil() {
			if keep {
				return false
			}
			v.Set(reflect.New(v.Type().Elem()))
			return true
		}
		if keep {
			p := reflect.New(v.Type().Elem())
			p.Elem().Set(v.Elem())
			v.Set(p)
		} else {
			v.Set(reflect.Zero(v.Type()))
		}
	case reflect.Slice:
		n := v.Len()
		switch {
		case keep && n > 0:
			old := reflect.ValueOf(v.Interface()) // the old header, not addressable
			c := reflect.MakeSlice(v.Type(), n, n)
			reflect.Copy(c, v)
			v.Set(c)
			if r.IntN(2) == 0 {
				old.Index(0).Set(reflect.Zero(v.Type().Elem())) // the old array only
			}
		case n >= 2:
			i, j := r.IntN(n), r.IntN(n)
			a, b := reflect.New(v.Type().Elem()).Elem(), reflect.New(v.Type().Elem()).Elem()
			a.Set(v.Index(i))
			b.Set(v.Index(j))
			v.Index(i).Set(b)
			v.Index(j).Set(a)
		case n == 1:
			v.Set(v.Slice(0, 0))
		default:
			return false
		}
	case reflect.Map:
		if v.IsNil() || v.Len() == 0 {
			return false
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		k := keys[r.IntN(len(keys))]
		if keep {
			if r.IntN(2) == 0 {
				x := v.MapIndex(k)
				v.SetMapIndex(k, reflect.Value{})
				v.SetMapIndex(k, x)
			} else {
				m := reflect.MakeMapWithSize(v.Type(), v.Len())
				it := v.MapRange()
				for it.Next() {
					m.SetMapIndex(it.Key(), it.Value())
				}
				old := reflect.ValueOf(v.Interface())
				v.Set(m)
				old.SetMapIndex(k, reflect.Value{}) // the old map only
			}
		} else {
			v.SetMapIndex(k, reflect.Value{})
		}
	case reflect.Interface:
		if v.IsNil() {
			return false
		}
		x := v.Elem()
		if keep {
			c := reflect.New(x.Type()).Elem()
			c.Set(x)
			v.Set(c) // boxed again
		} else if x.Kind() == reflect.Pointer {
			v.Set(reflect.Zero(v.Type()))
		} else {
			v.Set(reflect.ValueOf("changed"))
		}
	default:
		return false
	}
	return true
}

// TestSnapBlocksReflectiveEdits edits random sites of every kind found
// by reflection (every exported field at any depth), by a change or by an
// equal value in other memory, a few at a time.
func TestSnapBlocksReflectiveEdits(t *testing.T) {
	rounds := 25
	if testing.Short() {
		rounds = 12
	}
	inputs := snapBlocksInputs(t)
	names := slices.Sorted(maps.Keys(inputs))
	for ni, name := range names {
		data := inputs[name]
		base, err := Unmarshal(data)
		if err != nil {
			continue
		}
		o := oraclesFor(base, data)
		r := rand.New(rand.NewPCG(uint64(ni), 99))
		for round := range rounds {
			nb := mustReadInternal(t, data)
			var done []string
			for range 1 + r.IntN(3) {
				sites := reflectSites(reflect.ValueOf(&nb.Document).Elem(), nil, 400, 0)
				// Not the version (4.4 to 4.5 adds cell ids, which a
				// notebook built in memory derives otherwise).
				sites = slices.DeleteFunc(sites, func(v reflect.Value) bool {
					a := v.UnsafeAddr()
					return a == uintptr(unsafe.Pointer(&nb.Nbformat)) || a == uintptr(unsafe.Pointer(&nb.NbformatMinor))
				})
				if len(sites) == 0 {
					break
				}
				s := sites[r.IntN(len(sites))]
				if reflectEdit(s, r) {
					done = append(done, s.Type().String())
				}
			}
			if r.IntN(4) == 0 {
				runtime.GC()
			}
			checkBlockEdit(t, fmt.Sprintf("%s round %d: %v", name, round, done), nb, data, o)
		}
	}
}

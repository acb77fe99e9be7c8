package nbformat

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
)

// The edits of the attack on the unedited check by blocks
// (attack_snapblocks_test.go): cells and outputs reordered, moved and
// replaced, execution counts, metadata keys and numbers.

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

// blockEdits are the edits applied, in two tables: blockEditsOrder (cells
// and outputs reordered, moved, truncated, replaced; execution counts;
// metadata keys and numbers) and blockEditsValues (metadata strings, tags,
// sources, bundles, attachments, raw bytes and the rest, in
// attack_snapedits_values_test.go).
var blockEdits = slices.Concat(blockEditsOrder, blockEditsValues)

var blockEditsOrder = []blockEdit{
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
}

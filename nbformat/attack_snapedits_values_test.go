package nbformat

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
)

// The edits of the attack on the unedited check by blocks
// (attack_snapblocks_test.go): metadata, tags, bundles, attachments and
// the rest a caller can change.

var blockEditsValues = []blockEdit{
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
				if inInputOf(nb, u.Raw) {
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
					if inInputOf(nb, u.Raw) {
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

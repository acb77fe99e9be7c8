package nbformat

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// A Repair is one change [Heal] made.
type Repair struct {
	Pointer Pointer // where, in the notebook before healing
	What    string
}

func (r Repair) String() string { return string(r.Pointer) + ": " + r.What }

// HealOptions configures [HealOptions.Heal]. The zero value uses random
// ids.
type HealOptions struct {
	// NewID returns candidate ids for cells that need one (default NewID).
	NewID func() CellID
}

// Heal makes an nbformat 4 notebook valid with default options. See
// [HealOptions.Heal].
func Heal(nb *Notebook) ([]Repair, error) { return HealOptions{}.Heal(nb) }

// Heal makes an nbformat 4 notebook valid against the schema of its
// version, changing only what is invalid, and reports each change. A valid
// notebook is left exactly as it is. Where something invalid holds content,
// the content is kept in a valid place:
//
//   - members the schema does not allow (a markdown cell's outputs, say) and
//     metadata keys with invalid values are removed, as Python nbformat's
//     strip_invalid_metadata does;
//   - missing required members are written with their empty values (an
//     empty source, no outputs, a null execution count, {} metadata);
//   - missing, invalid and duplicate cell ids (4.5 and later) get fresh
//     unique ids;
//   - a cell of an unrecognized type becomes a raw cell holding its source
//     (or, lacking one, its JSON);
//   - an output of an unrecognized type becomes the output it resembles:
//     display_data when it has data, stream when it has text, error when it
//     has a traceback, else display_data showing its JSON as text/plain;
//   - values of the wrong type (a numeric source, say) are replaced by
//     their text where text is expected, else removed;
//   - a UTF-8 byte-order mark before the JSON (which Python's json module
//     refuses) is removed.
//
// Heal replaces rather than changes shared values: cells and outputs it
// repairs are new values in nb.Cells, and the cells it leaves alone keep
// their identity (so unedited cells are still written byte for byte). It
// fails, leaving nb valid as far as it got, if problems remain.
func (o HealOptions) Heal(nb *Notebook) ([]Repair, error) {
	if nb.Nbformat != 4 {
		return nil, fmt.Errorf("nbformat: heal nbformat %d: %w", nb.Nbformat, ErrUnsupportedVersion)
	}
	h := healer{nb: nb, newID: o.NewID, owned: map[uintptr]bool{}}
	if h.newID == nil {
		h.newID = NewID
	}
	nb.complete = true
	if nb.src != nil && nb.src.tape.BOM && !nb.dropBOM {
		// Not a schema matter, but Python's json module refuses the file.
		nb.dropBOM = true
		h.note("", "removed the UTF-8 byte-order mark at the start of the file (Python's json module refuses it)")
	}
	for round := 0; round < 5; round++ {
		t, err := nb.tape()
		if err != nil {
			return h.repairs, err
		}
		probs := validateTape(t)
		if len(probs) == 0 {
			return h.repairs, nil
		}
		before := len(h.repairs)
		h.apply(probs)
		if len(h.repairs) == before {
			errs := make([]error, len(probs))
			for i, p := range probs {
				errs[i] = p
			}
			return h.repairs, fmt.Errorf("nbformat: cannot heal: %w", errors.Join(errs...))
		}
	}
	return h.repairs, Validate(nb)
}

type healer struct {
	nb      *Notebook
	newID   func() CellID
	repairs []Repair
	cloned  map[int]bool     // cells already replaced by copies this round
	outputs map[int]bool     // cells whose outputs slice was copied this round
	owned   map[uintptr]bool // maps copied by Heal, changed in place
}

func (h *healer) note(p Pointer, format string, args ...any) {
	h.repairs = append(h.repairs, Repair{Pointer: p, What: fmt.Sprintf(format, args...)})
}

func tokens(p Pointer) []string {
	var toks []string
	for t := range p.Tokens() {
		toks = append(toks, t)
	}
	return toks
}

func (h *healer) apply(probs []*ValidationError) {
	h.cloned, h.outputs = map[int]bool{}, map[int]bool{}
	done := map[string]bool{}
	for _, p := range probs {
		toks := tokens(p.Pointer)
		key := ""
		if len(toks) > 0 {
			key = toks[0]
		}
		switch {
		case len(toks) == 0:
			// Missing required members are written now (complete).
		case key == "cells" && len(toks) >= 2:
			i, err := strconv.Atoi(toks[1])
			if err != nil || i < 0 || i >= len(h.nb.Cells) {
				continue
			}
			// One repair per place (a value can break several rules).
			place := strings.Join(toks[:min(len(toks), 4)], "/")
			if done[place] {
				continue
			}
			done[place] = true
			h.cell(i, toks[2:], p)
		case key == "metadata" && len(toks) >= 2:
			if done["/metadata/"+toks[1]] {
				continue
			}
			done["/metadata/"+toks[1]] = true
			md := reflect.ValueOf(&h.nb.Metadata).Elem()
			if h.dropKey(md, toks[1]) {
				h.note(Pointer("/metadata").AppendToken(toks[1]), "removed invalid notebook metadata (%s)", p.Msg)
			}
		default:
			if done[key] {
				continue
			}
			done[key] = true
			if h.dropKey(reflect.ValueOf(&h.nb.Document).Elem(), key) {
				h.note(Pointer("").AppendToken(key), "removed (%s)", p.Msg)
			}
		}
	}
}

// cellAt returns cell i, replaced by a copy the first time it is changed.
func (h *healer) cellAt(i int) reflect.Value {
	c := h.nb.Cells[i]
	v := reflect.ValueOf(c).Elem()
	if h.cloned[i] {
		return v
	}
	nv := reflect.New(v.Type())
	nv.Elem().Set(v)
	h.nb.Cells[i] = nv.Interface().(Cell)
	h.cloned[i] = true
	return nv.Elem()
}

func (h *healer) cell(i int, rest []string, p *ValidationError) {
	at := Pointer("/cells").AppendIndex(i)
	if u, ok := h.nb.Cells[i].(*UnknownCell); ok {
		h.nb.Cells[i] = cellFrom(u)
		h.cloned[i] = true
		h.note(at, "cell of unrecognized type %q made a %s cell", u.Type(), h.nb.Cells[i].Type())
		return
	}
	v := h.cellAt(i)
	if len(rest) == 0 {
		if p.Keyword == "required" && strings.Contains(p.Msg, `"id"`) {
			rest = []string{"id"}
		} else {
			return // other required members are written now
		}
	}
	switch rest[0] {
	case "id":
		if h.nb.Nbformat == 4 && h.nb.NbformatMinor < 5 {
			if h.dropKey(v, "id") {
				h.note(at.AppendToken("id"), "removed an id, which nbformat 4.%d does not have", h.nb.NbformatMinor)
			}
			return
		}
		used := map[CellID]bool{}
		for _, c := range h.nb.Cells {
			used[CellIDOf(c)] = true
		}
		fresh := h.newID()
		for used[fresh] || !validID.MatchString(string(fresh)) {
			fresh = h.newID()
		}
		old := CellIDOf(h.nb.Cells[i])
		h.dropKey(v, "id")
		SetCellID(h.nb.Cells[i], fresh)
		h.note(at.AppendToken("id"), "gave id %s (was %q: %s)", fresh, old, p.Msg)
	case "metadata":
		if len(rest) >= 2 {
			md := structField(v, "metadata")
			if md.IsValid() && h.dropKey(md, rest[1]) {
				h.note(at.AppendToken("metadata").AppendToken(rest[1]), "removed invalid cell metadata (%s)", p.Msg)
			}
			return
		}
		if h.dropKey(v, "metadata") {
			h.note(at.AppendToken("metadata"), "replaced invalid metadata with {} (%s)", p.Msg)
		}
	case "outputs":
		code, ok := h.nb.Cells[i].(*CodeCell)
		if !ok {
			if h.dropKey(v, "outputs") {
				h.note(at.AppendToken("outputs"), "removed outputs from a %s cell", h.nb.Cells[i].Type())
			}
			return
		}
		if len(rest) == 1 {
			if h.dropKey(v, "outputs") {
				h.note(at.AppendToken("outputs"), "replaced invalid outputs with [] (%s)", p.Msg)
			}
			return
		}
		j, err := strconv.Atoi(rest[1])
		if err != nil || j < 0 || j >= len(code.Outputs) {
			return
		}
		if !h.outputs[i] {
			code.Outputs = append([]Output(nil), code.Outputs...)
			h.outputs[i] = true
		}
		h.output(code, at.AppendToken("outputs").AppendIndex(j), j, rest[2:], p)
	case "attachments":
		h.attachments(v, at, rest, p)
	case "source":
		if x, ok := extraOf(v, "source"); ok {
			text := textOf(x)
			h.dropKey(v, "source")
			v.FieldByName("Source").Set(reflect.ValueOf(Text(text)))
			h.note(at.AppendToken("source"), "replaced a source that was not text by its text")
			return
		}
	default:
		if h.dropKey(v, rest[0]) {
			h.note(at.AppendToken(rest[0]), "removed (%s)", p.Msg)
		}
	}
}

func (h *healer) output(code *CodeCell, at Pointer, j int, rest []string, p *ValidationError) {
	out := code.Outputs[j]
	if u, ok := out.(*UnknownOutput); ok {
		code.Outputs[j] = outputFrom(u)
		h.note(at, "output of unrecognized type %q made a %s output", u.Type(), code.Outputs[j].Type())
		return
	}
	v := reflect.ValueOf(out).Elem()
	nv := reflect.New(v.Type())
	nv.Elem().Set(v)
	code.Outputs[j] = nv.Interface().(Output)
	v = nv.Elem()
	if len(rest) == 0 {
		return // a required member: written now
	}
	switch {
	case rest[0] == "data" && len(rest) >= 2:
		f := v.FieldByName("Data")
		b := f.Interface().(MimeBundle).Clone()
		b.Delete(rest[1])
		f.Set(reflect.ValueOf(b))
		h.note(at.AppendToken("data").AppendToken(rest[1]), "removed invalid output data (%s)", p.Msg)
	case rest[0] == "text" && v.Type() == reflect.TypeFor[Stream]():
		if x, ok := extraOf(v, "text"); ok {
			h.dropKey(v, "text")
			v.FieldByName("Text").Set(reflect.ValueOf(Text(textOf(x))))
			h.note(at.AppendToken("text"), "replaced stream text that was not text by its text")
			return
		}
		fallthrough
	default:
		if h.dropKey(v, rest[0]) {
			h.note(at.AppendToken(rest[0]), "removed (%s)", p.Msg)
		}
	}
}

func (h *healer) attachments(v reflect.Value, at Pointer, rest []string, p *ValidationError) {
	f := v.FieldByName("Attachments")
	if !f.IsValid() {
		if h.dropKey(v, "attachments") {
			h.note(at.AppendToken("attachments"), "removed attachments from a cell that cannot have them")
		}
		return
	}
	if x, ok := extraOf(v, "attachments"); ok {
		// The attachments did not decode: keep the bundles that do.
		h.dropKey(v, "attachments")
		kept := Attachments{}
		if m, ok := x.(map[string]any); ok {
			for name, b := range m {
				if bundle, ok := b.(map[string]any); ok {
					var mb MimeBundle
					for mime, val := range bundle {
						if s, ok := val.(string); ok {
							mb.SetText(mime, s)
						}
					}
					if mb.Len() > 0 {
						kept[name] = mb
					}
				}
			}
		}
		if len(kept) > 0 {
			f.Set(reflect.ValueOf(kept))
		}
		h.note(at.AppendToken("attachments"), "kept the valid attachments of invalid ones (%s)", p.Msg)
		return
	}
	if len(rest) >= 3 {
		old := f.Interface().(Attachments)
		att := make(Attachments, len(old))
		for k, b := range old {
			att[k] = b
		}
		b := att[rest[1]].Clone()
		b.Delete(rest[2])
		if b.Len() == 0 {
			delete(att, rest[1])
		} else {
			att[rest[1]] = b
		}
		f.Set(reflect.ValueOf(att))
		h.note(at.AppendToken("attachments").AppendToken(rest[1]).AppendToken(rest[2]), "removed invalid attachment data (%s)", p.Msg)
	}
}

// dropKey removes member key from the struct v (addressable): its field is
// zeroed and it leaves AdditionalProperties, which is copied the first time
// (it may be shared with the notebook as read) and changed in place after.
// It reports whether there was anything to remove.
func (h *healer) dropKey(v reflect.Value, key string) bool {
	plan := infoOf(v.Type()).plan
	changed := false
	if fi, ok := plan.byName[key]; ok {
		f := v.Field(plan.fields[fi].index)
		if !f.IsZero() {
			f.SetZero()
			changed = true
		}
	}
	if plan.extra >= 0 {
		f := v.Field(plan.extra)
		m := f.Interface().(map[string]any)
		if _, ok := m[key]; ok {
			if !h.owned[f.Pointer()] {
				n := make(map[string]any, len(m))
				for k, x := range m {
					n[k] = x
				}
				m = n
				h.owned[reflect.ValueOf(m).Pointer()] = true
			}
			delete(m, key)
			if len(m) == 0 {
				m = nil
			}
			f.Set(reflect.ValueOf(m))
			changed = true
		}
	}
	return changed
}

// extraOf returns AdditionalProperties[key] of the struct v.
func extraOf(v reflect.Value, key string) (any, bool) {
	plan := infoOf(v.Type()).plan
	if plan.extra < 0 {
		return nil, false
	}
	x, ok := v.Field(plan.extra).Interface().(map[string]any)[key]
	return x, ok
}

// structField returns the addressable struct held by member key of v,
// copying it first if it is behind a pointer (so the original is not
// changed).
func structField(v reflect.Value, key string) reflect.Value {
	plan := infoOf(v.Type()).plan
	fi, ok := plan.byName[key]
	if !ok {
		return reflect.Value{}
	}
	f := v.Field(plan.fields[fi].index)
	switch f.Kind() {
	case reflect.Struct:
		return f
	case reflect.Pointer:
		if f.IsNil() || f.Elem().Kind() != reflect.Struct {
			return reflect.Value{}
		}
		n := reflect.New(f.Type().Elem())
		n.Elem().Set(f.Elem())
		f.Set(n)
		return n.Elem()
	}
	return reflect.Value{}
}

// textOf is the text of a generic JSON value: a string, a list of strings
// joined, else its JSON.
func textOf(x any) string {
	switch x := x.(type) {
	case nil:
		return ""
	case string:
		return x
	case []any:
		var b strings.Builder
		all := true
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				all = false
				break
			}
			b.WriteString(s)
		}
		if all {
			return b.String()
		}
	}
	raw, err := encodeCompact(x)
	if err != nil {
		return fmt.Sprint(x)
	}
	return string(raw)
}

// cellFrom turns an unrecognized cell into a raw cell holding its source
// (or its JSON) and its metadata when that is an object; a version 3
// heading cell becomes a markdown heading, as nbformat's upgrade makes it.
func cellFrom(u *UnknownCell) Cell {
	g, err := Decode(u.Raw)
	m, isObj := g.(map[string]any)
	source := string(u.Raw)
	if err == nil && isObj && m["source"] != nil {
		source = textOf(m["source"])
	}
	var id CellID
	var md map[string]any
	if isObj {
		if s, ok := m["id"].(string); ok && validID.MatchString(s) {
			id = CellID(s)
		}
		if x, ok := m["metadata"].(map[string]any); ok && len(x) > 0 {
			md = x
		}
	}
	if isObj && m["cell_type"] == "heading" {
		level, ok := m["level"].(int)
		if !ok || level < 1 {
			level = 1
		}
		var words []string
		for _, l := range SplitLines(source) {
			words = append(words, strings.TrimRight(l, "\r\n\v\f\x1c\x1d\x1e\u0085\u2028\u2029"))
		}
		c := &MarkdownCell{CellType: MarkdownCellCellTypeMarkdown, ID: id, Source: Text(strings.Repeat("#", level) + " " + strings.Join(words, " "))}
		c.Metadata.AdditionalProperties = md
		return c
	}
	c := &RawCell{CellType: RawCellCellTypeRaw, ID: id, Source: Text(source)}
	c.Metadata.AdditionalProperties = md
	return c
}

// outputFrom turns an unrecognized output into the output it resembles.
func outputFrom(u *UnknownOutput) Output {
	g, _ := Decode(u.Raw)
	m, _ := g.(map[string]any)
	md, _ := m["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
	}
	if data, ok := m["data"].(map[string]any); ok {
		d := &DisplayData{OutputType: DisplayDataOutputTypeDisplayData, Metadata: md}
		for mime, val := range data {
			if IsJSONMime(mime) {
				_ = d.Data.SetJSON(mime, val)
			} else {
				d.Data.SetText(mime, textOf(val))
			}
		}
		return d
	}
	if text, ok := m["text"]; ok {
		name, _ := m["name"].(string)
		if name == "" {
			name = "stdout"
		}
		return NewStream(name, textOf(text))
	}
	if tb, ok := m["traceback"].([]any); ok {
		e := NewError("", "")
		e.Ename, _ = m["ename"].(string)
		e.Evalue, _ = m["evalue"].(string)
		for _, l := range tb {
			e.Traceback = append(e.Traceback, textOf(l))
		}
		return e
	}
	return NewDisplayData(NewMimeBundle("text/plain", string(u.Raw)))
}

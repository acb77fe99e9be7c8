package nbformat

// The writer's machinery: objects, members and bundles written in the
// file's style (internal/nbstyle), untouched parts copied.

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsoncycle"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/mimetype"
	"github.com/nbdialog/ipynb/internal/nbstyle"
)

// encoder writes typed values back as JSON. Every value is written next to
// its original (a node of the tape it was read from, or -1): a value equal
// to its original is copied byte for byte, and a changed object or array
// keeps the original's layout (whitespace, separators, member order), so an
// edit changes only the bytes of what was edited. New content is written
// in the file's detected style.
type encoder struct {
	buf []byte
	t   *jsontree.Tape // nil for a notebook built in memory
	src *source
	st  *nbstyle.Style
	ids bool // write empty cell ids (nbformat 4.5 and later)
	// decoded says whether the struct being written was decoded from the
	// original it is compared with (then a required member the original
	// lacks stays out while it is zero, unless the struct is in
	// filledStructs: see fillMissing).
	decoded bool
	// filledStructs: the structs whose missing required members are
	// written (see fillMissing).
	filledStructs map[codecStruct]bool
	err           error
	scratch       []byte
	stack         []int // lists of members being compared (see members)
	cycles        jsoncycle.Guard
	// out, if set, is handed what buf holds whenever it passes spillSize
	// bytes, after a whole element of an array (see spill).
	out func([]byte) error
}

// spillSize is the most bytes an encoder writing to a stream holds
// before handing them on (see spill), unless one element is larger.
const spillSize = 64 << 10

// verbatim writes p as it is: into buf, or, writing to a stream, p
// itself once buf is handed on, when p is no smaller than spillSize (a
// value read unedited, say: no copy of it is made).
func (e *encoder) verbatim(p []byte) {
	if e.out == nil || len(p) < spillSize || e.err != nil {
		e.buf = append(e.buf, p...)
		return
	}
	for _, piece := range [2][]byte{e.buf, p} {
		if err := e.out(piece); err != nil {
			e.fail(err)
			return
		}
	}
	e.buf = e.buf[:0]
}

// spill hands what buf holds to out, if set, once it passes spillSize
// bytes, and empties buf: the encoder only ever appends to buf, so
// what it holds is final.
func (e *encoder) spill() {
	if e.out == nil || len(e.buf) < spillSize || e.err != nil {
		return
	}
	if err := e.out(e.buf); err != nil {
		e.fail(err)
		return
	}
	e.buf = e.buf[:0]
}

func (e *encoder) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// ---- writing ----

func (e *encoder) str(s string) {
	var ok bool
	e.buf, ok = jsontree.AppendQuoted(e.buf, s, e.st.Esc)
	if !ok {
		e.fail(fmt.Errorf("nbformat: string is not valid UTF-8: %.40q", s))
	}
}

// member is one member of an object being written.
type member struct {
	key   string
	orig  int // original member node, or -1
	write func(orig int, ind string)
}

// place orders new members among the existing ones: at their sorted place
// in a sorted file, else appended in the order objects of this type have
// in the file (then sorted).
func (e *encoder) place(ms, added []member, id int) []member {
	if len(added) == 0 {
		return ms
	}
	slices.SortFunc(added, func(a, b member) int { return strings.Compare(a.key, b.key) })
	if !e.st.Sorted && e.src != nil && id >= 0 {
		if order, ok := e.src.orderOf(id); ok {
			rank := func(k string) int {
				if i := slices.Index(order, k); i >= 0 {
					return i
				}
				return len(order)
			}
			slices.SortStableFunc(added, func(a, b member) int { return rank(a.key) - rank(b.key) })
		}
	}
	if !e.st.Sorted || !slices.IsSortedFunc(ms, func(a, b member) int { return strings.Compare(a.key, b.key) }) {
		return append(ms, added...)
	}
	out := make([]member, 0, len(ms)+len(added))
	i := 0
	for _, a := range added {
		for i < len(ms) && ms[i].key < a.key {
			out = append(out, ms[i])
			i++
		}
		out = append(out, a)
	}
	return append(out, ms[i:]...)
}

func (e *encoder) bundle(m MimeBundle, o int, ind string) {
	t := e.t
	hasOrig := o >= 0 && t.Nodes[o].Kind == jsontree.Object
	var entries []mimeEntry
	if m.b != nil {
		entries = m.b.entries
	}
	write := func(en mimeEntry) func(int, string) {
		return func(j int, ind string) {
			if j >= 0 && e.equalEntry(&en, j) {
				e.buf = append(e.buf, t.Raw(j)...)
				return
			}
			if en.isJSON {
				e.rawJSON(en.json, ind)
				return
			}
			e.multiline(en.text, j, ind, mimetype.SplitsLines(en.mime))
		}
	}
	var ms []member
	used := map[string]bool{}
	if hasOrig {
		for _, j := range t.UniqueMembers(o) {
			key := t.KeyString(j)
			i := m.find(key)
			if i < 0 {
				continue
			}
			used[key] = true
			ms = append(ms, member{key: key, orig: j, write: write(entries[i])})
		}
	}
	var added []member
	for _, en := range entries {
		if !used[en.mime] {
			added = append(added, member{key: en.mime, orig: -1, write: write(en)})
		}
	}
	if e.st.Sorted {
		e.object(o, ind, e.place(ms, added, -1), hasOrig)
	} else {
		e.object(o, ind, append(ms, added...), hasOrig)
	}
}

// object writes the members ms; with an original object o it keeps o's
// layout.
func (e *encoder) object(o int, ind string, ms []member, hasOrig bool) {
	t := e.t
	if hasOrig && t.Nodes[o].Len > 0 {
		kids := t.ChildList(o)
		data := t.Data
		first := kids[0]
		firstLead := data[t.Nodes[o].Start+1 : t.Nodes[first].Key]
		pos := make(map[int]int, len(kids)) // member node → its position
		for i, k := range kids {
			pos[k] = i
		}
		sepOf := func(j int) []byte { // separator before orig member j (not first)
			if i := pos[j]; i > 0 {
				return data[t.Nodes[kids[i-1]].End:t.Nodes[j].Key]
			}
			return nil
		}
		typical := []byte(nil)
		if len(kids) > 1 {
			typical = data[t.Nodes[kids[0]].End:t.Nodes[kids[1]].Key]
		} else {
			typical = append([]byte(","+e.commaSpace()), afterComma(firstLead)...)
		}
		colon := data[t.Nodes[first].KeyEnd:t.Nodes[first].Start]
		e.buf = append(e.buf, '{')
		for k, m := range ms {
			var lead []byte
			switch {
			case m.orig == first && k == 0:
				lead = firstLead
			case m.orig == first:
				lead = typical
			case m.orig >= 0 && k > 0:
				lead = sepOf(m.orig)
			case m.orig >= 0:
				lead = afterComma(sepOf(m.orig))
			case k == 0:
				lead = firstLead
			default:
				lead = typical
			}
			e.buf = append(e.buf, lead...)
			mind := lineIndent(lead, ind+e.st.Indent)
			if m.orig >= 0 {
				e.buf = append(e.buf, data[t.Nodes[m.orig].Key:t.Nodes[m.orig].Start]...)
			} else {
				e.str(m.key)
				e.buf = append(e.buf, colon...)
			}
			m.write(m.orig, mind)
		}
		if len(ms) == 0 {
			e.buf = append(e.buf, '}')
			return
		}
		e.buf = append(e.buf, data[t.Nodes[kids[len(kids)-1]].End:t.Nodes[o].End]...)
		return
	}
	if len(ms) == 0 {
		e.buf = append(e.buf, "{}"...)
		return
	}
	e.buf = append(e.buf, '{')
	inner := ind + e.st.Indent
	for k, m := range ms {
		if k > 0 {
			e.buf = append(e.buf, ',')
			if e.st.Compact() {
				e.buf = append(e.buf, e.commaSpace()...)
			}
		}
		if !e.st.Compact() {
			e.buf = append(e.buf, e.st.Newline...)
			e.buf = append(e.buf, inner...)
		}
		e.str(m.key)
		e.buf = append(e.buf, e.st.Colon...)
		m.write(m.orig, inner)
	}
	if !e.st.Compact() {
		e.buf = append(e.buf, e.st.Newline...)
		e.buf = append(e.buf, ind...)
	}
	e.buf = append(e.buf, '}')
}

func (e *encoder) commaSpace() string { return e.st.Comma }

// afterComma returns what follows the first comma in a separator (the
// whole separator if it has none).
func afterComma(sep []byte) []byte {
	if i := bytes.IndexByte(sep, ','); i >= 0 {
		return sep[i+1:]
	}
	return sep
}

// lineIndent returns the indentation a separator leaves: the spaces and
// tabs that follow its last newline, or def when it has none. What follows
// them (the comma of a comma-first separator, "\n  , ") is not
// indentation: nested content written on new lines is indented by
// whitespace only.
func lineIndent(sep []byte, def string) string {
	i := bytes.LastIndexByte(sep, '\n')
	if i < 0 {
		return def
	}
	line := sep[i+1:]
	n := 0
	for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
		n++
	}
	return string(line[:n])
}

// array writes n elements; with an original array o it keeps o's layout.
func (e *encoder) array(o int, ind string, n int, hasOrig bool, elem func(i int, ind string)) {
	t := e.t
	if hasOrig && t.Nodes[o].Len > 0 && n > 0 {
		kids := t.ChildList(o)
		data := t.Data
		lead := data[t.Nodes[o].Start+1 : t.Nodes[kids[0]].Start]
		var typical []byte
		if len(kids) > 1 {
			typical = data[t.Nodes[kids[0]].End:t.Nodes[kids[1]].Start]
		} else {
			typical = append([]byte(","+e.commaSpace()), afterComma(lead)...)
		}
		e.buf = append(e.buf, '[')
		for i := 0; i < n; i++ {
			sep := lead
			if i > 0 {
				sep = typical
				if i < len(kids) {
					sep = data[t.Nodes[kids[i-1]].End:t.Nodes[kids[i]].Start]
				}
			}
			e.buf = append(e.buf, sep...)
			elem(i, lineIndent(sep, ind+e.st.Indent))
			e.spill()
		}
		e.buf = append(e.buf, data[t.Nodes[kids[len(kids)-1]].End:t.Nodes[o].End]...)
		return
	}
	if n == 0 {
		e.buf = append(e.buf, "[]"...)
		return
	}
	e.buf = append(e.buf, '[')
	inner := ind + e.st.Indent
	for i := 0; i < n; i++ {
		if i > 0 {
			e.buf = append(e.buf, ',')
			if e.st.Compact() {
				e.buf = append(e.buf, e.commaSpace()...)
			}
		}
		if !e.st.Compact() {
			e.buf = append(e.buf, e.st.Newline...)
			e.buf = append(e.buf, inner...)
		}
		elem(i, inner)
		e.spill()
	}
	if !e.st.Compact() {
		e.buf = append(e.buf, e.st.Newline...)
		e.buf = append(e.buf, ind...)
	}
	e.buf = append(e.buf, ']')
}

// sameType reports whether node j is an object whose cell_type (or
// output_type) is that of x.
func sameType(t *jsontree.Tape, j int, x any) bool {
	if t.Nodes[j].Kind != jsontree.Object {
		return false
	}
	switch x := x.(type) {
	case *UnknownCell, *UnknownOutput:
		return false
	case Cell:
		k := t.Lookup(j, "cell_type")
		return k >= 0 && t.StrIs(k, string(x.Type()))
	case Output:
		k := t.Lookup(j, "output_type")
		return k >= 0 && t.StrIs(k, string(x.Type()))
	}
	return false
}

// token writes the string token tok (a validated JSON string with its
// quotes) in the encoder's escaping: copied when it is already spelled so
// (see nbstyle.QuotedAs), else decoded and escaped again.
func (e *encoder) token(tok []byte) {
	if nbstyle.QuotedAs(tok, e.st.Esc) {
		e.verbatim(tok)
		return
	}
	e.str(jsontree.UnescapeString(tok[1 : len(tok)-1]))
}

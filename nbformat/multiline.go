package nbformat

import (
	"bytes"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/lines"
)

// MultilineString is the schema's multiline_string: text stored on disk
// either as one JSON string or as an array of strings that are joined
// (source, stream text, text mime data). It remembers the form it was read
// in, so an unedited value is written back byte for byte, and an edited
// one keeps its form.
//
// The zero value is the empty text. A MultilineString read from a file
// decodes lazily: nothing is copied until String or Lines is called.
// Values are immutable; Set replaces the value held in a variable. Compare
// values with Equal (go-cmp uses it), or their texts with String; an empty
// text is String() == "".
type MultilineString struct {
	raw   []byte   // the JSON value as read; nil when built in memory
	text  string   // built in memory: the text (when lines is nil)
	lines []string // built with [TextLines]: the exact pieces
	form  form     // how the value is (to be) stored
}

type form uint8

const (
	formAuto   form = iota // as the file's style says
	formString             // one JSON string
	formLines              // an array of strings
)

// Text returns a MultilineString holding s. When written, it takes the
// form (one string, or lines split after each line boundary) that the
// notebook's style uses; canonical output always uses lines split as
// Python's str.splitlines(keepends=True) splits them (see [MultilineString.Lines]).
func Text(s string) MultilineString { return MultilineString{text: s} }

// TextLines returns a MultilineString stored as exactly these pieces (a
// JSON array of strings). Its text is their concatenation.
func TextLines(lines ...string) MultilineString {
	return MultilineString{lines: append([]string{}, lines...), form: formLines}
}

// TextString returns a MultilineString stored as one JSON string, whatever
// the notebook's style (the zero value and [Text] take the style's form).
func TextString(s string) MultilineString { return MultilineString{text: s, form: formString} }

// multilineFromRaw wraps a validated JSON string or array of strings.
func multilineFromRaw(raw []byte) MultilineString {
	f := formString
	if raw[0] == '[' {
		f = formLines
	}
	return MultilineString{raw: raw, form: f}
}

// String returns the text: the string, or the pieces joined.
func (m MultilineString) String() string {
	switch {
	case m.raw != nil:
		if m.raw[0] == '"' {
			return jsontree.UnescapeString(m.raw[1 : len(m.raw)-1])
		}
		var b strings.Builder
		b.Grow(len(m.raw))
		jsontree.EachString(m.raw, func(s []byte) { jsontree.WriteUnescaped(&b, s) })
		return b.String()
	case m.lines != nil:
		return strings.Join(m.lines, "")
	}
	return m.text
}

// Lines returns the pieces as stored: the array's strings, or the one
// string (no pieces for the empty string). For a value built with [Text]
// it returns the text split after every line boundary Python's
// str.splitlines(keepends=True) recognises, keeping the boundaries: "\n",
// "\r", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", U+0085, U+2028 and
// U+2029 (how Python nbformat splits text into the lists stored on disk).
func (m MultilineString) Lines() []string {
	switch {
	case m.raw != nil:
		if m.raw[0] == '"' {
			if len(m.raw) == 2 {
				return nil
			}
			return []string{m.String()}
		}
		var out []string
		jsontree.EachString(m.raw, func(s []byte) { out = append(out, jsontree.UnescapeString(s)) })
		return out
	case m.lines != nil:
		return append([]string{}, m.lines...)
	case m.form == formString:
		if m.text == "" {
			return nil
		}
		return []string{m.text}
	}
	return lines.Split(m.text)
}

// Set replaces the text with s. Setting the text it already has changes
// nothing (the value is still written exactly as read); otherwise the value
// keeps its form: a single string stays a single string, lines are split
// again.
func (m *MultilineString) Set(s string) {
	if m.String() == s {
		return
	}
	f := m.form
	if m.lines != nil {
		f = formLines
	}
	*m = MultilineString{text: s, form: f}
}

// Equal reports whether m and o hold the same text.
func (m MultilineString) Equal(o MultilineString) bool {
	if m.raw != nil && o.raw != nil && bytes.Equal(m.raw, o.raw) {
		return true
	}
	return m.String() == o.String()
}

// multiline writes text. splittable says whether new text may be stored as
// lines in this place (false for binary MIME data such as image/png).
func (e *encoder) multiline(m MultilineString, o int, ind string, splittable bool) {
	var pieces []string
	asList := false
	switch {
	case m.lines != nil:
		pieces, asList = m.lines, true
	case m.raw != nil:
		pieces, asList = m.Lines(), m.form == formLines
		if !asList {
			e.str(m.String())
			return
		}
	default:
		f := m.form
		if f == formAuto {
			switch {
			case o >= 0 && e.t.Nodes[o].Kind == jsontree.String:
				f = formString
			case o >= 0 && e.t.Nodes[o].Kind == jsontree.Array:
				f = formLines
			case e.st.lines && splittable:
				f = formLines
			default:
				f = formString
			}
		}
		if f == formString {
			e.str(m.text)
			return
		}
		asList = true
		if e.st.splitNL {
			pieces = lines.SplitNewlines(m.text)
		} else {
			pieces = lines.Split(m.text)
		}
	}
	_ = asList
	e.array(-1, ind, len(pieces), false, func(i int, _ string) { e.str(pieces[i]) })
}

package nbformat

// MultilineString: text held as a string or a list of lines, as read until
// changed.

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/nbstyle"
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
	lines []string // built with [textLines]: the exact pieces
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

// textLines returns a MultilineString stored as exactly these pieces (a
// JSON array of strings). Its text is their concatenation.
func textLines(lines ...string) MultilineString {
	return MultilineString{lines: append([]string{}, lines...), form: formLines}
}

// textString returns a MultilineString stored as one JSON string, whatever
// the notebook's style (the zero value and [Text] take the style's form).
func textString(s string) MultilineString { return MultilineString{text: s, form: formString} }

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

// textBound is the number of bytes textInto may write for m: 0 for a text
// read that it shares (one JSON string without escapes) and for a text
// built in memory (returned as it is, nothing written), else the length
// of the JSON read (unescaping never lengthens a string: every escape is
// at least as long as the UTF-8 it stands for), or of the lines.
func (m *MultilineString) textBound() int {
	if m.raw != nil {
		return nbstyle.TextBound(m.raw)
	}
	if m.lines != nil {
		n := 0
		for _, l := range m.lines {
			n += len(l)
		}
		return n
	}
	return 0
}

// textInto returns the text, as String does, without allocating: a text
// read that is one JSON string with no escape (the value read as a string,
// or as an array of that one string) is the string read itself, sharing
// the bytes read; any other text read (lines to join, escapes to decode),
// or built from lines, is written to b and is the part of b's string
// written (earlier parts are never changed: a strings.Builder only
// appends, and copies to a new buffer when it grows); a text built in
// memory is returned as it is.
//
// Sharing the bytes read is safe because they never change: m.raw is set
// only by decoding (multilineFromRaw), and always points into bytes no
// one writes to after they are read: Unmarshal's own copy of its input,
// the buffer given to Unmarshal with NoCopy (whose callers promise never
// to change it), or a private buffer made by this package (a
// version 3 upgrade's cells, a generic value's encoding, MimeBundle's
// copies); and a MultilineString never writes to its raw bytes. The string
// keeps those bytes alive as long as it lives.
func (m *MultilineString) textInto(b *strings.Builder) string {
	switch {
	case m.raw != nil:
		return nbstyle.TextInto(m.raw, b)
	case m.lines != nil:
		start := b.Len()
		for _, l := range m.lines {
			b.WriteString(l)
		}
		return b.String()[start:]
	}
	return m.text
}

// RawJSON returns the JSON the text was read as (one string, or an array
// of strings), without copying it: the bytes read themselves, which must
// not be changed (append to them does not change them). ok is false for a
// text built in memory ([Text], [MultilineString.Set]). A text's JSON
// read from a notebook is a part of the bytes the notebook was read from.
func (m MultilineString) RawJSON() (raw json.RawMessage, ok bool) {
	if m.raw == nil {
		return nil, false
	}
	return m.raw[:len(m.raw):len(m.raw)], true
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

// IsZero reports whether m is the zero MultilineString: no text, neither
// read from a file nor set. A field holding it is absent when written
// where the schema lets it be (as encoding/json's omitzero leaves it out).
func (m MultilineString) IsZero() bool { return zeroMultilineString(m) }

// multiline writes text. splittable says whether new text may be stored as
// lines in this place (false for binary MIME data such as image/png).
func (e *encoder) multiline(m MultilineString, o int, ind string, splittable bool) {
	var pieces []string
	asList := false
	switch {
	case m.lines != nil:
		pieces, asList = m.lines, true
	case m.raw != nil:
		// Tokens read are copied when spelled as they would be written
		// (see quoted.go).
		switch {
		case m.form == formString && m.raw[0] == '"':
			e.token(m.raw)
			return
		case m.form == formLines && m.raw[0] == '[':
			n, ok := countTokens(m.raw)
			if !ok {
				break
			}
			pos := 0
			e.array(-1, ind, n, false, func(int, string) {
				// Called for each element in order: the next token.
				tok, end := nextToken(m.raw, pos)
				e.token(tok)
				pos = end
			})
			return
		}
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
			case e.st.Lines && splittable:
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
		if e.st.SplitNL {
			pieces = lines.SplitNewlines(m.text)
		} else {
			pieces = lines.Split(m.text)
		}
	}
	_ = asList
	e.array(-1, ind, len(pieces), false, func(i int, _ string) { e.str(pieces[i]) })
}

// nextToken returns the first string token (with its quotes) of raw, a
// validated JSON array of strings, from offset from on, and the offset
// just past it; tok is nil when there is none, or when raw ends inside a
// string (which a validated value never does).
func nextToken(raw []byte, from int) (tok []byte, end int) {
	q := bytes.IndexByte(raw[from:], '"')
	if q < 0 {
		return nil, len(raw)
	}
	i := from + q
	j := i + 1
	for {
		// The next quote ends the string unless a backslash before it
		// starts an escape (which may be \").
		q := bytes.IndexByte(raw[j:], '"')
		if q < 0 {
			return nil, len(raw)
		}
		b := bytes.IndexByte(raw[j:j+q], '\\')
		if b < 0 {
			j += q
			break
		}
		j += b + 2
	}
	return raw[i : j+1], j + 1
}

// countTokens returns the number of string tokens of raw, a validated
// JSON array of strings; ok is false if raw ends inside a string.
func countTokens(raw []byte) (n int, ok bool) {
	for pos := 0; ; n++ {
		tok, end := nextToken(raw, pos)
		if tok == nil {
			return n, end == len(raw) && bytes.IndexByte(raw[pos:], '"') < 0
		}
		pos = end
	}
}

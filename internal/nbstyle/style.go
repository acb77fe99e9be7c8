// Package nbstyle detects how a notebook file is written, so that what is
// written anew in it looks like the rest (Detect), and copies string tokens
// already spelled as they would be written (QuotedAs); package nbformat's
// writer follows the Style it returns. It also reads the texts of
// multiline strings from their JSON as read (WriteJoined, TextInto,
// TextBound), for nbformat and the dialog layer (convert) alike.
package nbstyle

import (
	"bytes"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/lines"
)

// Style is how a file is written, detected from the file itself so that
// new and edited parts look like the rest: layout, key order, string
// escaping and how multiline text is stored.
type Style struct {
	Indent  string // one level of indentation ("" with newlines, or compact)
	Newline string // "\n", "\r\n", or "" for a one-line file
	Colon   string // between a key and its value: ": ", ":"
	Comma   string // after a comma in a one-line file: "", " "
	Esc     jsontree.Escaping
	Sorted  bool // keys are kept in code-point order
	Lines   bool // multiline text is stored as arrays of lines
	SplitNL bool // lines are split after "\n" only, not by str.splitlines
	Final   string
}

// Python is Python nbformat's writer: json.dumps(indent=1,
// sort_keys=True, separators=(",", ": "), ensure_ascii=False) plus "\n".
var Python = Style{Indent: " ", Newline: "\n", Colon: ": ", Sorted: true, Lines: true, Final: "\n"}

// Compact reports whether the style writes everything on one line.
func (s *Style) Compact() bool { return s.Newline == "" }

// Detect detects the style of the notebook file read into t.
func Detect(t *jsontree.Tape) *Style {
	st := Python
	st.Final = string(t.Data[t.Nodes[jsontree.Root].End:])
	st.detectLayout(t)
	st.detectKeysAndEscaping(t)
	st.detectMultiline(t)
	return &st
}

// detectLayout reads the indentation, newline, colon and comma from the
// space around the top-level object's first member (and, in a one-line
// file, after it).
func (st *Style) detectLayout(t *jsontree.Tape) {
	data := t.Data
	root := &t.Nodes[jsontree.Root]
	if root.Len == 0 {
		return
	}
	first := jsontree.Root + 1
	n := &t.Nodes[first]
	lead := data[root.Start+1 : n.Key]
	if i := bytes.LastIndexByte(lead, '\n'); i >= 0 {
		st.Newline = "\n"
		if i > 0 && lead[i-1] == '\r' {
			st.Newline = "\r\n"
		}
		st.Indent = string(lead[i+1:])
	} else {
		st.Newline, st.Indent = "", ""
		if root.Len > 1 {
			sep := data[n.End:t.Nodes[n.Skip].Key]
			if i := bytes.IndexByte(sep, ','); i >= 0 {
				st.Comma = string(sep[i+1:])
			}
		}
	}
	st.Colon = string(data[n.KeyEnd:n.Start])
}

// detectKeysAndEscaping reads whether every object's keys are sorted and
// how strings are escaped, from the parsed nodes and from what the lazy
// interiors hold.
func (st *Style) detectKeysAndEscaping(t *jsontree.Tape) {
	sawRaw, sawEscaped := false, false
	for i := range t.Nodes {
		n := &t.Nodes[i]
		switch n.Kind {
		case jsontree.Object:
			if st.Sorted && n.Len > 1 && !t.Lazy(i) && !sortedKeys(t, i) {
				st.Sorted = false
			}
		case jsontree.String:
			if n.Flags&jsontree.FlagASCII == 0 {
				sawRaw = true
			}
			if n.Flags&jsontree.FlagEscaped != 0 {
				s := t.Data[n.Start:n.End]
				if bytes.Contains(s, []byte(`\u`)) {
					jsontree.ScanEscapes(s, &st.Esc, &sawEscaped)
				}
			}
		}
	}
	ls := &t.LazyStyle
	if ls.Unsorted {
		st.Sorted = false
	}
	sawRaw = sawRaw || ls.RawNonASCII
	sawEscaped = sawEscaped || ls.EscapedNonASCII
	st.Esc.Upper = st.Esc.Upper || ls.Escaping.Upper
	st.Esc.HTML = st.Esc.HTML || ls.Escaping.HTML
	st.Esc.LineSep = st.Esc.LineSep || ls.Escaping.LineSep
	st.Esc.ASCII = sawEscaped && !sawRaw
}

// detectMultiline reads how cell sources store multiline text (arrays of
// lines or strings, whichever more cells use) and, for arrays, the
// splitting rule.
func (st *Style) detectMultiline(t *jsontree.Tape) {
	arrays, strs := 0, 0
	c := t.Lookup(jsontree.Root, "cells")
	if c >= 0 && t.Nodes[c].Kind == jsontree.Array {
		t.Children(c, func(k int) bool {
			s := -1
			if t.Nodes[k].Kind == jsontree.Object {
				s = t.Lookup(k, "source")
			}
			switch {
			case s < 0:
			case t.Nodes[s].Kind == jsontree.Array:
				arrays++
				st.SplitNL = st.SplitNL || splitsOnlyNewline(t, s)
			case t.Nodes[s].Kind == jsontree.String && t.Nodes[s].End-t.Nodes[s].Start > 2:
				strs++
			}
			return true
		})
	}
	st.Lines = arrays >= strs
}

func sortedKeys(t *jsontree.Tape, o int) bool {
	var prev []byte
	ok := true
	t.Children(o, func(k int) bool {
		key := t.KeyRaw(k)
		if t.Nodes[k].Flags&jsontree.FlagKeyEscaped != 0 {
			key = []byte(t.KeyString(k))
		} else {
			key = key[1 : len(key)-1]
		}
		if prev != nil && bytes.Compare(prev, key) > 0 {
			ok = false
			return false
		}
		prev = key
		return true
	})
	return ok
}

// splitsOnlyNewline reports whether an array of lines shows a writer that
// splits after "\n" only: a piece holding a str.splitlines boundary (other
// than "\n") anywhere but at its end.
func splitsOnlyNewline(t *jsontree.Tape, a int) bool {
	only := false
	if t.Lazy(a) {
		jsontree.EachString(t.Raw(a), func(s []byte) {
			if only || ascii(s) {
				return // plain ASCII pieces hold no other line boundary
			}
			if len(lines.Split(jsontree.UnescapeString(s))) > 1 {
				only = true
			}
		})
		return only
	}
	t.Children(a, func(k int) bool {
		if t.Nodes[k].Kind != jsontree.String || t.Nodes[k].Flags&jsontree.FlagEscaped == 0 && t.Nodes[k].Flags&jsontree.FlagASCII != 0 {
			return true
		}
		s := t.Str(k)
		if parts := lines.Split(s); len(parts) > 1 {
			only = true
			return false
		}
		return true
	})
	return only
}

// ascii reports whether string contents are ASCII without escapes.
func ascii(s []byte) bool {
	for _, c := range s {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

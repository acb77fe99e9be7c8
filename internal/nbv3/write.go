package nbv3

// Writing the upgraded cells: each value compact, from the tape's bytes
// where they are spelled so.

import (
	"bytes"
	"slices"
	"strconv"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// appendLines appends the joined string: from the parts' bytes when they
// are spelled as the writer spells them (escaping is character by
// character, so the joined bytes are the joined string's).
func (u *upgrader) appendLines(dst []byte, l joinedLines) []byte {
	if !l.plain {
		return appendString(dst, u.text(l))
	}
	dst = append(dst, '"')
	i := 0
	u.t.Children(l.arr, func(s int) bool {
		if i > 0 && l.nl {
			dst = append(dst, `\n`...)
		}
		i++
		raw := u.t.Raw(s)
		dst = append(dst, raw[1:len(raw)-1]...)
		return true
	})
	return append(dst, '"')
}

// endsLine reports whether a line ends with "\n" or "\r" (JoinV3: lines
// written by splitlines(True) are joined as they are).
func endsLine(s []byte) bool {
	return bytes.HasSuffix(s, []byte("\n")) || bytes.HasSuffix(s, []byte("\r"))
}

// strEndsLine is endsLine of the decoded string node s, read from its
// JSON where the last character is spelled plainly or as \n, \r or
// another two-character escape (the string is then not decoded), else
// decoded.
func strEndsLine(t *jsontree.Tape, s int) bool {
	if t.Nodes[s].Flags&jsontree.FlagEscaped == 0 {
		return endsLine(t.StrBytes(s)) // the bytes read: no copy
	}
	raw := t.Raw(s)
	body := raw[1 : len(raw)-1]
	n := len(body)
	if n >= 6 && body[n-6] == '\\' && body[n-5] == 'u' {
		// Perhaps a \u escape (or a backslash escaped before "u" and
		// four characters): decoded.
		return endsLine(t.StrBytes(s))
	}
	if n < 2 || body[n-2] != '\\' {
		// The last character is spelled as itself (a line break never
		// is: JSON escapes control characters).
		return n > 0 && (body[n-1] == '\n' || body[n-1] == '\r')
	}
	// body ends with a backslash and one character: an escape if the run
	// of backslashes before that character is odd.
	k := 0
	for k < n-1 && body[n-2-k] == '\\' {
		k++
	}
	if k%2 == 0 {
		return false // an escaped backslash, then the character itself
	}
	return body[n-1] == 'n' || body[n-1] == 'r'
}

// appendValue appends v.
func (u *upgrader) appendValue(dst []byte, v tval) []byte {
	switch {
	case v.node >= 0:
		return u.appendNode(dst, v.node)
	case v.obj != nil:
		return u.appendObject(dst, v.obj.ms)
	case v.lines.arr > 0:
		return u.appendLines(dst, v.lines)
	case v.arr != nil:
		if len(*v.arr) == 0 {
			return append(dst, "[]"...)
		}
		dst = append(dst, '[')
		for i, x := range *v.arr {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = u.appendValue(dst, x)
		}
		return append(dst, ']')
	}
	return append(dst, v.raw...)
}

// appendObject writes members (each key once) sorted by key.
func (u *upgrader) appendObject(dst []byte, ms []tmember) []byte {
	if len(ms) == 0 {
		return append(dst, "{}"...)
	}
	var buf [16]uint8
	order := sortedOrder(ms, buf[:0])
	dst = append(dst, '{')
	for i := range ms {
		m := &ms[i]
		if order != nil {
			m = &ms[order[i]]
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		if m.tok != nil && jsontree.IsPythonToken(m.tok, false, 0) {
			dst = append(dst, m.tok...)
		} else {
			dst = appendString(dst, string(m.key))
		}
		dst = append(dst, ':')
		dst = u.appendValue(dst, m.val)
	}
	return append(dst, '}')
}

// appendNode appends node j of the tape.
func (u *upgrader) appendNode(dst []byte, j int) []byte {
	t := u.t
	n := &t.Nodes[j]
	switch n.Kind {
	case jsontree.String:
		raw := t.Raw(j)
		if jsontree.IsPythonToken(raw, false, n.Flags) {
			return append(dst, raw...)
		}
		return appendString(dst, t.Str(j))
	case jsontree.Number:
		return appendNumber(dst, t.Raw(j), n.Flags)
	case jsontree.Array:
		dst = append(dst, '[')
		i := 0
		t.Children(j, func(k int) bool {
			if i > 0 {
				dst = append(dst, ',')
			}
			i++
			dst = u.appendNode(dst, k)
			return true
		})
		return append(dst, ']')
	case jsontree.Object:
		return u.appendObject(dst, u.members(j).ms)
	}
	return append(dst, t.Raw(j)...) // null, true, false
}

// appendString appends s quoted (bytes that are not UTF-8 as U+FFFD, a
// lone surrogate as its \u escape).
func appendString(dst []byte, s string) []byte {
	dst, _ = jsontree.AppendQuoted(dst, s, jsontree.Escaping{})
	return dst
}

// appendNumber appends a number as Python spells the value it reads: an
// integer as it is (without a sign on zero, "-0" being 0), any other
// number as Python's repr of its float.
func appendNumber(dst []byte, raw []byte, flags uint8) []byte {
	switch v := jsontree.NumberValue(raw, flags).(type) {
	case int:
		return strconv.AppendInt(dst, int64(v), 10)
	case float64:
		return jsontree.AppendPythonFloat(dst, v)
	}
	return append(dst, raw...) // an integer too large for an int
}

// sortedOrder returns the order of members (each key once) by key, in
// buf when they fit (the few members of cells, outputs and metadata,
// which come mostly in order: files written with sorted keys, the members
// an upgrade adds last), sorted by insertion of their indices, which
// moves no member; else it sorts members in place (an object is written
// once) and returns nil.
func sortedOrder(ms []tmember, buf []uint8) []uint8 {
	if len(ms) > cap(buf) {
		slices.SortFunc(ms, func(a, b tmember) int { return bytes.Compare(a.key, b.key) })
		return nil
	}
	order := buf[:len(ms)]
	for i := range order {
		order[i] = uint8(i)
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && string(ms[order[j]].key) < string(ms[order[j-1]].key); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	return order
}

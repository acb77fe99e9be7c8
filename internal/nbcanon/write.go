// Package nbcanon writes a notebook's JSON exactly as Python nbformat
// writes it (nbformat.write), or finds why Python cannot: package nbformat's
// canonical output, over the tape of the JSON the notebook would be
// written as.
//
// Write reproduces Python nbformat's writer exactly: the reader's
// rejoin_lines and strip_transient, then the writer's split_lines,
// strip_transient and json.dumps(indent=1, sort_keys=True,
// separators=(",", ": "), ensure_ascii=False for v4, True for v3), plus the
// final newline nbformat.write adds. It works on the JSON the notebook
// would be written as (so unknown and invalid members take part exactly as
// they would in Python), applying each rule only where Python's code would
// apply it. On a tape parsed with Shape, a value the rules do not look
// into (one with no nodes inside: metadata, JSON output data) is written
// and checked from its bytes, token by token, so that memory follows the
// widest object and the depth of such a value, not its number of values.
package nbcanon

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/lines"
	"github.com/nbdialog/ipynb/internal/mimetype"
	"github.com/nbdialog/ipynb/internal/nbv3"
	"github.com/nbdialog/ipynb/internal/zerocopy"
)

// ErrVersion is returned for a major version Python nbformat's writers do
// not write (only 3 and 4 are written).
var ErrVersion = errors.New("no canonical writer for this version")

// A Problem is where Python nbformat's reader or writer fails on the JSON,
// and why: the notebook has no canonical form.
type Problem struct {
	Pointer string // RFC 6901, into the JSON written
	Msg     string
}

func (p *Problem) Error() string { return p.Pointer + ": " + p.Msg }

// Write returns the canonical bytes of the notebook of nbformat major on
// t, or a *Problem. A rule that reads a lazy interior panics with the
// tape's *jsontree.LazyError: the caller then writes a full parse.
func Write(t *jsontree.Tape, major int) ([]byte, error) {
	w, err := newCanon(t, major, nil)
	if err != nil {
		return nil, err
	}
	w.buf = make([]byte, 0, len(t.Data)+len(t.Data)/32+64)
	w.root(jsontree.Root)
	w.buf = append(w.buf, '\n')
	return w.buf, nil
}

// WriteTo writes what Write returns to out, in pieces of about chunk
// bytes (or one value, when larger), holding no more of them: the first
// error of out stops the writing and is returned as it is. Its other
// errors and panics are Write's; a panic may come after pieces were
// written.
func WriteTo(out io.Writer, t *jsontree.Tape, major int) (err error) {
	w, err := newCanon(t, major, out)
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(writeFailure)
			if !ok {
				panic(r)
			}
			err = f.err
		}
	}()
	w.buf = make([]byte, 0, 2*chunk)
	w.root(jsontree.Root)
	w.buf = append(w.buf, '\n')
	w.flush(0)
	return nil
}

// chunk is the size of the pieces WriteTo writes.
const chunk = 32 << 10

// writeFailure carries the error of WriteTo's writer out of the writing.
type writeFailure struct{ err error }

type canon struct {
	t   *jsontree.Tape
	buf []byte
	esc jsontree.Escaping
	v3  bool
	out io.Writer // WriteTo's: buf goes to it in pieces (nil: Write keeps it whole)
	// the members of the objects open in a lazy value, by depth (see lazy)
	lazyMembers [][]lazyMember
}

// newCanon is the writer of the notebook of nbformat major on t, once
// Python's reader and writer are known to accept it.
func newCanon(t *jsontree.Tape, major int, out io.Writer) (*canon, error) {
	w := &canon{t: t, out: out}
	switch major {
	case 4:
	case 3:
		w.v3 = true
		w.esc.ASCII = true
	default:
		return nil, fmt.Errorf("nbformat %d: %w", major, ErrVersion)
	}
	if err := pythonFailure(t, w.v3); err != nil {
		return nil, err
	}
	return w, nil
}

// item starts an item of an array written in pieces (see flush): the
// opening bracket before the first, a comma before the others, then a
// new line indented by inner.
func (w *canon) item(first bool, inner string) {
	w.flush(chunk)
	if first {
		w.buf = append(w.buf, '[')
	} else {
		w.buf = append(w.buf, ',')
	}
	w.buf = append(w.buf, '\n')
	w.buf = append(w.buf, inner...)
}

// flush, for WriteTo, writes the bytes made so far to out and drops them,
// once there are at least least of them; an error of out panics with a
// writeFailure.
func (w *canon) flush(least int) {
	if w.out == nil || len(w.buf) < least || len(w.buf) == 0 {
		return
	}
	if _, err := w.out.Write(w.buf); err != nil {
		panic(writeFailure{err})
	}
	w.buf = w.buf[:0]
}

// cmember is a member to write: its key and how to write its value.
type cmember struct {
	key   string
	write func(ind string)
}

func (w *canon) object(ms []cmember, ind string) {
	slices.SortStableFunc(ms, func(a, b cmember) int { return strings.Compare(a.key, b.key) })
	w.container('{', '}', len(ms), func(i int, inner string) {
		w.str(ms[i].key)
		w.buf = append(w.buf, ": "...)
		ms[i].write(inner)
	}, ind)
}

func (w *canon) array(n int, elem func(i int, ind string), ind string) {
	w.container('[', ']', n, elem, ind)
}

// container writes an array or object (open, close) of n items in
// Python's indent=1 layout, elem writing item i at the indent given.
func (w *canon) container(open, close byte, n int, elem func(i int, ind string), ind string) {
	if n == 0 {
		w.buf = append(w.buf, open, close)
		return
	}
	inner := ind + " "
	w.buf = append(w.buf, open)
	for i := 0; i < n; i++ {
		w.flush(chunk)
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		w.buf = append(w.buf, '\n')
		w.buf = append(w.buf, inner...)
		elem(i, inner)
	}
	w.buf = append(w.buf, '\n')
	w.buf = append(w.buf, ind...)
	w.buf = append(w.buf, close)
}

func (w *canon) str(s string) { w.buf, _ = jsontree.AppendQuoted(w.buf, s, w.esc) }

// members lists the members of object j (the last of duplicate keys wins),
// each written by the plain rules unless hook returns a writer for it; a
// hook returning (nil, true) drops the member.
func (w *canon) members(j int, hook func(key string, k int) (func(string), bool)) []cmember {
	var ms []cmember
	for _, k := range w.t.UniqueMembers(j) {
		key := w.t.KeyString(k)
		if hook != nil {
			if f, ok := hook(key, k); ok {
				if f != nil {
					ms = append(ms, cmember{key, f})
				}
				continue
			}
		}
		k := k
		ms = append(ms, cmember{key, func(ind string) { w.value(k, ind) }})
	}
	return ms
}

// value writes node j by the plain rules.
func (w *canon) value(j int, ind string) {
	t := w.t
	n := &t.Nodes[j]
	if t.Lazy(j) {
		w.lazy(j, t.ValueAt(int(n.Start)), ind, 0)
		return
	}
	switch n.Kind {
	case jsontree.Object:
		w.object(w.members(j, nil), ind)
	case jsontree.Array:
		kids := t.ChildList(j)
		w.array(len(kids), func(i int, ind string) { w.value(kids[i], ind) }, ind)
	default:
		w.scalar(n)
	}
}

// scalar writes a number, string or literal node (of the tape's data).
func (w *canon) scalar(n *jsontree.Node) {
	raw := w.t.Data[n.Start:n.End]
	switch n.Kind {
	case jsontree.String:
		if jsontree.IsPythonToken(raw, w.esc.ASCII, n.Flags) {
			w.buf = append(w.buf, raw...)
		} else if n.Flags&jsontree.FlagEscaped == 0 {
			w.str(string(raw[1 : len(raw)-1]))
		} else {
			w.str(jsontree.UnescapeString(raw[1 : len(raw)-1]))
		}
	case jsontree.Number:
		w.buf = jsontree.AppendPythonNumber(w.buf, raw, n.Flags)
	default:
		w.buf = append(w.buf, raw...)
	}
}

// multilineText returns the text of a string or array of strings, and
// whether node j is one.
func (w *canon) multilineText(j int, joinRule func([]string) string) (string, bool) {
	t := w.t
	switch t.Nodes[j].Kind {
	case jsontree.String:
		return t.Str(j), true
	case jsontree.Array:
		if !t.IsMultiline(j) {
			return "", false
		}
		return joinRule(arrayLines(t.Raw(j))), true
	}
	return "", false
}

func joinAll(lines []string) string { return strings.Join(lines, "") }

// joinedLines returns, for a string or an array of strings j, the writer of
// its text (the pieces joined) as str.splitlines(True) pieces. An array's
// text is never built: pieces are joined and split as they are read, so
// that a long array of short lines costs no more than its longest line.
func (w *canon) joinedLines(j int) (func(ind string), bool) {
	t := w.t
	if !t.IsMultiline(j) {
		return nil, false
	}
	if t.Nodes[j].Kind == jsontree.String {
		text := t.Str(j)
		return func(ind string) { w.lines(text, ind) }, true
	}
	return func(ind string) {
		inner := ind + " "
		count := 0
		next := func() { // before a piece
			w.item(count == 0, inner)
			count++
		}
		emit := func(s string) {
			next()
			w.str(s)
		}
		// pending holds the text after the last line emitted; its last line
		// is kept back, as the next piece may continue it ("\r" + "\n").
		var pending []byte
		jsontree.EachString(t.Raw(j), func(s []byte) {
			if len(pending) == 0 && w.oneLine(s) {
				// The usual piece: a whole line, spelled as Python
				// spells it, goes out as it is.
				next()
				w.buf = append(w.buf, '"')
				w.buf = append(w.buf, s...)
				w.buf = append(w.buf, '"')
				return
			}
			n := len(pending)
			cr := n > 0 && pending[n-1] == '\r'
			pending = jsontree.AppendUnescaped(pending, s)
			if !cr && !hasLineBoundary(pending[n:]) {
				return // the same line goes on: nothing to split (no rescans)
			}
			parts := lines.Split(zerocopy.String(pending)) // (emitted before pending changes)
			if len(parts) < 2 {
				return
			}
			for _, p := range parts[:len(parts)-1] {
				emit(p)
			}
			pending = append(pending[:0], parts[len(parts)-1]...)
		})
		for _, p := range lines.Split(zerocopy.String(pending)) {
			emit(p)
		}
		if count == 0 {
			w.buf = append(w.buf, "[]"...)
			return
		}
		w.buf = append(w.buf, '\n')
		w.buf = append(w.buf, ind...)
		w.buf = append(w.buf, ']')
	}, true
}

// oneLine reports whether the contents s of a string token are one line
// of text as Python writes it: spelled as json.dumps spells it, ending in
// an escaped "\n", its only line boundary (escapes before it only of '"',
// '\\', tab and backspace).
func (w *canon) oneLine(s []byte) bool {
	n := len(s) - 2
	if n < 0 || s[n] != '\\' || s[n+1] != 'n' {
		return false
	}
	body := s[:n]
	for i := 0; i < len(body); i++ {
		k := bytes.IndexByte(body[i:], '\\')
		if k < 0 {
			break
		}
		i += k + 1
		if i == len(body) {
			return false // (the "\n" was "\\" and "n")
		}
		switch body[i] {
		case '"', '\\', 't', 'b':
		default:
			return false
		}
	}
	if w.esc.ASCII {
		for _, c := range body {
			if c >= 0x7f {
				return false
			}
		}
		return true // (no control character is unescaped in JSON)
	}
	return !hasLineBoundary(body)
}

// hasLineBoundary reports whether text holds a str.splitlines boundary.
func hasLineBoundary(b []byte) bool {
	for i, c := range b {
		switch {
		case c == '\n' || c == '\r' || c == '\v' || c == '\f' || c >= 0x1c && c <= 0x1e:
			return true
		case c == 0xc2 && i+1 < len(b) && b[i+1] == 0x85: // U+0085
			return true
		case c == 0xe2 && i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0xa8 || b[i+2] == 0xa9): // U+2028, U+2029
			return true
		}
	}
	return false
}

// lines writes text as Python's str.splitlines(True) pieces.
func (w *canon) lines(text, ind string) {
	pieces := lines.Split(text)
	w.array(len(pieces), func(i int, _ string) { w.str(pieces[i]) }, ind)
}

func (w *canon) root(j int) {
	t := w.t
	if t.Nodes[j].Kind != jsontree.Object {
		w.value(j, "")
		return
	}
	if w.v3 {
		w.rootV3(j)
		return
	}
	w.object(w.members(j, func(key string, k int) (func(string), bool) {
		switch key {
		case "metadata":
			if t.Nodes[k].Kind == jsontree.Object {
				return w.strip(k, "orig_nbformat", "orig_nbformat_minor", "signature"), true
			}
		case "cells":
			if t.Nodes[k].Kind == jsontree.Array {
				kids := t.ChildList(k)
				return func(ind string) {
					w.array(len(kids), func(i int, ind string) { w.cell(kids[i], ind) }, ind)
				}, true
			}
		}
		return nil, false
	}), "")
}

// strip returns a writer for object k without the given keys.
func (w *canon) strip(k int, drop ...string) func(string) {
	return func(ind string) {
		w.object(w.members(k, func(key string, _ int) (func(string), bool) {
			if slices.Contains(drop, key) {
				return nil, true
			}
			return nil, false
		}), ind)
	}
}

func (w *canon) cell(j int, ind string) {
	t := w.t
	if t.Nodes[j].Kind != jsontree.Object {
		w.value(j, ind)
		return
	}
	code := false
	if k := t.Lookup(j, "cell_type"); k >= 0 && t.StrIs(k, "code") {
		code = true
	}
	w.object(w.members(j, func(key string, k int) (func(string), bool) {
		switch key {
		case "source":
			if f, ok := w.joinedLines(k); ok {
				return f, true
			}
		case "attachments":
			if t.Nodes[k].Kind == jsontree.Object {
				return func(ind string) {
					w.object(w.members(k, func(_ string, a int) (func(string), bool) {
						if t.Nodes[a].Kind != jsontree.Object {
							return nil, false
						}
						return func(ind string) { w.bundle(a, ind) }, true
					}), ind)
				}, true
			}
		case "metadata":
			if t.Nodes[k].Kind == jsontree.Object {
				return w.strip(k, "trusted"), true
			}
		case "outputs":
			if code && t.Nodes[k].Kind == jsontree.Array {
				kids := t.ChildList(k)
				return func(ind string) {
					w.array(len(kids), func(i int, ind string) { w.output(kids[i], ind) }, ind)
				}, true
			}
		}
		return nil, false
	}), ind)
}

// bundle writes a mime bundle: lists of strings of non-JSON types joined,
// then text/*, application/javascript and image/svg+xml split into lines.
func (w *canon) bundle(j int, ind string) {
	t := w.t
	w.object(w.members(j, func(key string, k int) (func(string), bool) {
		if mimetype.IsJSON(key) {
			return nil, false
		}
		if mimetype.SplitsLines(key) {
			return w.joinedLines(k)
		}
		text, ok := w.multilineText(k, joinAll)
		if !ok {
			return nil, false
		}
		if t.Nodes[k].Kind == jsontree.String {
			return nil, false
		}
		return func(string) { w.str(text) }, true
	}), ind)
}

func (w *canon) output(j int, ind string) {
	t := w.t
	if t.Nodes[j].Kind != jsontree.Object {
		w.value(j, ind)
		return
	}
	otype := ""
	if k := t.Lookup(j, "output_type"); k >= 0 && t.Nodes[k].Kind == jsontree.String {
		otype = t.Str(k)
	}
	w.object(w.members(j, func(key string, k int) (func(string), bool) {
		switch {
		case key == "data" && (otype == "execute_result" || otype == "display_data"):
			if t.Nodes[k].Kind == jsontree.Object {
				return func(ind string) { w.bundle(k, ind) }, true
			}
		case key == "text" && otype == "stream":
			if f, ok := w.joinedLines(k); ok {
				return f, true
			}
		case key == "text" && otype != "" && t.Nodes[k].Kind == jsontree.Array:
			if text, ok := w.multilineText(k, joinAll); ok {
				return func(string) { w.str(text) }, true
			}
		}
		return nil, false
	}), ind)
}

// ---- nbformat 3 ----

func (w *canon) rootV3(j int) {
	t := w.t
	w.object(w.members(j, func(key string, k int) (func(string), bool) {
		switch key {
		case "orig_nbformat", "orig_nbformat_minor":
			return nil, true
		case "worksheets":
			if t.Nodes[k].Kind == jsontree.Array {
				return func(ind string) {
					kids := t.ChildList(k)
					w.array(len(kids), func(i int, ind string) { w.worksheetV3(kids[i], ind) }, ind)
				}, true
			}
		}
		return nil, false
	}), "")
}

func (w *canon) worksheetV3(j int, ind string) {
	t := w.t
	if t.Nodes[j].Kind != jsontree.Object {
		w.value(j, ind)
		return
	}
	w.object(w.members(j, func(key string, k int) (func(string), bool) {
		if key == "cells" && t.Nodes[k].Kind == jsontree.Array {
			return func(ind string) {
				kids := t.ChildList(k)
				w.array(len(kids), func(i int, ind string) { w.cellV3(kids[i], ind) }, ind)
			}, true
		}
		return nil, false
	}), ind)
}

func (w *canon) cellV3(j int, ind string) {
	t := w.t
	if t.Nodes[j].Kind != jsontree.Object {
		w.value(j, ind)
		return
	}
	code := false
	if k := t.Lookup(j, "cell_type"); k >= 0 && t.StrIs(k, "code") {
		code = true
	}
	w.object(w.members(j, func(key string, k int) (func(string), bool) {
		switch {
		case key == "trusted":
			return nil, true
		case key == "metadata" && t.Nodes[k].Kind == jsontree.Object:
			return w.strip(k, "trusted"), true
		case code && key == "input", !code && (key == "source" || key == "rendered"):
			if text, ok := w.multilineText(k, lines.JoinV3); ok {
				return func(ind string) { w.lines(text, ind) }, true
			}
		case code && key == "outputs" && t.Nodes[k].Kind == jsontree.Array:
			return func(ind string) {
				kids := t.ChildList(k)
				w.array(len(kids), func(i int, ind string) { w.outputV3(kids[i], ind) }, ind)
			}, true
		}
		return nil, false
	}), ind)
}

func (w *canon) outputV3(j int, ind string) {
	if w.t.Nodes[j].Kind != jsontree.Object {
		w.value(j, ind)
		return
	}
	w.object(w.members(j, func(key string, k int) (func(string), bool) {
		if slices.Contains(nbv3.Texts, key) {
			if text, ok := w.multilineText(k, lines.JoinV3); ok {
				return func(ind string) { w.lines(text, ind) }, true
			}
		}
		return nil, false
	}), ind)
}

// arrayLines returns the strings of raw, a validated JSON array of
// strings, decoded.
func arrayLines(raw []byte) []string {
	var out []string
	jsontree.EachString(raw, func(s []byte) { out = append(out, jsontree.UnescapeString(s)) })
	return out
}

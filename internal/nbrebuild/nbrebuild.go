// Package nbrebuild is the tape side of package nbformat's Heal: the
// JSON of cells and outputs of unknown or wrong types rebuilt as the kind
// they resemble (keeping their members), and the texts, counts and
// compact JSON Heal takes from the nodes of a notebook read.
package nbrebuild

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/lines"
)

// Members maps the keys of object node o to their nodes (the last of
// repeated keys wins); nil for other nodes.
func Members(t *jsontree.Tape, o int) map[string]int {
	m := map[string]int{}
	if o < 0 || t.Nodes[o].Kind != jsontree.Object {
		return m
	}
	t.Children(o, func(k int) bool {
		m[t.KeyString(k)] = k
		return true
	})
	return m
}

// CellJSON rebuilds an unrecognized cell (node n) as the JSON of the cell
// it resembles, keeping its members; as nbformat.Heal does.
func CellJSON(t *jsontree.Tape, n int) (raw []byte, typ string) {
	if t.Nodes[n].Kind != jsontree.Object {
		return rawCellJSON(Text(t, n)), "raw"
	}
	members := Members(t, n)
	has := func(key string) bool { return present(t, members, key) }
	given := ""
	if k, ok := members["cell_type"]; ok && t.Nodes[k].Kind == jsontree.String {
		given = t.Str(k)
	}
	switch norm := strings.ToLower(strings.TrimSpace(given)); {
	case norm == "code" || norm == "markdown" || norm == "raw":
		typ = norm
	case norm == "heading":
		return headingJSON(t, n, members), "markdown"
	case has("outputs") || has("execution_count"):
		typ = "code"
	default:
		typ = "raw"
	}
	out := append(rebuildBuffer(t, n), `{"cell_type": `...)
	out = strconv.AppendQuote(out, typ)
	t.Children(n, func(k int) bool {
		if t.KeyIs(k, "cell_type") {
			return true
		}
		out = append(out, ", "...)
		out = append(out, t.KeyRaw(k)...)
		out = append(out, ": "...)
		out = Compact(out, t, k)
		return true
	})
	if _, ok := members["source"]; !ok && typ != "code" && !strings.EqualFold(strings.TrimSpace(given), typ) {
		// A cell of another kind: its JSON is its content.
		out = append(out, `, "source": `...)
		out = appendJSONString(out, string(Compact(nil, t, n)))
	}
	return append(out, '}'), typ
}

func rawCellJSON(source string) []byte {
	out := []byte(`{"cell_type": "raw", "metadata": {}, "source": `)
	out = appendJSONString(out, source)
	return append(out, '}')
}

// headingJSON makes a version 3 heading cell a markdown heading, as
// nbformat's upgrade does, keeping its id and metadata.
func headingJSON(t *jsontree.Tape, n int, members map[string]int) []byte {
	level := 1
	if k, ok := members["level"]; ok {
		if c := Count(t, k); c != nil && *c >= 1 {
			level = *c
		}
	}
	source := ""
	if k, ok := members["source"]; ok {
		source = Text(t, k)
	}
	var words []string
	for _, l := range lines.Split(source) {
		words = append(words, strings.TrimRight(l, "\r\n\v\f\x1c\x1d\x1e\u0085\u2028\u2029"))
	}
	out := []byte(`{"cell_type": "markdown"`)
	for _, key := range []string{"id", "metadata"} {
		if k, ok := members[key]; ok {
			out = append(out, ", "...)
			out = appendJSONString(out, key)
			out = append(out, ": "...)
			out = Compact(out, t, k)
		}
	}
	out = append(out, `, "source": `...)
	out = appendJSONString(out, strings.Repeat("#", min(level, 6))+" "+strings.Join(words, " "))
	return append(out, '}')
}

// OutputJSON rebuilds an unrecognized output (node n) as the JSON of the
// output it resembles, keeping its members; as nbformat.Heal does.
func OutputJSON(t *jsontree.Tape, n int) (raw []byte, typ string) {
	if t.Nodes[n].Kind != jsontree.Object {
		return textOutputJSON(Text(t, n)), "display_data"
	}
	members := Members(t, n)
	typ = OutputType(t, members)
	if typ == "" {
		return textOutputJSON(string(Compact(nil, t, n))), "display_data"
	}
	r := outputRebuild{t: t, members: members, fold: -1}
	// nbformat 3's name for the execution count.
	r.renameCount = typ == "execute_result" && !present(t, members, "execution_count") && present(t, members, "prompt_number")
	if typ == "execute_result" || typ == "display_data" {
		r.fold = TextBesideData(t, members)
	}
	out := append(rebuildBuffer(t, n), `{"output_type": `...)
	out = strconv.AppendQuote(out, typ)
	out = r.appendMembers(out, n)
	if typ == "stream" && !present(t, members, "name") {
		out = append(out, `, "name": "stdout"`...)
	}
	return append(out, '}'), typ
}

// textOutputJSON is the JSON of a display_data output showing s as
// text/plain.
func textOutputJSON(s string) []byte {
	out := []byte(`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": `)
	out = appendJSONString(out, s)
	return append(out, "}}"...)
}

// present reports whether members (of an object of t) has key, not null.
func present(t *jsontree.Tape, members map[string]int, key string) bool {
	k, ok := members[key]
	return ok && t.Nodes[k].Kind != jsontree.Null
}

// OutputType is the type of output an output object (its
// members) resembles: the type it names, or a case variant of a valid one
// (nbformat 3's pyout and pyerr included), unless its members are those of
// another type and not of that one ("Stream" holding data and no text is a
// display_data); else the type its members suggest; "" if none.
func OutputType(t *jsontree.Tape, members map[string]int) string {
	has := func(key string) bool { return present(t, members, key) }
	given := ""
	if k, ok := members["output_type"]; ok && t.Nodes[k].Kind == jsontree.String {
		given = t.Str(k)
	}
	byMembers := outputTypeOfMembers(has)
	norm := strings.ToLower(strings.TrimSpace(given))
	if v3, ok := v3OutputTypes[norm]; ok {
		norm = v3
	}
	switch norm {
	case "execute_result", "display_data", "stream", "error":
		if byMembers == "" || outputFits(norm, has) {
			return norm
		}
	}
	return byMembers
}

// v3OutputTypes are nbformat 3's names of output types that version 4
// renamed.
var v3OutputTypes = map[string]string{"pyout": "execute_result", "pyerr": "error"}

// outputTypeOfMembers is the output type an output's members suggest:
// execute_result when it has data and an execution count, display_data
// when it has data, stream when it has text, error when it has a
// traceback, ename or evalue; "" if none.
func outputTypeOfMembers(has func(string) bool) string {
	switch {
	case has("data") && (has("execution_count") || has("prompt_number")):
		return "execute_result"
	case has("data"):
		return "display_data"
	case has("text"):
		return "stream"
	case has("traceback") || has("ename") || has("evalue"):
		return "error"
	}
	return ""
}

// outputFits reports whether an output has a member holding the content
// of output type typ: data for execute_result and display_data, text for
// a stream, a traceback, ename or evalue for an error.
func outputFits(typ string, has func(string) bool) bool {
	switch typ {
	case "execute_result", "display_data":
		return has("data")
	case "stream":
		return has("text")
	case "error":
		return has("traceback") || has("ename") || has("evalue")
	}
	return false
}

// outputRebuild writes the members of an output object as those of the
// output type it becomes.
type outputRebuild struct {
	t       *jsontree.Tape
	members map[string]int
	// renameCount: prompt_number becomes execution_count (which, null,
	// is dropped).
	renameCount bool
	fold        int // text beside the data, to become its text/plain; or -1
}

// appendMembers appends every member of object n but output_type, each
// after ", ".
func (r outputRebuild) appendMembers(out []byte, n int) []byte {
	t := r.t
	t.Children(n, func(k int) bool {
		key := t.KeyString(k)
		if key == "output_type" || key == "execution_count" && r.renameCount || key == "text" && r.fold >= 0 {
			return true
		}
		out = append(out, ", "...)
		if key == "prompt_number" && r.renameCount {
			out = appendJSONString(out, "execution_count")
		} else {
			out = append(out, t.KeyRaw(k)...)
		}
		out = append(out, ": "...)
		if r.fold >= 0 && k == r.members["data"] {
			out = appendDataWithText(out, t, k, r.fold)
		} else {
			out = Compact(out, t, k)
		}
		return true
	})
	return out
}

// appendDataWithText appends data object d with text node x as its
// text/plain entry, last.
func appendDataWithText(out []byte, t *jsontree.Tape, d, x int) []byte {
	out = Compact(out, t, d)
	out = out[:len(out)-1] // the data's closing brace
	if t.Nodes[d].Len > 0 {
		out = append(out, ", "...)
	}
	out = append(out, `"text/plain": `...)
	out = Compact(out, t, x)
	return append(out, '}')
}

// TextBesideData returns the node of an output's text member when it is
// text and the output's data, an object, has no text/plain (which is then
// the text's valid place); else -1.
func TextBesideData(t *jsontree.Tape, members map[string]int) int {
	d, hasData := members["data"]
	x, hasText := members["text"]
	if !hasData || !hasText || t.Nodes[d].Kind != jsontree.Object || t.Lookup(d, "text/plain") >= 0 || !t.IsMultiline(x) {
		return -1
	}
	return x
}

// rebuildBuffer returns an empty buffer with room for the compact JSON of
// node n as Heal rebuilds it: its bytes read (compact JSON is no longer)
// and the few members a rebuild adds, so that copying a large value into
// it does not grow it step by step.
func rebuildBuffer(t *jsontree.Tape, n int) []byte {
	nd := &t.Nodes[n]
	return make([]byte, 0, int(nd.End-nd.Start)+64)
}

// Compact appends node n of t as compact JSON, keeping every string,
// number and key exactly as written.
func Compact(dst []byte, t *jsontree.Tape, n int) []byte {
	switch t.Nodes[n].Kind {
	case jsontree.Array:
		dst = append(dst, '[')
		first := true
		t.Children(n, func(k int) bool {
			if !first {
				dst = append(dst, ", "...)
			}
			first = false
			dst = Compact(dst, t, k)
			return true
		})
		return append(dst, ']')
	case jsontree.Object:
		dst = append(dst, '{')
		first := true
		t.Children(n, func(k int) bool {
			if !first {
				dst = append(dst, ", "...)
			}
			first = false
			dst = append(dst, t.KeyRaw(k)...)
			dst = append(dst, ": "...)
			dst = Compact(dst, t, k)
			return true
		})
		return append(dst, '}')
	}
	return append(dst, t.Raw(n)...)
}

// Text is the text of node n: a string as it is, a list of strings
// joined, null nothing, anything else its JSON text (42 is "42").
func Text(t *jsontree.Tape, n int) string {
	if n < 0 {
		return ""
	}
	switch t.Nodes[n].Kind {
	case jsontree.Null:
		return ""
	case jsontree.String:
		return t.Str(n)
	case jsontree.Array:
		if t.IsMultiline(n) {
			var b strings.Builder
			t.Children(n, func(k int) bool {
				b.WriteString(t.Str(k))
				return true
			})
			return b.String()
		}
	}
	return string(Compact(nil, t, n))
}

// Count is the execution count node n spells: a non-negative integer
// (written as a number, an integral float, or a string of digits), else
// nil.
func Count(t *jsontree.Tape, n int) *int {
	if n < 0 {
		return nil
	}
	var s string
	switch t.Nodes[n].Kind {
	case jsontree.Number:
		s = string(t.Raw(n))
	case jsontree.String:
		s = strings.TrimSpace(t.Str(n))
	default:
		return nil
	}
	if i, err := strconv.Atoi(s); err == nil && i >= 0 {
		return &i
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f >= 0 && f < 1<<53 && f == math.Trunc(f) {
		i := int(f)
		return &i
	}
	return nil
}

func CountText(c *int) string {
	if c == nil {
		return "null"
	}
	return strconv.Itoa(*c)
}

// appendJSONString appends s as a JSON string.
func appendJSONString(dst []byte, s string) []byte {
	b, _ := json.Marshal(s) // strings always marshal
	return append(dst, b...)
}

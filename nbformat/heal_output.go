package nbformat

import (
	"errors"
	"reflect"
	"strconv"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/mimetype"
)

// outputNodeOf returns the tape node of output j of cell i in this pass's
// tape (the list of a cell's output nodes is built once per pass).
func (h *healer) outputNodeOf(i, j int) int {
	if h.outNodes == nil || h.outCell != i {
		h.outCell = i
		h.outNodes = h.t.ChildList(h.memberNode(h.cellNodeOf(i), "outputs"))
	}
	return h.outNodes[j]
}

// output repairs every problem of one output of cell i at once.
func (h *healer) output(i int, code *CodeCell, at Pointer, jtok string, probs []healProblem) {
	j, err := strconv.Atoi(jtok)
	if err != nil || j < 0 || j >= len(code.Outputs) {
		return
	}
	at = at.appendIndex(j)
	t := h.t
	node := h.outputNodeOf(i, j)
	out := code.Outputs[j]
	if u, ok := out.(*UnknownOutput); ok {
		raw, typ := outputJSON(t, node)
		h.newOutputs = append(h.newOutputs, pendingOutput{cell: i, index: j, json: raw})
		h.note(at, "output of unrecognized type %q made a %s output", u.Type(), typ)
		return
	}
	if h.whole {
		code.Outputs[j] = NewDisplayData(NewMimeBundle("text/plain", string(compactNode(nil, t, node))))
		h.note(at, "replaced a %s output that could not be repaired (%s) by display_data showing its JSON", out.Type(), probs[0].err.Msg)
		return
	}
	o := cloneOutput(out)
	code.Outputs[j] = o
	v := reflect.ValueOf(o).Elem()
	var members, dataMembers map[string]int
	member := func(key string) int {
		if members == nil {
			members = memberIndex(t, node)
		}
		if n, ok := members[key]; ok {
			return n
		}
		return -1
	}
	dataCloned, tracebackDone, textDone := false, false, false
	for _, p := range probs {
		rest := p.toks[4:]
		switch {
		case len(rest) == 0:
			if errors.Is(p.err, ErrMissingMember) {
				h.note(at.appendToken(p.err.Member), "added the missing member with its empty value")
			}
		case rest[0] == "data" && len(rest) == 1:
			var b MimeBundle
			b.SetText("text/plain", textOfNode(t, member("data")))
			h.dropKey(v, "data")
			setData(o, b)
			h.note(at.appendToken("data"), "made data that was not an object its text/plain entry")
		case rest[0] == "data":
			d := member("data")
			if dataMembers == nil {
				dataMembers = memberIndex(t, d)
			}
			n, ok := dataMembers[rest[1]]
			if !ok || d < 0 {
				continue
			}
			b := dataOf(o)
			if !dataCloned {
				b = b.Clone()
				dataCloned = true
			}
			b.SetText(rest[1], textOfNode(t, n))
			setData(o, b)
			h.note(at.appendToken("data").appendToken(rest[1]), "replaced output data that was not text by its text")
		case rest[0] == "metadata" && len(rest) == 1:
			h.dropKey(v, "metadata")
			setOutputMetadata(o)
			h.note(at.appendToken("metadata"), "replaced invalid output metadata with {} (%s)", p.err.Msg)
		case rest[0] == "execution_count":
			if r, ok := o.(*ExecuteResult); ok {
				h.dropKey(v, "execution_count")
				r.ExecutionCount = countOf(t, member("execution_count"))
				h.note(at.appendToken("execution_count"), "replaced an invalid execution count by %s (%s)", countText(r.ExecutionCount), p.err.Msg)
			}
		case rest[0] == "traceback":
			if e, ok := o.(*ErrorOutput); ok && !tracebackDone {
				tracebackDone = true
				h.dropKey(v, "traceback")
				e.Traceback = tracebackOf(t, member("traceback"))
				h.note(at.appendToken("traceback"), "made the traceback a list of text lines (%s)", p.err.Msg)
			}
		case len(rest) == 1 && isTextMember(o, rest[0]):
			h.dropKey(v, rest[0])
			setTextMember(o, rest[0], textOfNode(t, member(rest[0])))
			h.note(at.appendToken(rest[0]), "replaced a value that was not text by its text")
		case len(rest) == 1 && rest[0] == "text" && isDisplay(o):
			// Text beside the data: its valid place is the data's
			// text/plain, when that is free.
			member("") // builds members
			if x := textBesideData(t, members); x >= 0 {
				b := dataOf(o)
				if !dataCloned {
					b = b.Clone()
					dataCloned = true
				}
				b.setMultiline("text/plain", multilineOfNode(t, x))
				setData(o, b)
				h.dropKey(v, "text")
				h.note(at.appendToken("text"), "moved text beside the data to the data's text/plain")
			} else if h.dropKey(v, "text") {
				h.note(at.appendToken("text"), "removed (%s)", p.err.Msg)
			}
		case len(rest) == 2 && rest[0] == "text":
			// A line of stream text that is not a string.
			if s, ok := o.(*Stream); ok && !textDone {
				textDone = true
				h.dropKey(v, "text")
				s.Text = Text(textOfNode(t, member("text")))
				h.note(at.appendToken("text"), "replaced stream text that was not text by its text")
			}
		default:
			if h.dropKey(v, rest[0]) {
				h.note(at.appendToken(rest[0]), "removed (%s)", p.err.Msg)
			}
		}
	}
}

// memberIndex maps the keys of object node o to their nodes (the last of
// repeated keys wins); nil for other nodes.
func memberIndex(t *jsontree.Tape, o int) map[string]int {
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

// isDisplay reports whether o is an execute_result or display_data.
func isDisplay(o Output) bool {
	switch o.(type) {
	case *ExecuteResult, *DisplayData:
		return true
	}
	return false
}

func cloneOutput(o Output) Output {
	switch o := o.(type) {
	case *ExecuteResult:
		x := *o
		return &x
	case *DisplayData:
		x := *o
		return &x
	case *Stream:
		x := *o
		return &x
	case *ErrorOutput:
		x := *o
		return &x
	}
	return o
}

func dataOf(o Output) MimeBundle {
	switch o := o.(type) {
	case *ExecuteResult:
		return o.Data
	case *DisplayData:
		return o.Data
	}
	return MimeBundle{}
}

func setData(o Output, b MimeBundle) {
	switch o := o.(type) {
	case *ExecuteResult:
		o.Data = b
	case *DisplayData:
		o.Data = b
	}
}

func setOutputMetadata(o Output) {
	switch o := o.(type) {
	case *ExecuteResult:
		o.Metadata = map[string]any{}
	case *DisplayData:
		o.Metadata = map[string]any{}
	}
}

// isTextMember reports whether member key of o is a string the schema
// allows any text in.
func isTextMember(o Output, key string) bool {
	switch o.(type) {
	case *Stream:
		return key == "name" || key == "text"
	case *ErrorOutput:
		return key == "ename" || key == "evalue"
	}
	return false
}

func setTextMember(o Output, key, s string) {
	switch o := o.(type) {
	case *Stream:
		if key == "name" {
			o.Name = s
		} else {
			o.Text = Text(s)
		}
	case *ErrorOutput:
		if key == "ename" {
			o.Ename = s
		} else {
			o.Evalue = s
		}
	}
}

// tracebackOf is the traceback held by node n as a list of lines: a
// string is a list of one (its text unchanged), other values in a list
// become their text, anything else the list of its text.
func tracebackOf(t *jsontree.Tape, n int) []string {
	lines := []string{}
	switch {
	case n < 0 || t.Nodes[n].Kind == jsontree.Null:
	case t.Nodes[n].Kind == jsontree.Array:
		t.Children(n, func(k int) bool {
			lines = append(lines, textOfNode(t, k))
			return true
		})
	default:
		lines = append(lines, textOfNode(t, n))
	}
	return lines
}

// attachments rebuilds the attachments of cell i from this pass's tape,
// keeping every attachment that is a MIME bundle: entries that are not
// text become their text, line lists stay as they are. An attachment that
// is not a bundle has no MIME type and is removed.
func (h *healer) attachments(i int, c Cell, v reflect.Value) {
	at := Pointer("/cells").appendIndex(i).appendToken("attachments")
	t := h.t
	switch c.(type) {
	case *MarkdownCell, *RawCell:
	default:
		if h.dropKey(v, "attachments") {
			h.note(at, "removed attachments from a %s cell, which cannot have them", c.Type())
		}
		return
	}
	n := h.memberNode(h.cellNodeOf(i), "attachments")
	h.dropKey(v, "attachments")
	if n < 0 || t.Nodes[n].Kind != jsontree.Object {
		h.note(at, "removed attachments that were not an object")
		return
	}
	att := make(map[string]MimeBundle, t.Nodes[n].Len)
	t.Children(n, func(k int) bool {
		name := t.KeyString(k)
		if t.Nodes[k].Kind != jsontree.Object {
			delete(att, name)
			h.note(at.appendToken(name), "removed an attachment that is not a MIME bundle")
			return true
		}
		att[name] = bundleOfNode(t, k)
		return true
	})
	switch c := c.(type) {
	case *MarkdownCell:
		c.Attachments = att
	case *RawCell:
		c.Attachments = att
	}
	h.note(at, "kept the attachments, values that were not text made text")
}

// bundleOfNode builds a valid MIME bundle from object node o: JSON types
// keep their value, text types keep a string or list of strings as it is
// and take the text of anything else.
func bundleOfNode(t *jsontree.Tape, o int) MimeBundle {
	var b MimeBundle
	t.Children(o, func(k int) bool {
		mime := t.KeyString(k)
		switch {
		case mimetype.IsJSON(mime):
			b.setJSON(mime, compactNode(nil, t, k))
		case isMultiline(t, k):
			b.setMultiline(mime, multilineOfNode(t, k))
		default:
			b.SetText(mime, textOfNode(t, k))
		}
		return true
	})
	return b
}

// multilineOfNode is the multiline string node n holds (a string or a list
// of strings), in its form.
func multilineOfNode(t *jsontree.Tape, n int) MultilineString {
	if t.Nodes[n].Kind == jsontree.String {
		return TextString(t.Str(n))
	}
	var lines []string
	t.Children(n, func(l int) bool {
		lines = append(lines, t.Str(l))
		return true
	})
	return TextLines(lines...)
}

package nbformat

// Heal's repairs of one output: its members, data and execution count.

import (
	"strconv"

	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/mimetype"
	"github.com/nbdialog/ipynb/internal/nbrebuild"
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
	node := h.outputNodeOf(i, j)
	out := code.Outputs[j]
	if u, ok := out.(*UnknownOutput); ok {
		raw, typ := nbrebuild.OutputJSON(h.t, node)
		h.newOutputs = append(h.newOutputs, pendingOutput{cell: i, index: j, json: raw})
		h.note(at, "output of unrecognized type %q made a %s output", givenType(h.t, node, "output_type", func() string { return string(u.Type()) }), typ)
		return
	}
	if typ := nbrebuild.OutputType(h.t, nbrebuild.Members(h.t, node)); typ != string(out.Type()) && typ != "" {
		// Another type's content under this type's name (a stream holding
		// data and no text): the output becomes the type its members are.
		raw, _ := nbrebuild.OutputJSON(h.t, node)
		h.newOutputs = append(h.newOutputs, pendingOutput{cell: i, index: j, json: raw})
		h.note(at, "%s output holding the members of a %s output made a %s output", out.Type(), typ, typ)
		return
	}
	if h.whole {
		code.Outputs[j] = NewDisplayData(newMimeBundle("text/plain", string(nbrebuild.Compact(nil, h.t, node))))
		h.note(at, "replaced a %s output that could not be repaired (%s) by display_data showing its JSON", out.Type(), probs[0].err.Msg)
		return
	}
	r := &outputRepair{h: h, t: h.t, node: node, at: at}
	r.set = func(o Output) {
		r.o, r.v = o, structOf(o)
		code.Outputs[j] = o
	}
	r.set(cloneOutput(out))
	for _, p := range probs {
		r.fix(p)
	}
}

// outputRepair repairs the problems of one output (a copy of the output
// read, node in the tape), one problem at a time.
type outputRepair struct {
	h    *healer
	t    *jsontree.Tape
	node int
	at   Pointer
	o    Output
	v    codecStruct  // o
	set  func(Output) // replaces the output (o, v and the cell's)

	members, dataMembers map[string]int // built when first needed
	// Done once per output: its data cloned, its traceback or stream text
	// rebuilt.
	dataCloned, tracebackDone, textDone bool
}

// member is the node of member key of the output, or -1.
func (r *outputRepair) member(key string) int {
	if r.members == nil {
		r.members = nbrebuild.Members(r.t, r.node)
	}
	if n, ok := r.members[key]; ok {
		return n
	}
	return -1
}

// data is the output's data, cloned the first time it is changed.
func (r *outputRepair) data() MimeBundle {
	b := dataOf(r.o)
	if !r.dataCloned {
		b = b.Clone()
		r.dataCloned = true
	}
	return b
}

// fix repairs problem p, whose tokens after /cells/i/outputs/j are rest.
func (r *outputRepair) fix(p healProblem) {
	rest := p.toks[4:]
	switch {
	case len(rest) == 0:
		if p.err.Keyword == "required" {
			r.h.note(r.at.appendToken(p.err.Member), "added the missing member with its empty value")
		}
	case (rest[0] == "data" || rest[0] == "metadata") && !isDisplay(r.o):
		r.drop(rest[0], p) // a stream or error has no place for them
	case rest[0] == "data":
		r.fixData(rest[1:])
	case rest[0] == "metadata" && len(rest) == 1:
		r.h.dropKey(r.v, "metadata")
		setOutputMetadata(r.o)
		r.h.note(r.at.appendToken("metadata"), "replaced invalid output metadata with {} (%s)", p.err.Msg)
	case rest[0] == "execution_count":
		r.fixCount(p)
	case rest[0] == "traceback":
		r.fixTraceback(p)
	case rest[0] == "text":
		r.fixText(rest[1:], p)
	case len(rest) == 1 && isTextMember(r.o, rest[0]):
		r.textMember(rest[0])
	default:
		r.drop(rest[0], p)
	}
}

// drop removes member key of the output.
func (r *outputRepair) drop(key string, p healProblem) {
	if r.h.dropKey(r.v, key) {
		r.h.note(r.at.appendToken(key), "removed (%s)", p.err.Msg)
	}
}

// fixData repairs the data (rest: the tokens after "data"): data that is
// not an object becomes its text/plain entry, an entry that is not text
// its text.
func (r *outputRepair) fixData(rest []string) {
	t := r.t
	if len(rest) == 0 {
		var b MimeBundle
		b.SetText("text/plain", nbrebuild.Text(t, r.member("data")))
		r.h.dropKey(r.v, "data")
		setData(r.o, b)
		r.h.note(r.at.appendToken("data"), "made data that was not an object its text/plain entry")
		return
	}
	d := r.member("data")
	if r.dataMembers == nil {
		r.dataMembers = nbrebuild.Members(t, d)
	}
	n, ok := r.dataMembers[rest[0]]
	if !ok || d < 0 {
		return
	}
	b := r.data()
	b.SetText(rest[0], nbrebuild.Text(t, n))
	setData(r.o, b)
	r.h.note(r.at.appendToken("data").appendToken(rest[0]), "replaced output data that was not text by its text")
}

// fixCount replaces an execute_result's invalid execution count by the
// integer it spells, or null. A display_data with a count that spells an
// integer has the shape of an execute_result and becomes one, keeping the
// count; other outputs have no place for a count, which is removed.
func (r *outputRepair) fixCount(p healProblem) {
	res, ok := r.o.(*ExecuteResult)
	if d, isDisplay := r.o.(*DisplayData); isDisplay {
		if n := nbrebuild.Count(r.t, r.member("execution_count")); n != nil {
			r.h.dropKey(r.v, "execution_count")
			r.set(&ExecuteResult{Data: d.Data, Metadata: d.Metadata, OutputType: OutputTypeExecuteResult,
				ExecutionCount: n, AdditionalProperties: d.AdditionalProperties})
			r.h.note(r.at, "made a display_data output with an execution count (%s) an execute_result", nbrebuild.CountText(n))
			return
		}
	}
	if !ok {
		r.drop("execution_count", p)
		return
	}
	r.h.dropKey(r.v, "execution_count")
	res.ExecutionCount = nbrebuild.Count(r.t, r.member("execution_count"))
	r.h.note(r.at.appendToken("execution_count"), "replaced an invalid execution count by %s (%s)", nbrebuild.CountText(res.ExecutionCount), p.err.Msg)
}

// fixTraceback makes an error's traceback a list of text lines (once).
func (r *outputRepair) fixTraceback(p healProblem) {
	e, ok := r.o.(*ErrorOutput)
	if !ok {
		r.drop("traceback", p)
		return
	}
	if r.tracebackDone {
		return
	}
	r.tracebackDone = true
	r.h.dropKey(r.v, "traceback")
	e.Traceback = tracebackOf(r.t, r.member("traceback"))
	r.h.note(r.at.appendToken("traceback"), "made the traceback a list of text lines (%s)", p.err.Msg)
}

// fixText repairs member "text" (rest: the tokens after it): a stream's
// text, or a line of it, that is not text becomes its text; text beside
// the data of a display output moves to the data's text/plain when that
// is free; elsewhere it is removed.
func (r *outputRepair) fixText(rest []string, p healProblem) {
	switch {
	case len(rest) == 0 && isTextMember(r.o, "text"):
		r.textMember("text")
	case len(rest) == 0 && isDisplay(r.o):
		r.textBesideData(p)
	case len(rest) == 1:
		// A line of stream text that is not a string.
		s, ok := r.o.(*Stream)
		if !ok {
			r.drop("text", p)
			return
		}
		if !r.textDone {
			r.textDone = true
			r.h.dropKey(r.v, "text")
			s.Text = Text(nbrebuild.Text(r.t, r.member("text")))
			r.h.note(r.at.appendToken("text"), "replaced stream text that was not text by its text")
		}
	default:
		r.drop("text", p)
	}
}

// textMember replaces member key, a string the schema allows any text in,
// by the text of its value.
func (r *outputRepair) textMember(key string) {
	r.h.dropKey(r.v, key)
	setTextMember(r.o, key, nbrebuild.Text(r.t, r.member(key)))
	r.h.note(r.at.appendToken(key), "replaced a value that was not text by its text")
}

// textBesideData moves text beside a display output's data to its valid
// place, the data's text/plain, when that is free; otherwise it removes it.
func (r *outputRepair) textBesideData(p healProblem) {
	r.member("") // builds members
	x := nbrebuild.TextBesideData(r.t, r.members)
	if x < 0 {
		r.drop("text", p)
		return
	}
	b := r.data()
	b.setMultiline("text/plain", multilineOfNode(r.t, x))
	setData(r.o, b)
	r.h.dropKey(r.v, "text")
	r.h.note(r.at.appendToken("text"), "moved text beside the data to the data's text/plain")
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
		x.src = nodeRef{}
		return &x
	case *DisplayData:
		x := *o
		x.src = nodeRef{}
		return &x
	case *Stream:
		x := *o
		x.src = nodeRef{}
		return &x
	case *ErrorOutput:
		x := *o
		x.src = nodeRef{}
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
			lines = append(lines, nbrebuild.Text(t, k))
			return true
		})
	default:
		lines = append(lines, nbrebuild.Text(t, n))
	}
	return lines
}

// attachments rebuilds the attachments of cell i from this pass's tape,
// keeping every attachment that is a MIME bundle: entries that are not
// text become their text, line lists stay as they are. An attachment that
// is not a bundle has no MIME type and is removed.
func (h *healer) attachments(i int, c Cell, v codecStruct) {
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
			b.setJSON(mime, nbrebuild.Compact(nil, t, k))
		case t.IsMultiline(k):
			b.setMultiline(mime, multilineOfNode(t, k))
		default:
			b.SetText(mime, nbrebuild.Text(t, k))
		}
		return true
	})
	return b
}

// multilineOfNode is the multiline string node n holds (a string or a list
// of strings), in its form.
func multilineOfNode(t *jsontree.Tape, n int) MultilineString {
	if t.Nodes[n].Kind == jsontree.String {
		return textString(t.Str(n))
	}
	var lines []string
	t.Children(n, func(l int) bool {
		lines = append(lines, t.Str(l))
		return true
	})
	return textLines(lines...)
}

package dialog

import (
	"bytes"
	"maps"
	"slices"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/textdiff"
)

// Outputs and execution counts in a merge: derived data, merged cleanly
// where a line merge of the file would be, else by the OutputStrategy.

// withoutReply returns a message's outputs other than a prompt's reply.
func withoutReply(m *Message) []Output {
	if m.Kind != Prompt {
		return m.Outputs
	}
	var outs []Output
	for _, o := range m.Outputs {
		if !o.IsReply() {
			outs = append(outs, o)
		}
	}
	return outs
}

// outputs merges outputs and execution counts (see OutputStrategy).
func (mg *merger) outputs(ob, oo, ot []Output, b, o, t *Message, conflict func(string, ...any)) ([]Output, *int) {
	count := o.ExecutionCount
	switch {
	case sameCount(o.ExecutionCount, b.ExecutionCount):
		count = t.ExecutionCount
	case sameCount(t.ExecutionCount, b.ExecutionCount), sameCount(o.ExecutionCount, t.ExecutionCount):
	case mg.opt.Outputs == OutputsTheirs:
		count = t.ExecutionCount
	case mg.opt.Outputs == OutputsClear:
		count = nil
	}
	switch {
	case sameOutputs(oo, ob):
		return ot, count
	case sameOutputs(ot, ob), sameOutputs(oo, ot):
		return oo, count
	}
	if outs, ok := mergeOutputLists(ob, oo, ot); ok {
		return outs, count
	}
	switch mg.opt.Outputs {
	case OutputsOurs:
		return oo, count
	case OutputsTheirs:
		return ot, count
	case OutputsClear:
		return []Output{}, nil
	}
	if sameOutputsButCounts(oo, ot) {
		return oo, count
	}
	conflict("outputs")
	outs := make([]Output, 0, len(oo)+len(ot)+3)
	outs = append(outs, markerOutput(mg.mk.Size, '<', mg.mk.Ours))
	outs = append(outs, oo...)
	outs = append(outs, markerOutput(mg.mk.Size, '=', ""))
	outs = append(outs, ot...)
	outs = append(outs, markerOutput(mg.mk.Size, '>', mg.mk.Theirs))
	return outs, count
}

// markerOutput is a stream output holding one conflict marker line.
func markerOutput(size int, c byte, label string) Output {
	line := string(bytes.Repeat([]byte{c}, size))
	if label != "" {
		line += " " + label
	}
	return StreamOutput("stdout", line+"\n")
}

// mergeOutputLists merges output lists both sides changed when that is
// clean: lists of one length, merged output by output, key by key, texts
// line by line (as a line merge of the file would). ok is false at the
// first conflict.
func mergeOutputLists(b, o, t []Output) ([]Output, bool) {
	if len(b) != len(o) || len(b) != len(t) {
		return nil, false
	}
	out := make([]Output, len(o))
	for i := range o {
		if o[i].Equal(b[i]) {
			out[i] = t[i]
			continue
		}
		if t[i].Equal(b[i]) || o[i].Equal(t[i]) {
			out[i] = o[i]
			continue
		}
		gb, errB := b[i].view()
		gO, errO := o[i].view()
		gt, errT := t[i].view()
		if errB != nil || errO != nil || errT != nil {
			return nil, false
		}
		v, ok := mergeValue(gb, gO, gt)
		m, isMap := v.(map[string]any)
		if !ok || !isMap {
			return nil, false
		}
		out[i] = NewOutput(m)
	}
	return out, true
}

// mergeValue merges generic JSON values cleanly or not at all: one-sided
// changes, objects key by key, strings line by line, lists of one length
// element by element.
func mergeValue(b, o, t any) (any, bool) {
	switch {
	case jsonvalue.Equal(o, b):
		return t, true
	case jsonvalue.Equal(t, b), jsonvalue.Equal(o, t):
		return o, true
	}
	switch ov := o.(type) {
	case map[string]any:
		bv, okB := b.(map[string]any)
		tv, okT := t.(map[string]any)
		if okB && okT {
			return mergeObject(bv, ov, tv)
		}
	case string:
		bv, okB := b.(string)
		tv, okT := t.(string)
		if okB && okT {
			text, n := textdiff.MergeText(bv, ov, tv, textdiff.Markers{})
			return text, n == 0
		}
	case []any:
		bv, okB := b.([]any)
		tv, okT := t.([]any)
		if okB && okT {
			return mergeList(bv, ov, tv)
		}
	}
	return nil, false
}

// mergeObject merges objects key by key: a key changed (or added or
// removed) on one side takes that side's value, one changed on both
// sides merges its values.
func mergeObject(b, o, t map[string]any) (any, bool) {
	out := make(map[string]any, len(o)+len(t))
	for _, k := range unionKeys(b, o, t) {
		vb, inB := b[k]
		vo, inO := o[k]
		vt, inT := t[k]
		switch {
		case inO == inB && jsonvalue.Equal(vo, vb):
			if inT {
				out[k] = vt
			}
		case inT == inB && jsonvalue.Equal(vt, vb), inO == inT && jsonvalue.Equal(vo, vt):
			if inO {
				out[k] = vo
			}
		case inB && inO && inT:
			v, ok := mergeValue(vb, vo, vt)
			if !ok {
				return nil, false
			}
			out[k] = v
		default:
			return nil, false
		}
	}
	return out, true
}

// mergeList merges lists of one length element by element.
func mergeList(b, o, t []any) (any, bool) {
	if len(b) != len(o) || len(b) != len(t) {
		return nil, false
	}
	out := make([]any, len(o))
	for i := range o {
		v, ok := mergeValue(b[i], o[i], t[i])
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

func unionKeys(ms ...map[string]any) []string {
	keys := map[string]bool{}
	for _, m := range ms {
		for k := range m {
			keys[k] = true
		}
	}
	return slices.Sorted(maps.Keys(keys))
}

package dialog

import (
	"bytes"
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

// outputs merges outputs and execution counts (see OutputStrategy):
// outsConflict and countConflict report, under OutputsConflict, outputs
// (then between marker outputs) and counts (then ours') both sides
// changed differently.
// With added (both sides added the message: no base), outputs that
// differ conflict even when one side has none.
func (mg *merger) outputs(ob, oo, ot []Output, b, o, t *Message, added bool) (outs []Output, count *int, outsConflict, countConflict bool) {
	count = o.ExecutionCount
	switch {
	case sameCount(o.ExecutionCount, b.ExecutionCount):
		count = t.ExecutionCount
	case sameCount(t.ExecutionCount, b.ExecutionCount), sameCount(o.ExecutionCount, t.ExecutionCount):
	case mg.opt.Outputs == OutputsConflict:
		countConflict = true
	case mg.opt.Outputs == OutputsTheirs:
		count = t.ExecutionCount
	case mg.opt.Outputs == OutputsClear:
		count = nil
	}
	switch {
	case sameOutputs(oo, ot):
		return oo, count, false, countConflict
	case added:
	case sameOutputs(oo, ob):
		return ot, count, false, countConflict
	case sameOutputs(ot, ob):
		return oo, count, false, countConflict
	}
	if outs, ok := mergeOutputLists(ob, oo, ot); ok && !added {
		return outs, count, false, countConflict
	}
	switch mg.opt.Outputs {
	case OutputsOurs:
		return oo, count, false, false
	case OutputsTheirs:
		return ot, count, false, false
	case OutputsClear:
		return []Output{}, nil, false, false
	}
	if mg.markers == nil {
		mg.markers = []Output{markerOutput(mg.mk.Size, '<', mg.mk.Ours), markerOutput(mg.mk.Size, '=', ""), markerOutput(mg.mk.Size, '>', mg.mk.Theirs)}
	}
	outs = make([]Output, 0, len(oo)+len(ot)+3)
	outs = append(outs, mg.markers[0])
	outs = append(outs, oo...)
	outs = append(outs, mg.markers[1])
	outs = append(outs, ot...)
	outs = append(outs, mg.markers[2])
	return outs, count, true, countConflict
}

// markerOutput is a stream output holding one conflict marker line.
func markerOutput(size int, c byte, label string) Output {
	return streamOutput("stdout", markerLine(size, c, label)+"\n")
}

// markerLine is a conflict marker line without its newline: size times
// c, then a space and the label if there is one.
func markerLine(size int, c byte, label string) string {
	line := string(bytes.Repeat([]byte{c}, size))
	if label != "" {
		line += " " + label
	}
	return line
}

// conflictTeller is a source (ours' output) that can tell, without
// decoding the outputs, that merging it with base's and theirs' versions
// value by value is sure to conflict (mergeOutputLists then stops there);
// false when unsure. A source need not have the method.
type conflictTeller interface {
	SureToConflict(base, theirs OutputSource) bool
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
		if c, ok := o[i].Source().(conflictTeller); ok && b[i].Source() != nil && t[i].Source() != nil && c.SureToConflict(b[i].Source(), t[i].Source()) {
			return nil, false
		}
		gb, errB := b[i].view()
		gO, errO := o[i].view()
		gt, errT := t[i].view()
		if errB != nil || errO != nil || errT != nil {
			return nil, false
		}
		vm := valueMerge{strict: true}
		v, _ := vm.merge(gb, gO, gt, true, true, true, nil)
		m, isMap := v.(map[string]any)
		if vm.failed || !isMap {
			return nil, false
		}
		out[i] = NewOutput(m)
	}
	return out, true
}

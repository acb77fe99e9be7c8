package main

import (
	"bytes"
	"strconv"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/mimetype"
)

// Sizes of outputs from the bytes read, for show's " ⇒ out(N)".
//
// N is the size encoding/json gives the list of a code message's outputs
// in their generic form (dialog.Message.Preview; Output.Map: text stored
// as lines joined, metadata and JSON data arrays and objects kept as
// their bytes, members a reader fills in added, outputs of a type
// nbformat has no struct for decoded whole). Preview decodes each output
// into generic maps to encode it: about five bytes allocated per byte of
// output. Here the size is summed over the output's bytes as the file
// holds them, with the rules of that generic form and of encoding/json
// (jsonsize.go); the only memory it takes is a small tape of the cells
// and outputs and one buffer for a string with escapes, decoded. What
// these rules do not cover for sure (members of the wrong JSON type, keys
// given twice or escaped, NaN and infinities, notebooks before version 4,
// whose outputs are upgraded) is not sized here: show falls back to
// Preview for that message. TestOutputSizesMatchPreview holds the two to
// the same numbers.

// The shape of the parse that finds the outputs: cells and outputs are
// recorded, the rest left lazy; text stored as lines is kept as the
// array's bytes (Flat), read with jsontree.EachString.
var (
	sizeFlat     = &jsontree.Shape{Flat: true}
	sizeOutShape = &jsontree.Shape{Members: map[string]*jsontree.Shape{
		"data": {Other: func(mime string) *jsontree.Shape {
			if mimetype.IsJSON(mime) {
				return nil
			}
			return sizeFlat
		}},
		"metadata":  {},
		"text":      sizeFlat,
		"traceback": sizeFlat,
	}}
	sizeNbShape = &jsontree.Shape{Members: map[string]*jsontree.Shape{
		"cells": {Elem: &jsontree.Shape{Members: map[string]*jsontree.Shape{
			"outputs": {Elem: sizeOutShape},
		}}},
	}}
)

// sizedForShow returns d for Summary with the outputs of its code
// messages sized from data, the bytes of the version 4 notebook d was
// read from: a message sized so is a copy, without its outputs, whose
// content ends with " ⇒ out(N)" (Preview shows its content, then that;
// it cuts the whole line at the width). The other messages are d's own.
func sizedForShow(d *dialog.Dialog, data []byte) *dialog.Dialog {
	sizes := outputSizes(data, d.Messages)
	c := *d
	c.Messages = make(dialog.Msgs, len(d.Messages))
	for i, m := range d.Messages {
		c.Messages[i] = m
		if sizes[i] >= 0 {
			cp := *m
			cp.Content += " ⇒ out(" + strconv.Itoa(sizes[i]) + ")"
			cp.Outputs = nil
			c.Messages[i] = &cp
		}
	}
	return &c
}

// outputSizes returns, for each of msgs read from data (a version 4
// notebook, its cells one message each), the size Preview gives its
// outputs, or -1 where the message is not a code message with outputs or
// its outputs are not sized from bytes (see above).
func outputSizes(data []byte, msgs dialog.Msgs) []int {
	sizes := make([]int, len(msgs))
	for i := range sizes {
		sizes[i] = -1
	}
	t, err := jsontree.ParseShaped(data, jsontree.Limits{MaxDepth: maxDepth, MaxString: maxString}, sizeNbShape)
	if err != nil || t.Nodes[jsontree.Root].Kind != jsontree.Object {
		return sizes
	}
	cells, ok := uniqueMember(t, jsontree.Root, "cells")
	if !ok || t.Nodes[cells].Kind != jsontree.Array || int(t.Nodes[cells].Len) != len(msgs) {
		return sizes
	}
	s := &sizer{t: t}
	i := 0
	t.Children(cells, func(c int) bool {
		if m := msgs[i]; m.Kind == dialog.Code && len(m.Outputs) > 0 {
			sizes[i] = s.cellOutputs(c, m.Outputs)
		}
		i++
		return true
	})
	return sizes
}

// A sizer sizes the values of a tape (see above).
type sizer struct {
	t   *jsontree.Tape
	buf []byte // a string with escapes, decoded
}

// cellOutputs is the size of the outputs of cell c, which the message
// holds as outs, or -1.
func (s *sizer) cellOutputs(c int, outs []dialog.Output) int {
	t := s.t
	if t.Nodes[c].Kind != jsontree.Object {
		return -1
	}
	list, ok := uniqueMember(t, c, "outputs")
	if !ok || t.Nodes[list].Kind != jsontree.Array || int(t.Nodes[list].Len) != len(outs) {
		return -1
	}
	total, k := 1, 0 // "[", then each output and a comma or "]"
	t.Children(list, func(o int) bool {
		n := s.output(o, outs[k].Type())
		if n < 0 {
			total = -1
			return false
		}
		total += n + 1
		k++
		return true
	})
	return total
}

// uniqueMember returns the member of object o with key k when there is
// exactly one (ok false when there are several).
func uniqueMember(t *jsontree.Tape, o int, k string) (int, bool) {
	found, n := -1, 0
	t.Children(o, func(j int) bool {
		if t.KeyIs(j, k) {
			found = j
			n++
		}
		return n < 2
	})
	return found, n == 1
}

// A memberRule is how the generic form holds a member of an output.
type memberRule uint8

const (
	anyValue   memberRule = iota // scalars decoded, arrays and objects as their bytes
	textValue                    // a string, or lines joined into one
	linesValue                   // a list of strings
	bundle                       // output data: JSON types as anyValue, others as textValue
	objectMeta                   // an object of anyValue members
	countValue                   // an execution count: an integer or null
	nameValue                    // a string or null
)

// outputMembers are the members nbformat types for each output type:
// their rule, and what a reader fills in when one is missing.
var outputMembers = map[string]map[string]struct {
	rule memberRule
	fill string
}{
	"stream":       {"name": {nameValue, `""`}, "text": {textValue, `""`}},
	"display_data": {"data": {bundle, `{}`}, "metadata": {objectMeta, `{}`}},
	"execute_result": {"data": {bundle, `{}`}, "metadata": {objectMeta, `{}`},
		"execution_count": {countValue, `null`}},
	"error": {"ename": {nameValue, `""`}, "evalue": {nameValue, `""`}, "traceback": {linesValue, `[]`}},
}

// output is the size of the generic form of output o, whose output_type
// is typ, as encoding/json writes it, or -1.
func (s *sizer) output(o int, typ string) int {
	t := s.t
	if t.Nodes[o].Kind != jsontree.Object || t.Lazy(o) || !uniqueKeys(t, o) {
		return -1
	}
	typeNode := t.Lookup(o, "output_type")
	isString := typeNode >= 0 && t.Nodes[typeNode].Kind == jsontree.String
	if isString && !t.StrIs(typeNode, typ) || !isString && typ != "" {
		return -1 // another output than the message's
	}
	known := outputMembers[typ]
	if known == nil {
		// An output nbformat has no struct for is decoded whole.
		return s.whole(o)
	}
	size, members, seen := 1, 0, 0 // "{"
	t.Children(o, func(j int) bool {
		key := t.KeyRaw(j)[1 : len(t.KeyRaw(j))-1]
		rule := anyValue
		if k, ok := known[string(key)]; ok {
			rule = k.rule
			seen++
		}
		n := s.value(j, rule)
		if n < 0 {
			size = -1
			return false
		}
		size += s.str(key) + 1 + n
		members++
		return true
	})
	if size < 0 {
		return -1
	}
	if seen < len(known) {
		for k, m := range known {
			if t.Lookup(o, k) < 0 {
				size += len(k) + 2 + 1 + len(m.fill)
				members++
			}
		}
	}
	return size + members - 1 + 1 // commas, "}"
}

// whole is the size encoding/json writes node j in, decoded whole
// (nbformat.Decode: arrays and objects too), or -1.
func (s *sizer) whole(j int) int {
	t := s.t
	n := &t.Nodes[j]
	if n.Kind != jsontree.Array && n.Kind != jsontree.Object {
		return s.scalar(j)
	}
	if n.Len == 0 {
		return 2
	}
	if t.Lazy(j) {
		if n.Kind == jsontree.Array && n.Flags&jsontree.FlagStrings != 0 {
			return s.strings(t.Raw(j))
		}
		full, err := t.Expand(j)
		if err != nil {
			return -1
		}
		return (&sizer{t: full, buf: s.buf}).whole(jsontree.Root)
	}
	if n.Kind == jsontree.Object && !uniqueKeys(t, j) {
		return -1
	}
	size, items := 2, 0
	t.Children(j, func(m int) bool {
		v := s.whole(m)
		if v < 0 {
			size = -1
			return false
		}
		if n.Kind == jsontree.Object {
			size += s.str(t.KeyRaw(m)[1:len(t.KeyRaw(m))-1]) + 1
		}
		size += v
		items++
		return true
	})
	if size < 0 {
		return -1
	}
	return size + items - 1
}

// strings is the size encoding/json writes a list of strings in, given
// as a JSON array of strings.
func (s *sizer) strings(raw []byte) int {
	size, items := 2, 0
	jsontree.EachString(raw, func(str []byte) { size += s.str(str); items++ })
	return size + max(0, items-1)
}

// str is the size encoding/json writes a string in, given as the
// contents of a JSON string (between its quotes, escapes as written),
// decoded as nbformat decodes it (jsontree.AppendUnescaped).
func (s *sizer) str(raw []byte) int {
	if bytes.IndexByte(raw, '\\') < 0 {
		return encodedStringSize(raw)
	}
	s.buf = jsontree.AppendUnescaped(s.buf[:0], raw)
	return encodedStringSize(s.buf)
}

// uniqueKeys reports whether object o's keys are all different and none
// is escaped (an escaped key might equal another).
func uniqueKeys(t *jsontree.Tape, o int) bool {
	n := int(t.Nodes[o].Len)
	var seen map[string]bool
	if n > 16 {
		seen = make(map[string]bool, n)
	}
	ok := true
	t.Children(o, func(j int) bool {
		if t.Nodes[j].Flags&jsontree.FlagKeyEscaped != 0 {
			ok = false
			return false
		}
		k := t.KeyRaw(j)
		if seen != nil {
			if seen[string(k)] {
				ok = false
			}
			seen[string(k)] = true
			return ok
		}
		for i := o + 1; i < j; i = t.Next(i) {
			if bytes.Equal(t.KeyRaw(i), k) {
				ok = false
				return false
			}
		}
		return true
	})
	return ok
}

// value is the size of the generic form of node j, held by rule, as
// encoding/json writes it, or -1.
func (s *sizer) value(j int, rule memberRule) int {
	t := s.t
	n := &t.Nodes[j]
	switch rule {
	case textValue:
		switch {
		case n.Kind == jsontree.String:
			return s.str(t.Raw(j)[1 : n.End-n.Start-1])
		case n.Kind == jsontree.Array && n.Len == 0:
			return 2 // no lines: ""
		case n.Kind == jsontree.Array && t.Lazy(j) && n.Flags&jsontree.FlagStrings != 0:
			size := 2
			jsontree.EachString(t.Raw(j), func(line []byte) { size += s.str(line) - 2 })
			return size
		case n.Kind == jsontree.Array || n.Kind == jsontree.Object:
			return -1 // not text: the reader may keep it elsewhere
		}
	case linesValue:
		if n.Kind == jsontree.Array && n.Len == 0 {
			return 2
		}
		if n.Kind != jsontree.Array || !t.Lazy(j) || n.Flags&jsontree.FlagStrings == 0 {
			return -1
		}
		return s.strings(t.Raw(j))
	case bundle, objectMeta:
		if n.Kind == jsontree.Null {
			return 4
		}
		if n.Kind != jsontree.Object || t.Lazy(j) || !uniqueKeys(t, j) {
			return -1
		}
		size, items := 2, 0
		t.Children(j, func(m int) bool {
			key := t.KeyRaw(m)[1 : len(t.KeyRaw(m))-1]
			r := anyValue
			if rule == bundle && !mimetype.IsJSON(string(key)) {
				r = textValue
			}
			v := s.value(m, r)
			if v < 0 {
				size = -1
				return false
			}
			size += s.str(key) + 1 + v
			items++
			return true
		})
		if size < 0 {
			return -1
		}
		return size + max(0, items-1)
	case countValue:
		if n.Kind != jsontree.Null && (n.Kind != jsontree.Number || n.Flags&jsontree.FlagInt == 0) {
			return -1
		}
	case nameValue:
		if n.Kind != jsontree.String && n.Kind != jsontree.Null {
			return -1
		}
	}
	if n.Kind == jsontree.Array || n.Kind == jsontree.Object {
		return rawSize(t.Raw(j))
	}
	return s.scalar(j)
}

// scalar is the size encoding/json writes scalar node j in, decoded, or
// -1.
func (s *sizer) scalar(j int) int {
	t := s.t
	n := &t.Nodes[j]
	switch n.Kind {
	case jsontree.Null, jsontree.True:
		return 4
	case jsontree.False:
		return 5
	case jsontree.String:
		return s.str(t.Raw(j)[1 : n.End-n.Start-1])
	case jsontree.Number:
		return numberSize(t.Raw(j), n.Flags)
	}
	return -1
}

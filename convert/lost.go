package convert

// Values a write would lose: the errors for repairs that remove a value the
// caller gave, and for message parts a cell has no place for.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/jsonpointer"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/nbmap"
	"github.com/nbdialog/ipynb/nbformat"
)

// Writing never drops a value silently. Healing (nbformat.Heal) removes or
// replaces what has no valid place in a notebook; when what it removes
// came from the file as read (an invalid file being healed), the repair is
// reported through Options.Repaired; when it came from the caller (a new
// or changed message, changed notebook metadata), writing fails with a
// *Error (Op "write") instead.

// Sentinel errors, matched with errors.Is.
var (
	// ErrInvalidValue: a value given to a message or to the notebook
	// metadata has no valid place in a notebook (a non-boolean
	// "collapsed" on a code cell, say), and writing would lose it.
	ErrInvalidValue = errors.New("the value is not valid in a notebook and would be lost")
	// ErrNoPlace: a message holds something its cell has no place for
	// (outputs of a note, say, or an attribute no descriptor declares),
	// and writing would lose it.
	ErrNoPlace = errors.New("its cell has no place for it")
)

// builtCell is a cell made from a new or changed message.
type builtCell struct {
	msg  *dialog.Message
	cell nbformat.Cell // before healing
	snap *snapshot     // the message as read, nil for a new message
}

// lostValue returns the error for a repair that removes or replaces a
// value the caller gave, nil for one that heals the file as read. newMeta
// is the notebook metadata written when the caller changed it (else nil),
// origMeta the metadata as read (nil for a new dialog).
func lostValue(r nbformat.Repair, built map[int]builtCell, newMeta, origMeta map[string]any) error {
	toks := strings.Split(string(r.Pointer), "/")
	if len(toks) < 2 {
		return nil // the file as a whole (a byte-order mark)
	}
	switch toks[1] {
	case "metadata":
		if newMeta == nil {
			return nil
		}
		sub := nbformat.Pointer("/" + strings.Join(toks[2:], "/"))
		v, ok := at(newMeta, sub)
		if !ok {
			return nil // a missing member filled in: nothing lost
		}
		if origMeta != nil {
			if w, ok := at(origMeta, sub); ok && sameJSON(v, w) {
				return nil
			}
		}
		return &Error{Op: "write", Err: ErrInvalidValue, Pointer: r.Pointer, What: r.What}
	case "cells":
		if len(toks) < 3 {
			return nil
		}
		i, err := strconv.Atoi(toks[2])
		if err != nil {
			return nil
		}
		b, ok := built[i]
		if !ok {
			return nil // an unchanged cell: the file's own invalidity
		}
		rest := ""
		if len(toks) > 3 {
			rest = "/" + strings.Join(toks[3:], "/")
		}
		if rest == "/id" {
			// Ids are the writer's: one a 4.0–4.4 file cannot hold is
			// dropped, a missing or repeated one replaced (dialog.Make and
			// Add refuse invalid ones); the repair is reported.
			return nil
		}
		if b.snap != nil && rest == "" {
			return nil // the cell as a whole: its type, as read
		}
		now, err := cellMap(b.cell)
		if err != nil {
			return &Error{Op: "write", Err: ErrInvalidValue, Message: b.msg.ID, Pointer: r.Pointer, What: r.What}
		}
		v, ok := at(now, nbformat.Pointer(rest))
		if !ok {
			return nil // a missing member filled in: nothing lost
		}
		if b.snap != nil {
			if was, err := cellMap(b.snap.cell); err == nil {
				if w, ok := at(was, nbformat.Pointer(rest)); ok && sameJSON(v, w) {
					return nil // the value was in the file as read
				}
			}
		}
		return &Error{Op: "write", Err: ErrInvalidValue, Message: b.msg.ID, Pointer: r.Pointer, What: r.What}
	}
	return nil
}

// sameJSON reports whether two generic JSON values are the same value,
// whatever the spacing of the arrays and objects held as json.RawMessage:
// a value read is one whichever way it is held (a message's metadata
// holds it compacted; the cell read holds the file's bytes, indented or
// not), which jsonvalue.Equal, comparing RawMessages by their bytes, does
// not tell. Both are compared as encoding/json writes them (compacted,
// keys sorted) when they differ so; a value it cannot write is not the
// same.
func sameJSON(v, w any) bool {
	if jsonvalue.Equal(v, w) {
		return true
	}
	a, err := json.Marshal(v)
	if err != nil {
		return false
	}
	b, err := json.Marshal(w)
	return err == nil && bytes.Equal(a, b)
}

// cellMap returns a cell as generic JSON.
func cellMap(c nbformat.Cell) (map[string]any, error) {
	if u, ok := c.(*nbformat.UnknownCell); ok {
		g, err := nbformat.Decode(u.Raw)
		if err != nil {
			return nil, err
		}
		m, _ := g.(map[string]any)
		return m, nil
	}
	return nbmap.ToMap(c)
}

// at resolves a JSON Pointer in generic JSON.
func at(v any, p nbformat.Pointer) (any, bool) {
	for tok := range jsonpointer.Tokens(string(p)) {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// unwritable returns the error for a part of a new or changed message that
// its cell has no place for, which writing would drop: outputs of a note
// or raw message, outputs of a prompt other than its reply (one output
// marked as a reply, holding text/markdown and nothing else), an execution
// count outside code, attachments of code.
func unwritable(m *dialog.Message) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("convert: message %s: %s: %w", m.ID, fmt.Sprintf(format, args...), ErrNoPlace)
	}
	switch m.Kind {
	case dialog.Note, dialog.Raw:
		if len(m.Outputs) > 0 {
			return fail("a %s message has %d outputs", m.Kind, len(m.Outputs))
		}
	case dialog.Prompt:
		replies := 0
		for i, o := range m.Outputs {
			if !o.IsReply() {
				return fail("output %d is not a reply (a prompt's cell holds only its reply)", i)
			}
			if replies++; replies > 1 {
				return fail("output %d is a second reply", i)
			}
			// A reply is written as its text: anything else it carries
			// would be lost.
			g, err := o.Map()
			if err != nil {
				return fmt.Errorf("convert: message %s: output %d: %w", m.ID, i, err)
			}
			data, _ := g["data"].(map[string]any)
			md, _ := g["metadata"].(map[string]any)
			for _, k := range slices.Sorted(maps.Keys(g)) {
				if k != "output_type" && k != "data" && k != "metadata" {
					return fail("the reply output's %q (a reply is written as its text/markdown only)", k)
				}
			}
			for _, k := range slices.Sorted(maps.Keys(data)) {
				if k != "text/markdown" {
					return fail("the reply's %s data (a reply is written as its text/markdown only)", k)
				}
			}
			for _, k := range slices.Sorted(maps.Keys(md)) {
				if k != "is_ai_res" {
					return fail("the reply's metadata %q (a reply is written as its text/markdown only)", k)
				}
			}
		}
	}
	if m.ExecutionCount != nil && m.Kind != dialog.Code {
		return fail("a %s message has an execution count", m.Kind)
	}
	if len(m.Attachments) > 0 && m.Kind == dialog.Code {
		return fail("a code message has attachments (code cells have none)")
	}
	return nil
}

// strayMembers lists, sorted, the members of a cell as read that its type
// does not have or that had the wrong type (kept by nbformat in
// AdditionalProperties): a cell written anew from its changed message
// leaves them out.
func strayMembers(c nbformat.Cell) []string {
	var extra map[string]any
	switch c := c.(type) {
	case *nbformat.MarkdownCell:
		extra = c.AdditionalProperties
	case *nbformat.CodeCell:
		extra = c.AdditionalProperties
	case *nbformat.RawCell:
		extra = c.AdditionalProperties
	}
	return slices.Sorted(maps.Keys(extra))
}

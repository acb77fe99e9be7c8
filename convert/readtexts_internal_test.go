package convert

// Tests of messages' texts shared with nbformat's copy of the input, messages
// read as ToMessage makes them, snapshots and cloneCell.

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/nbformat"

	"github.com/nbdialog/ipynb/internal/zerocopy"
)

// within reports whether the bytes of s lie in b.
func within(s string, b []byte) bool {
	return zerocopy.StringIn(s, b)
}

// A message's text that needs no decoding (one JSON string without
// escapes, alone or as the only line of a list) is the string read
// itself: it shares nbformat's own copy of the input, never the caller's
// slice, so overwriting the input after Unmarshal changes no message, and
// the dialog still writes the bytes first read. Texts with escapes or
// several lines are decoded into the dialog's own buffer.
func TestSharedTextsSurviveTheInputsReuse(t *testing.T) {
	if !zerocopy.Views {
		t.Skip("purego: the views are copies (they allocate, and share nothing)")
	}
	src := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
 {"cell_type": "markdown", "id": "a", "metadata": {}, "source": "plain text, one string"},
 {"cell_type": "markdown", "id": "b", "metadata": {}, "source": ["only line of a list"]},
 {"cell_type": "code", "id": "c", "metadata": {}, "execution_count": null, "outputs": [], "source": ["x = 1\n", "y = 2"]},
 {"cell_type": "raw", "id": "d", "metadata": {}, "source": "escaped \"quote\" and \u00e9"},
 {"cell_type": "markdown", "id": "e", "metadata": {}, "source": []},
 {"cell_type": "markdown", "id": "f", "metadata": {}, "source": ""}
]}
`)
	want := []string{"plain text, one string", "only line of a list", "x = 1\ny = 2", `escaped "quote" and é`, "", ""}
	shared := []bool{true, true, false, false, false, false}
	for _, read := range []func([]byte) (*File, error){func(b []byte) (*File, error) { return Unmarshal(b, ReadOptions{}) }, options{}.Unmarshal} {
		data := bytes.Clone(src)
		d, err := read(data)
		if err != nil {
			t.Fatal(err)
		}
		readBytes := d.org.data
		for i, m := range d.Messages {
			if within(m.Content, data) {
				t.Errorf("message %d: its text is in the caller's slice", i)
			}
			if got := within(m.Content, readBytes); got != shared[i] {
				t.Errorf("message %d: text shares the bytes read: %v, want %v", i, got, shared[i])
			}
		}
		for i := range data {
			data[i] = 'x'
		}
		for i, m := range d.Messages {
			if m.Content != want[i] {
				t.Errorf("message %d: %q once the input is overwritten, want %q", i, m.Content, want[i])
			}
		}
		out, err := Marshal(d, WriteOptions{})
		if err != nil || !bytes.Equal(out, src) {
			t.Errorf("the unchanged dialog writes other bytes once the input is overwritten (%v):\n%s", err, out)
		}
	}
}

// Every message read (its text from one buffer or shared with the input,
// its metadata by the fast path, its outputs and count from the
// notebook's blocks, its id derived into the buffer) is the message
// ToMessage makes of the same cell one piece at a time (texts by
// MultilineString.String, each allocated alone), over the corpus; and its
// snapshot is a copy of it.
func TestReadMessagesAsToMessage(t *testing.T) {
	t.Parallel()
	n := 0
	for e, data := range corpus.Sample(t) {
		d, err := Unmarshal(data, ReadOptions{})
		if err != nil {
			continue
		}
		org := d.org
		for i, m := range d.Messages {
			c := org.work.Cells[i]
			ref := &dialog.Message{}
			_, err := options{}.toMessage(ref, c, nil, nil)
			if err != nil {
				t.Fatalf("%s: cell %d: %v", e.Path, i, err)
			}
			if want := string(nbformat.CellIDOf(c)); m.ID != want && !org.snap(m).generated {
				t.Errorf("%s: cell %d: id %q, the cell's is %q", e.Path, i, m.ID, want)
			}
			var src *nbformat.MultilineString
			switch c := c.(type) {
			case *nbformat.CodeCell:
				src = &c.Source
			case *nbformat.MarkdownCell:
				src = &c.Source
			case *nbformat.RawCell:
				src = &c.Source
			}
			if src != nil && m.Kind != dialog.Prompt && m.Content != src.String() {
				t.Errorf("%s: cell %d: text differs from the cell's", e.Path, i)
			}
			ref.ID = m.ID
			if !sameMsg(m, ref) {
				t.Errorf("%s: cell %d: the message read differs from ToMessage's", e.Path, i)
			}
			if s := org.snap(m); s == nil || !sameMsg(m, ptrTo(s.asRead())) || s.cell != c {
				t.Errorf("%s: cell %d: the snapshot is not the message as read", e.Path, i)
			}
			n++
		}
	}
	if n == 0 {
		t.Skip("no corpus message read")
	}
}

// sameMsg reports whether two messages are equal, piece by piece.
func sameMsg(a, b *dialog.Message) bool {
	if a.ID != b.ID || a.Kind != b.Kind || a.Content != b.Content || len(a.Outputs) != len(b.Outputs) ||
		(a.ExecutionCount == nil) != (b.ExecutionCount == nil) || a.ExecutionCount != nil && *a.ExecutionCount != *b.ExecutionCount ||
		!jsonvalue.Equal(a.Meta, b.Meta) || !jsonvalue.Equal(a.Attrs, b.Attrs) || !sameAttachments(a.Attachments, b.Attachments) {
		return false
	}
	for i := range a.Outputs {
		ma, err1 := a.Outputs[i].Map()
		mb, err2 := b.Outputs[i].Map()
		ja, _ := json.Marshal(ma)
		jb, _ := json.Marshal(mb)
		if err1 != nil || err2 != nil || !bytes.Equal(ja, jb) {
			return false
		}
	}
	return true
}

// origin.snap finds the snapshots of the messages read, and nothing for
// messages outside the block: copies of them, other dialogs' messages
// (read from the same bytes), new messages, and values placed right after
// the block's last element.
func TestSnapOfForeignMessages(t *testing.T) {
	t.Parallel()
	data := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
 {"cell_type": "markdown", "id": "a", "metadata": {}, "source": "one"},
 {"cell_type": "markdown", "id": "b", "metadata": {}, "source": "two"}]}`)
	d1, err1 := Unmarshal(data, ReadOptions{})
	d2, err2 := Unmarshal(data, ReadOptions{})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	o1, o2 := d1.org, d2.org
	for i, m := range d1.Messages {
		if s := o1.snap(m); s == nil || s != &o1.cells[i].snap {
			t.Errorf("message %d: snapshot %p, want %p", i, s, &o1.cells[i].snap)
		}
		if o2.snap(m) != nil {
			t.Errorf("message %d of one dialog found in the other", i)
		}
		cp := *m
		if o1.snap(&cp) != nil {
			t.Errorf("a copy of message %d taken for it", i)
		}
	}
	if o1.snap(&dialog.Message{ID: "a"}) != nil || o1.snap(nil) != nil || (*origin)(nil).snap(d1.Messages[0]) != nil {
		t.Error("a message not read has a snapshot")
	}
	// Pointers inside the block but not at a message: the snapshot's own
	// copy of the message, and a message in a block of readCells laid out
	// as the origin's but longer (its elements past the origin's length).
	if o1.snap(&o1.cells[0].snap.msg) != nil {
		t.Error("the snapshot's copy of a message taken for the message")
	}
	longer := make([]readCell, 4)
	copy(longer, o1.cells)
	o3 := &origin{cells: longer[:2]}
	if o3.snap(&longer[2].msg) != nil || o3.snap(&longer[3].msg) != nil {
		t.Error("a message past the block's length taken for one of it")
	}
	if o3.snap(&longer[1].msg) != &longer[1].snap {
		t.Error("the block's last message not found")
	}
}

// ptrTo returns a pointer to a copy of v.
func ptrTo[T any](v T) *T { return &v }

// cloneCell copies the cell: changing the copy's id leaves the cell's (an
// unknown cell's id is not set).
func TestCloneCell(t *testing.T) {
	t.Parallel()
	nb, err := nbformat.Unmarshal([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
 {"cell_type": "raw", "id": "a", "metadata": {}, "source": "r"},
 {"cell_type": "markdown", "id": "b", "metadata": {}, "source": "m"},
 {"cell_type": "code", "id": "c", "metadata": {}, "source": "c", "outputs": [], "execution_count": null},
 {"cell_type": "future", "id": "d"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range nb.Cells {
		cp := cloneCell(c)
		if cp == c {
			t.Fatalf("cell %d: the copy is the cell", i)
		}
		nbformat.SetCellID(cp, "other")
		if got := nbformat.CellIDOf(c); got == "other" {
			t.Errorf("cell %d (%T): setting the copy's id changed the cell's", i, c)
		}
		if _, unknown := c.(*nbformat.UnknownCell); !unknown && nbformat.CellIDOf(cp) != "other" {
			t.Errorf("cell %d (%T): the copy's id is %q", i, c, nbformat.CellIDOf(cp))
		}
	}
}

package convert

// Tests of what a dialog read shares with its notebook (v3 cells' ids, metadata
// maps, raw values) and that the fast paths agree with the general ones.

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/nbformat"
)

// A version 3 notebook's cells, upgraded for its dialog, carry their
// messages' ids (derived once, by the dialog), so writing the dialog with
// one message changed keeps every other cell as it is, without a copy to
// give it its id; and the cells written are those of writing the upgrade
// with the ids set afterwards.
func TestV3CellsCarryTheirMessagesIDs(t *testing.T) {
	t.Parallel()
	data := []byte(`{"nbformat": 3, "nbformat_minor": 0, "metadata": {"name": ""}, "worksheets": [{"cells": [
		{"cell_type": "heading", "level": 1, "metadata": {}, "source": "Title"},
		{"cell_type": "markdown", "metadata": {}, "source": ["Some ", "text"]},
		{"cell_type": "code", "collapsed": false, "input": ["print(1)\n", "x = 1"], "language": "python", "metadata": {}, "outputs": [{"output_type": "stream", "stream": "stdout", "text": ["1\n"]}], "prompt_number": 1},
		{"cell_type": "raw", "metadata": {}, "source": "raw"}], "metadata": {}}]}`)
	d, err := Unmarshal(data, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	org := d.org
	for _, m := range d.Messages {
		if got := nbformat.CellIDOf(org.snap(m).cell); string(got) != m.ID {
			t.Errorf("message %s: its cell's id is %q", m.ID, got)
		}
	}
	d.Messages[1].Content = "Changed"
	nb, err := options{}.ToNotebook(d)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range nb.Cells {
		if kept := c == org.snap(d.Messages[i]).cell; kept != (i != 1) {
			t.Errorf("cell %d: kept as read %v", i, kept)
		}
	}
	// The reference: the upgrade as nbformat makes it, ids set afterwards.
	want, _ := nbformat.Unmarshal(data)
	if err := nbformat.Upgrade(want); err != nil {
		t.Fatal(err)
	}
	for i, c := range want.Cells {
		nbformat.SetCellID(c, nbformat.CellID(d.Messages[i].ID))
	}
	want.Cells[1].(*nbformat.MarkdownCell).Source.Set("Changed")
	got, err1 := nbformat.Marshal(nb)
	exp, err2 := nbformat.Marshal(want)
	if err1 != nil || err2 != nil || !bytes.Equal(got, exp) {
		t.Errorf("the dialog writes\n%s\nwant\n%s (%v, %v)", got, exp, err1, err2)
	}
}

// A snapshot shares its cell's metadata map rather than copying it (the
// message has a copy of its own), and changing the message's metadata is
// still seen: the changed message alone is written anew, and the cell read
// is left as it was.
func TestSnapshotSharesCellMetadata(t *testing.T) {
	t.Parallel()
	data := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
 {"cell_type": "markdown", "id": "a", "metadata": {"k": 1, "obj": {"x": [1, 2]}}, "source": "one"},
 {"cell_type": "markdown", "id": "b", "metadata": {"k": 2}, "source": "two"}
]}
`)
	for _, edit := range []func(m map[string]any){
		func(m map[string]any) { m["k"] = 3 },
		func(m map[string]any) { delete(m, "k") },
		func(m map[string]any) { m["new"] = "v" },
		func(m map[string]any) { m["obj"] = json.RawMessage(`{"x": [1]}`) },
	} {
		d, err := Unmarshal(data, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		org := d.org
		m := d.Messages[0]
		s := org.snap(m)
		cellMeta := s.cell.(*nbformat.MarkdownCell).Metadata.AdditionalProperties
		if reflect.ValueOf(s.msg.Meta).UnsafePointer() != reflect.ValueOf(cellMeta).UnsafePointer() {
			t.Fatal("the snapshot's metadata is a copy of the cell's")
		}
		if reflect.ValueOf(m.Meta).UnsafePointer() == reflect.ValueOf(cellMeta).UnsafePointer() {
			t.Fatal("the message's metadata is the cell's own map")
		}
		before := jsonvalue.CloneObject(cellMeta)
		edit(m.Meta)
		out, err := Marshal(d, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(out, data) {
			t.Errorf("a change of metadata (%v) was not written", m.Meta)
		}
		if !bytes.Contains(out, []byte(` {"cell_type": "markdown", "id": "b", "metadata": {"k": 2}, "source": "two"}`)) {
			t.Errorf("the unchanged cell was not kept as read:\n%s", out)
		}
		if !jsonvalue.Equal(cellMeta, before) {
			t.Errorf("changing the message's metadata changed the cell read: %v", cellMeta)
		}
		back, err := Unmarshal(out, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !jsonvalue.Equal(back.Messages[0].Meta, m.Meta) {
			t.Errorf("metadata written %v, want %v", back.Messages[0].Meta, m.Meta)
		}
	}
}

// A message's execution count is its own: changing it changes what is
// written, not the notebook the dialog was converted from.
func TestExecutionCountIsTheMessagesOwn(t *testing.T) {
	t.Parallel()
	nb, err := nbformat.Unmarshal([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
 {"cell_type": "code", "id": "a", "execution_count": 7, "metadata": {}, "outputs": [], "source": "x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	d, err := options{}.ToDialog(nb)
	if err != nil {
		t.Fatal(err)
	}
	*d.Messages[0].ExecutionCount = 99
	if n := nb.Cells[0].(*nbformat.CodeCell).ExecutionCount; n == nil || *n != 7 {
		t.Errorf("changing the message's execution count changed the notebook's cell (%v)", n != nil && *n == 99)
	}
	out, err := Marshal(d, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"execution_count": 99`)) {
		t.Errorf("the count changed was not written:\n%s", out)
	}
}

// The fast paths agree with the general ones over the corpus: the bytes
// an unchanged dialog is written as (the bytes read, see asRead) are those
// the general path writes (ToNotebook's conversion, Heal's check, Marshal);
// a dialog read from bytes (its notebook's upgrade made from the tape,
// outputs and counts from shared buffers, snapshots sharing metadata) is
// the dialog ToDialog makes of the notebook read by nbformat (upgraded by
// reading its bytes again); and both write the same bytes once their first
// message is changed.
func TestFastPathsAgreeWithTheGeneralOnes(t *testing.T) {
	t.Parallel()
	n := 0
	for e, data := range corpus.Sample(t) {
		d, err := Unmarshal(data, ReadOptions{})
		if err != nil {
			continue
		}
		n++
		fast, err := Marshal(d, WriteOptions{})
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		// The general path: the same dialog, its origin (written once
		// already, by the fast path) no longer known to be as read.
		d.org.pristine = false
		slow := *d
		nb, err := options{}.ToNotebook(&slow)
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		general, err := nbformat.Marshal(nb)
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		if !bytes.Equal(fast, general) {
			t.Errorf("%s: the unchanged dialog writes other bytes than the general path", e.Path)
		}
		// The dialog of the notebook nbformat reads.
		read, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		other, err := options{}.ToDialog(read)
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		if !sameDialog(d.Dialog, other.Dialog) {
			t.Errorf("%s: Unmarshal and ToDialog give different dialogs", e.Path)
			continue
		}
		if len(d.Messages) == 0 {
			continue
		}
		d.Messages[0].Content += "\nchanged"
		other.Messages[0].Content += "\nchanged"
		a, err1 := Marshal(d, WriteOptions{})
		b, err2 := Marshal(other, WriteOptions{})
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: the changed dialogs write different bytes (%v, %v)", e.Path, err1, err2)
		}
	}
	if n == 0 {
		t.Error("no corpus notebook read")
	}
}

// sameDialog reports whether two dialogs hold equal messages and metadata.
func sameDialog(a, b *dialog.Dialog) bool {
	if len(a.Messages) != len(b.Messages) || !jsonvalue.Equal(a.Meta, b.Meta) {
		return false
	}
	for i, m := range a.Messages {
		o := b.Messages[i]
		if m.ID != o.ID || m.Kind != o.Kind || m.Content != o.Content || len(m.Outputs) != len(o.Outputs) ||
			!cmp.Equal(m.ExecutionCount, o.ExecutionCount) || !jsonvalue.Equal(m.Meta, o.Meta) ||
			!jsonvalue.Equal(m.Attrs, o.Attrs) || !sameAttachments(m.Attachments, o.Attachments) {
			return false
		}
		for j := range m.Outputs {
			if !m.Outputs[j].Equal(o.Outputs[j]) {
				return false
			}
		}
	}
	return true
}

// The snapshot of a dialog's metadata is the notebook's metadata itself
// (no copy is kept), whose arrays and objects kept as read
// (json.RawMessage, never changed in place) are the dialog's: a
// notebook's large metadata (widget state) is not copied to read it;
// replacing a value is still seen.
func TestMetadataSnapshotSharesRawValues(t *testing.T) {
	t.Parallel()
	data := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {"widgets": {"state": {"a": [1, 2, 3]}}, "k": 1}, "cells": []}` + "\n")
	d, err := Unmarshal(data, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	org := d.org
	raw, ok := d.Meta["widgets"].(json.RawMessage)
	if !ok {
		t.Skipf("widgets read as %T", d.Meta["widgets"])
	}
	if org.meta != nil || !org.metaTyped {
		t.Error("a copy of the metadata is kept")
	}
	snap := org.metaAsRead()["widgets"].(json.RawMessage)
	if &raw[0] != &snap[0] {
		t.Error("the snapshot copies the metadata's raw values")
	}
	d.Meta["widgets"] = json.RawMessage(`{"state": {}}`)
	out, err := Marshal(d, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(out, data) || !bytes.Contains(out, []byte(`"state": {}`)) {
		t.Errorf("the replaced value was not written:\n%s", out)
	}
}

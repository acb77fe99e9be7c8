package convert_test

// Tests that every change a caller can make to a message read, in place or by
// replacement, is seen by Marshal.

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// mutateNotebooks are the notebooks TestMessageMutationsSeen edits: one
// of version 4.5 (cells with ids) and one of version 4.4 (ids derived),
// whose cells give every field of a message a value: a note with an
// attachment and metadata of every kind (a scalar, an array, an object,
// a declared attribute), a code cell with an execution count, outputs,
// flags and typed members read into nested values (execution, jupyter)
// or strings (name), a raw cell, a prompt with its reply, and a code cell
// with tags (read by ToMap).
func mutateNotebooks() map[string][]byte {
	cells := func(id func(string) string) string {
		return `[
  {"cell_type": "markdown", ` + id("n1") + `"attachments": {"img.png": {"image/png": "iVBORw0KGgo=", "text/plain": "YWJj"}}, "metadata": {"a": 1, "s": "x", "arr": [1, 2], "obj": {"k": "v"}, "pinned": true, "star": "gold"}, "source": ["# Title\n", "![img](attachment:img.png)"]},
  {"cell_type": "code", ` + id("c1") + `"execution_count": 3, "metadata": {"collapsed": false, "scrolled": true, "execution": {"iopub.execute_input": "2024-01-01T00:00:00Z", "shell.execute_reply": "2024-01-01T00:00:01Z"}, "jupyter": {"source_hidden": true}, "name": "first", "x": 1}, "outputs": [{"name": "stdout", "output_type": "stream", "text": ["out\n"]}, {"data": {"text/plain": ["42"]}, "execution_count": 3, "metadata": {}, "output_type": "execute_result"}], "source": ["print('out')\n", "42"]},
  {"cell_type": "code", ` + id("c2") + `"execution_count": null, "metadata": {}, "outputs": [], "source": "x = 1"},
  {"cell_type": "raw", ` + id("r1") + `"metadata": {"format": "text/plain"}, "source": "raw text"},
  {"cell_type": "markdown", ` + id("p1") + `"metadata": {"solveit_ai": true}, "source": "Question?` + jsonString(convert.ReplySeparator) + `Answer."},
  {"cell_type": "code", ` + id("c3") + `"execution_count": 4, "metadata": {"tags": ["t1", "t2"], "collapsed": true}, "outputs": [], "source": "y = 2"}
 ]`
	}
	meta := `{"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}, "language_info": {"name": "python"}}`
	return map[string][]byte{
		"4.5": []byte(`{"cells": ` + cells(func(id string) string { return `"id": "` + id + `", ` }) + `, "metadata": ` + meta + `, "nbformat": 4, "nbformat_minor": 5}` + "\n"),
		"4.4": []byte(`{"cells": ` + cells(func(string) string { return "" }) + `, "metadata": ` + meta + `, "nbformat": 4, "nbformat_minor": 4}` + "\n"),
	}
}

// jsonString is s inside a JSON string (without the quotes).
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// messageMutation is one change a caller can make to a dialog read: in
// place (a map entry, a slice element, a pointed-to value changed where
// it is) and the same change by replacement (a new value stored in the
// field), which every version of the unchanged check sees. changed is
// false for changes that leave the dialog as it was (a value set to
// itself, a copy changed); idOnly, true for a change of an id only, which
// changes the bytes only where cells carry ids.
type messageMutation struct {
	name             string
	inPlace, replace func(t *testing.T, d *dialog.Dialog)
	changed          bool
	idOnly           bool // changes only an id (written from version 4.5 on)
}

// msg returns message i of d.
func msg(d *dialog.Dialog, i int) *dialog.Message { return d.Messages[i] }

// withMeta returns a copy of m with key set to v (deleted if del).
func withMeta(m map[string]any, key string, v any, del bool) map[string]any {
	c := make(map[string]any, len(m)+1)
	for k, x := range m {
		c[k] = x
	}
	if del {
		delete(c, key)
	} else {
		c[key] = v
	}
	return c
}

func messageMutations() []messageMutation {
	setMeta := func(i int, key string, v any) messageMutation {
		return messageMutation{name: "Meta[" + key + "] set",
			inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, i).Meta[key] = v },
			replace: func(t *testing.T, d *dialog.Dialog) { msg(d, i).Meta = withMeta(msg(d, i).Meta, key, v, false) },
			changed: true}
	}
	delMeta := func(i int, key string) messageMutation {
		return messageMutation{name: "Meta[" + key + "] deleted",
			inPlace: func(t *testing.T, d *dialog.Dialog) { delete(msg(d, i).Meta, key) },
			replace: func(t *testing.T, d *dialog.Dialog) { msg(d, i).Meta = withMeta(msg(d, i).Meta, key, nil, true) },
			changed: true}
	}
	nested := func(i int, key string, change func(t *testing.T, v any) any) messageMutation {
		return messageMutation{name: "Meta[" + key + "] changed inside",
			inPlace: func(t *testing.T, d *dialog.Dialog) { change(t, msg(d, i).Meta[key]) },
			replace: func(t *testing.T, d *dialog.Dialog) {
				m := msg(d, i)
				m.Meta = withMeta(m.Meta, key, change(t, deepCopy(t, m.Meta[key])), false)
			},
			changed: true}
	}
	stream := dialog.NewOutput(map[string]any{"output_type": "stream", "name": "stdout", "text": "other\n"})
	return []messageMutation{
		// Strings: replaced only (Go strings never change).
		{name: "ID", inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 0).ID = "newid" }, changed: true, idOnly: true},
		{name: "Kind note to raw", inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 0).Kind = dialog.Raw }, changed: true},
		{name: "Kind note to prompt", inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 0).Kind = dialog.Prompt }, changed: true},
		{name: "Content", inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 1).Content += "\n# more" }, changed: true},
		{name: "Content of a prompt", inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 4).Content = "Other?" }, changed: true},
		{name: "Content set to itself", inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 1).Content = string([]byte(msg(d, 1).Content)) }},
		// The execution count: the value pointed to, the pointer.
		{name: "ExecutionCount",
			inPlace: func(t *testing.T, d *dialog.Dialog) { *msg(d, 1).ExecutionCount = 7 },
			replace: func(t *testing.T, d *dialog.Dialog) { n := 7; msg(d, 1).ExecutionCount = &n }, changed: true},
		{name: "ExecutionCount set to itself",
			inPlace: func(t *testing.T, d *dialog.Dialog) { *msg(d, 1).ExecutionCount = 3 },
			replace: func(t *testing.T, d *dialog.Dialog) { n := 3; msg(d, 1).ExecutionCount = &n }},
		{name: "ExecutionCount removed", inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 1).ExecutionCount = nil }, changed: true},
		{name: "ExecutionCount given", inPlace: func(t *testing.T, d *dialog.Dialog) { n := 1; msg(d, 2).ExecutionCount = &n }, changed: true},
		// Outputs: an element, the order, the length, the backing array.
		{name: "Outputs element",
			inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 1).Outputs[0] = stream },
			replace: func(t *testing.T, d *dialog.Dialog) {
				m := msg(d, 1)
				m.Outputs = append([]dialog.Output{stream}, m.Outputs[1:]...)
			}, changed: true},
		{name: "Outputs swapped",
			inPlace: func(t *testing.T, d *dialog.Dialog) { o := msg(d, 1).Outputs; o[0], o[1] = o[1], o[0] },
			replace: func(t *testing.T, d *dialog.Dialog) {
				o := msg(d, 1).Outputs
				msg(d, 1).Outputs = []dialog.Output{o[1], o[0]}
			}, changed: true},
		{name: "Outputs truncated and appended in the same array",
			inPlace: func(t *testing.T, d *dialog.Dialog) { m := msg(d, 1); m.Outputs = append(m.Outputs[:1], stream) },
			replace: func(t *testing.T, d *dialog.Dialog) {
				m := msg(d, 1)
				m.Outputs = []dialog.Output{m.Outputs[0], stream}
			}, changed: true},
		{name: "Outputs shortened", inPlace: func(t *testing.T, d *dialog.Dialog) { m := msg(d, 1); m.Outputs = m.Outputs[:1] }, changed: true},
		{name: "Outputs appended to", inPlace: func(t *testing.T, d *dialog.Dialog) { m := msg(d, 2); m.Outputs = append(m.Outputs, stream) }, changed: true},
		{name: "Outputs copied", inPlace: func(t *testing.T, d *dialog.Dialog) { m := msg(d, 1); m.Outputs = slices.Clone(m.Outputs) }},
		{name: "Output's map changed (a copy)", inPlace: func(t *testing.T, d *dialog.Dialog) {
			g, err := msg(d, 1).Outputs[0].Map()
			if err != nil {
				t.Fatal(err)
			}
			g["text"] = "changed"
		}},
		{name: "Output rebuilt from its map", inPlace: func(t *testing.T, d *dialog.Dialog) {
			g, err := msg(d, 1).Outputs[0].Map()
			if err != nil {
				t.Fatal(err)
			}
			g["name"] = "stderr"
			msg(d, 1).Outputs[0] = dialog.NewOutput(g)
		}, changed: true},
		{name: "Reply", inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 4).SetReply("Another answer.") }, changed: true},
		{name: "Reply removed", inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 4).SetReply("") }, changed: true},
		// Attachments: each field of an element, its data's bytes, the list.
		{name: "Attachment ID",
			inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 0).Attachments[0].ID = "other.png" },
			replace: func(t *testing.T, d *dialog.Dialog) {
				m := msg(d, 0)
				as := slices.Clone(m.Attachments)
				as[0].ID = "other.png"
				m.Attachments = as
			}, changed: true},
		{name: "Attachment MIME",
			inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 0).Attachments[0].MIME = "image/gif" },
			replace: func(t *testing.T, d *dialog.Dialog) {
				m := msg(d, 0)
				as := slices.Clone(m.Attachments)
				as[0].MIME = "image/gif"
				m.Attachments = as
			}, changed: true},
		{name: "Attachment data's bytes",
			inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 0).Attachments[1].Data[0] = 'X' },
			replace: func(t *testing.T, d *dialog.Dialog) {
				m := msg(d, 0)
				as := slices.Clone(m.Attachments)
				as[1].Data = append([]byte{'X'}, as[1].Data[1:]...)
				m.Attachments = as
			}, changed: true},
		{name: "Attachment data set to a copy", inPlace: func(t *testing.T, d *dialog.Dialog) {
			a := &msg(d, 0).Attachments[0]
			a.Data = bytes.Clone(a.Data)
		}},
		{name: "Attachments shortened", inPlace: func(t *testing.T, d *dialog.Dialog) { m := msg(d, 0); m.Attachments = m.Attachments[:1] }, changed: true},
		{name: "Attachment added", inPlace: func(t *testing.T, d *dialog.Dialog) {
			m := msg(d, 0)
			m.Attachments = append(m.Attachments, dialog.Attachment{ID: "b.txt", MIME: "text/plain", Data: []byte("hi")})
		}, changed: true},
		// Meta: entries set, added, deleted, and values changed inside.
		setMeta(0, "a", 2),
		setMeta(0, "a", 1.5),
		setMeta(0, "s", "y"),
		setMeta(0, "new", true),
		setMeta(0, "arr", json.RawMessage(`[1, 3]`)),
		setMeta(0, "obj", map[string]any{"k": "w"}),
		setMeta(1, "collapsed", true),
		setMeta(1, "scrolled", false),
		setMeta(1, "x", nil),
		setMeta(1, "name", "second"),
		setMeta(5, "collapsed", false),
		setMeta(2, "first", "key"),
		setMeta(3, "format", "text/html"),
		delMeta(0, "arr"),
		delMeta(1, "collapsed"),
		delMeta(1, "execution"),
		delMeta(1, "name"),
		delMeta(1, "x"),
		delMeta(5, "tags"),
		delMeta(3, "format"),
		{name: "Meta set to an equal value", inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 0).Meta["a"] = 1 }},
		{name: "Meta replaced by a copy", inPlace: func(t *testing.T, d *dialog.Dialog) { m := msg(d, 1); m.Meta = deepCopy(t, m.Meta).(map[string]any) }},
		nested(1, "execution", func(t *testing.T, v any) any {
			obj, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("execution is %T", v)
			}
			obj["shell.execute_reply"] = "2025-01-01T00:00:00Z"
			return obj
		}),
		nested(1, "jupyter", func(t *testing.T, v any) any {
			obj, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("jupyter is %T", v)
			}
			obj["outputs_hidden"] = true
			return obj
		}),
		nested(5, "tags", func(t *testing.T, v any) any {
			tags, ok := v.([]any)
			if !ok {
				t.Fatalf("tags is %T", v)
			}
			tags[1] = "t3"
			return tags
		}),
		// Attrs (the declared keys pinned and star).
		{name: "Attrs set",
			inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 0).Attrs["star"] = "silver" },
			replace: func(t *testing.T, d *dialog.Dialog) {
				m := msg(d, 0)
				m.Attrs = withMeta(m.Attrs, "star", "silver", false)
			}, changed: true},
		{name: "Attrs flag cleared",
			inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 0).Attrs["pinned"] = false },
			replace: func(t *testing.T, d *dialog.Dialog) {
				m := msg(d, 0)
				m.Attrs = withMeta(m.Attrs, "pinned", false, false)
			}, changed: true},
		{name: "Attrs deleted",
			inPlace: func(t *testing.T, d *dialog.Dialog) { delete(msg(d, 0).Attrs, "star") },
			replace: func(t *testing.T, d *dialog.Dialog) { m := msg(d, 0); m.Attrs = withMeta(m.Attrs, "star", nil, true) }, changed: true},
		{name: "Attrs given", inPlace: func(t *testing.T, d *dialog.Dialog) { msg(d, 2).Attrs = map[string]any{"pinned": true} }, changed: true},
		// The dialog: its list of messages and its metadata.
		{name: "Messages swapped",
			inPlace: func(t *testing.T, d *dialog.Dialog) { d.Messages[0], d.Messages[1] = d.Messages[1], d.Messages[0] },
			replace: func(t *testing.T, d *dialog.Dialog) {
				d.Messages = append([]*dialog.Message{d.Messages[1], d.Messages[0]}, d.Messages[2:]...)
			}, changed: true},
		{name: "Message removed", inPlace: func(t *testing.T, d *dialog.Dialog) { d.Messages = d.Messages[:len(d.Messages)-1] }, changed: true},
		{name: "Message replaced by a copy of itself", inPlace: func(t *testing.T, d *dialog.Dialog) { c := *d.Messages[2]; d.Messages[2] = &c }},
		{name: "Dialog Meta inside",
			inPlace: func(t *testing.T, d *dialog.Dialog) { d.Meta["kernelspec"].(map[string]any)["name"] = "other" },
			replace: func(t *testing.T, d *dialog.Dialog) {
				ks := deepCopy(t, d.Meta["kernelspec"]).(map[string]any)
				ks["name"] = "other"
				d.Meta = withMeta(d.Meta, "kernelspec", ks, false)
			}, changed: true},
	}
}

// deepCopy copies a generic JSON value (through JSON: arrays and objects
// come back decoded).
func deepCopy(t *testing.T, v any) any {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(v))
		for k, x := range v {
			c[k] = deepCopy(t, x)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, x := range v {
			c[i] = deepCopy(t, x)
		}
		return c
	case json.RawMessage:
		return bytes.Clone(v)
	}
	return v
}

// Every change a caller can make to a message read (each mutable field of
// dialog.Message, of its outputs and attachments, and of the dialog), made
// in place, is seen by Marshal exactly as the same change made by
// replacement (which no shortcut of the unchanged check can miss): the
// bytes are the same, and differ from the file's exactly when the change
// changes something. Each dialog is written once before the change (so
// that nothing remembered from a first write hides it) and is written
// again after it, by Marshal and by ToNotebook.
func TestMessageMutationsSeen(t *testing.T) {
	t.Parallel()
	reg, err := convert.NewRegistry(convert.Flag("pinned", "pinned"), convert.Descriptor{Attr: "star", Key: "star"})
	if err != nil {
		t.Fatal(err)
	}
	opts := convert.Options{Registry: reg}
	for version, data := range mutateNotebooks() {
		read := func(t *testing.T) *convert.File {
			t.Helper()
			d, err := opts.Unmarshal(data)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		unedited, err := opts.Marshal(read(t))
		if err != nil {
			t.Fatal(err)
		}
		if version == "4.5" && !bytes.Equal(unedited, data) {
			t.Fatalf("%s: the unedited dialog is not written as read:\n%s", version, unedited)
		}
		for _, mu := range messageMutations() {
			t.Run(version+"/"+mu.name, func(t *testing.T) {
				d := read(t)
				if first, err := opts.Marshal(d); err != nil || !bytes.Equal(first, unedited) {
					t.Fatalf("first write: %v\n%s", err, first)
				}
				mu.inPlace(t, d.Dialog)
				got, err := opts.Marshal(d)
				if err != nil {
					t.Fatal(err)
				}
				replace := mu.replace
				if replace == nil {
					replace = mu.inPlace // (a field replaced is the change)
				}
				ref := read(t)
				replace(t, ref.Dialog)
				want, err := opts.Marshal(ref)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("changed in place, written:\n%s\nchanged by replacement, written:\n%s", got, want)
				}
				wantChanged := mu.changed && (!mu.idOnly || version == "4.5")
				if changed := !bytes.Equal(got, unedited); changed != wantChanged {
					t.Errorf("written differs from the unedited dialog's bytes: %v, want %v\n%s", changed, wantChanged, got)
				}
				nb, err := opts.ToNotebook(d)
				if err != nil {
					t.Fatal(err)
				}
				viaNB, err := nbformat.Marshal(nb)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(viaNB, want) {
					t.Errorf("ToNotebook then nbformat.Marshal:\n%s\nwant:\n%s", viaNB, want)
				}
			})
		}
	}
}

package dialog_test

// Examples of making, getting and merging messages, and of reading outputs.

import (
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/nbdialog/ipynb/dialog"
)

func Example() {
	d := &dialog.Dialog{Name: "demo"}
	d.Random = rand.NewChaCha8([32]byte{1}) // reproducible ids
	d.Add(dialog.Note, "A *test* dialog")
	code := d.Add(dialog.Code, "1+1")
	code.Outputs = []dialog.Output{dialog.NewOutput(map[string]any{"output_type": "execute_result", "metadata": map[string]any{}, "data": map[string]any{"text/plain": "2"}, "execution_count": 1})}
	q := d.Add(dialog.Prompt, "Add them.")
	q.SetReply("The answer is **2**.")
	fmt.Print(d.Summary(120, 20))
	// Output:
	// demo
	// 6ae6783f:n:A *test* dialog
	// 4fbde91b:c:1+1 ⇒ out(94 B)
	// 6eb88b73:p:Add them. ⇒ reply(20)
	// > The answer is **2**.
}

// The seed's examples, one statement each: a note with an attachment, a
// code message with its output, a prompt with its reply, a raw message,
// then messages placed after and before others, with given ids.
func ExampleDialog_Make() {
	d := &dialog.Dialog{Name: "dlg"}
	d.Random = rand.NewChaCha8([32]byte{7}) // reproducible ids
	note, err := d.Make(dialog.Note, "A *test* dialog", dialog.MakeOptions{Attachments: []dialog.Attachment{{Data: []byte("not really a png"), MIME: "image/png"}}})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := d.Make(dialog.Code, "1+1", dialog.MakeOptions{OutputsJSON: `[{"output_type": "execute_result", "metadata": {}, "data": {"text/plain": "2"}, "execution_count": 1}]`}); err != nil {
		log.Fatal(err)
	}
	if _, err := d.Make(dialog.Prompt, "Add them.", dialog.MakeOptions{Reply: "The answer is **2**."}); err != nil {
		log.Fatal(err)
	}
	last, err := d.Make(dialog.Raw, "plain text", dialog.MakeOptions{})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := d.Make(dialog.Note, "new note", dialog.MakeOptions{After: note.ID, ID: "deadbeef"}); err != nil {
		log.Fatal(err)
	}
	if _, err := d.Make(dialog.Code, "print(1)", dialog.MakeOptions{Before: last.ID, ID: "c0ffee00", Outputs: []dialog.Output{dialog.NewOutput(map[string]any{"output_type": "stream", "name": "stdout", "text": "1\n"})}}); err != nil {
		log.Fatal(err)
	}
	if _, err := d.Make(dialog.Note, "# Pinned", dialog.MakeOptions{At: 1, Meta: map[string]any{"my_app": 3}, Attrs: map[string]any{"pinned": 1}}); err != nil {
		log.Fatal(err)
	}
	_, err = d.Make(dialog.Note, "lost?", dialog.MakeOptions{After: "nope"}) // refused: nothing is added
	fmt.Print(d.Summary(120, 20))
	fmt.Println(err)
	// Output:
	// dlg
	// 33703b71:n:# Pinned
	// 04427c90:n:A *test* dialog
	// deadbeef:n:new note
	// 53d9a667:c:1+1 ⇒ out(94 B)
	// be544c14:p:Add them. ⇒ reply(20)
	// > The answer is **2**.
	// c0ffee00:c:print(1) ⇒ out(55 B)
	// e69fa482:r:plain text
	// dialog: make note message: after "nope": no such message
}

func ExampleDialog_Get() {
	d := &dialog.Dialog{Name: "demo", Messages: []*dialog.Message{
		{ID: "a1b2c3d4", Kind: dialog.Note, Content: "first"},
		{ID: "a1ffffff", Kind: dialog.Note, Content: "second"},
	}}
	m, err := d.Get("a1b") // a unique id prefix
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Content)
	_, err = d.Get("a1")
	fmt.Println(err)
	// Output:
	// first
	// dialog: "a1" matches a1b2c3d4, a1ffffff: ambiguous message id
}

// Merge two edits of one dialog: the changes made on one side are taken
// (theirs replaced a note), and both sides' edits of one message merge
// line by line (edits of adjacent lines would conflict, as in git).
func ExampleMerge() {
	base := &dialog.Dialog{Name: "notes", Messages: []*dialog.Message{
		{ID: "a1", Kind: dialog.Code, Content: "x = 1\n# and\ny = 2\n"},
		{ID: "b2", Kind: dialog.Note, Content: "Some notes."},
	}}
	ours := &dialog.Dialog{Name: "notes", Messages: []*dialog.Message{
		{ID: "a1", Kind: dialog.Code, Content: "x = 10\n# and\ny = 2\n"},
		{ID: "b2", Kind: dialog.Note, Content: "Some notes."},
	}}
	theirs := &dialog.Dialog{Name: "notes", Messages: []*dialog.Message{
		{ID: "a1", Kind: dialog.Code, Content: "x = 1\n# and\ny = 20\n"},
		{ID: "c3", Kind: dialog.Note, Content: "Their note."},
	}}

	merged, conflicts := dialog.Merge(base, ours, theirs, dialog.MergeOptions{})
	fmt.Print(merged.Summary(0, 0))
	fmt.Println(len(conflicts), "conflicts")
	// Output:
	// notes
	// a1:c:x = 10\n# and\ny = 20\n
	// c3:n:Their note.
	// 0 conflicts
}

// An output is a value: look inside with Map (your own copy), and edit it
// by making a new one. Outputs read from a notebook (package convert) are
// decoded only then.
func ExampleOutput_Map() {
	d := &dialog.Dialog{Name: "demo"}
	d.Random = rand.NewChaCha8([32]byte{1})
	code, err := d.Make(dialog.Code, "print('hi')", dialog.MakeOptions{Outputs: []dialog.Output{dialog.NewOutput(map[string]any{"output_type": "stream", "name": "stdout", "text": "hi\n"})}})
	if err != nil {
		log.Fatal(err)
	}
	g, err := code.Outputs[0].Map()
	if err != nil {
		log.Fatal(err)
	}
	g["text"] = "cleaned\n"
	code.Outputs[0] = dialog.NewOutput(g)
	j, err := code.Outputs[0].MarshalJSON()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(code.Outputs[0].Type(), string(j))
	// Output:
	// stream {"name":"stdout","output_type":"stream","text":"cleaned\n"}
}

package convert_test

// Examples of reading, editing, saving, writing and merging dialogs, and of
// host attributes.

import (
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// Read a dialog, edit a message, save it back: only the edited cell's
// bytes change.
func Example() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	data, err := os.ReadFile(filepath.Join("..", "testdata", "dialog.ipynb"))
	if err != nil {
		log.Fatal(err)
	}
	path := filepath.Join(dir, "dialog.ipynb")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		log.Fatal(err)
	}

	f, err := convert.ReadFile(path, convert.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range f.Messages {
		fmt.Println(m.Preview(60))
	}
	m, err := f.Get("5f1e") // by id prefix
	if err != nil {
		log.Fatal(err)
	}
	m.SetReply("Two, as 1+1 shows.")
	if err := f.Save(convert.SaveOptions{}); err != nil {
		log.Fatal(err)
	}
	back, err := convert.ReadFile(path, convert.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(back.Messages[2].Reply())
	// Output:
	// a54dca18:n:A *test* dialog
	// 0b9c3d7e:c:1+1 ⇒ out(94 B)
	// 5f1e2d3c:p:Add them. ⇒ reply(20)
	// 9a8b7c6d:r:plain text
	// 1c2d3e4f:p:Hello?
	// Two, as 1+1 shows.
}

// A host declares its own attributes: Solveit keeps int flags that the
// notebook schema stores as booleans, and a bookmark number.
func ExampleDescriptor() {
	descs := []convert.Descriptor{
		convert.Flag("pinned", "pinned"),
		convert.Flag("skipped", "skipped"),
		{Attr: "bookmark", Key: "bookmark"},
	}
	data, err := os.ReadFile(filepath.Join("..", "testdata", "dialog.ipynb"))
	if err != nil {
		log.Fatal(err)
	}
	d, err := convert.Unmarshal(data, convert.ReadOptions{Descriptors: descs})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range d.Messages[2:] {
		fmt.Println(m.ID, m.Kind, m.Attrs, m.Meta)
	}
	// Declaring a key twice is an error.
	_, err = convert.Unmarshal(data, convert.ReadOptions{Descriptors: append(descs, convert.Descriptor{Attr: "pin", Key: "pinned"})})
	fmt.Println(err)
	// Output:
	// 5f1e2d3c prompt map[pinned:1] map[]
	// 9a8b7c6d raw map[] map[]
	// 1c2d3e4f prompt map[skipped:1] map[time_run:2026-01-21T22:59:53.705486+00:00]
	// convert: descriptor pin ↔ pinned: key "pinned" is already registered (as pinned ↔ pinned)
}

// Write a new dialog to a file: a File built from the dialog alone is a
// new notebook.
func ExampleWriteFile() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	d := &dialog.Dialog{Name: "notes"}
	d.Random = rand.NewChaCha8([32]byte{1})
	d.Add(dialog.Note, "# Notes")
	f := &convert.File{Dialog: d}
	if err := convert.WriteFile(f, filepath.Join(dir, "notes.ipynb"), convert.WriteOptions{}); err != nil {
		log.Fatal(err)
	}
	out, err := os.ReadFile(filepath.Join(dir, "notes.ipynb"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out))
	// Output:
	// {
	//  "cells": [
	//   {
	//    "cell_type": "markdown",
	//    "id": "6ae6783f",
	//    "metadata": {},
	//    "source": [
	//     "# Notes"
	//    ]
	//   }
	//  ],
	//  "metadata": {},
	//  "nbformat": 4,
	//  "nbformat_minor": 5
	// }
}

// Solveit's attributes, opted into: int flags in memory, booleans in the
// file. The dialog keeps the registry, so a plain Save writes it back.
func ExampleSolveit() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	data, err := os.ReadFile(filepath.Join("..", "testdata", "dialog.ipynb"))
	if err != nil {
		log.Fatal(err)
	}
	path := filepath.Join(dir, "dialog.ipynb")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		log.Fatal(err)
	}

	d, err := convert.ReadFile(path, convert.ReadOptions{Descriptors: convert.Solveit()})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range d.Messages {
		if len(m.Attrs) > 0 {
			fmt.Println(m.ID, m.Attrs)
		}
	}
	m, err := d.Get("1c2d")
	if err != nil {
		log.Fatal(err)
	}
	m.Attrs["skipped"] = 0 // unskip: the key leaves the file
	if _, err := d.Make(dialog.Note, "Checked.", dialog.MakeOptions{After: m.ID, ID: "0c0ffee0", Attrs: map[string]any{"o_collapsed": 1}}); err != nil {
		log.Fatal(err)
	}
	if err := d.Save(convert.SaveOptions{}); err != nil { // Solveit's registry, carried
		log.Fatal(err)
	}
	out, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.Count(string(out), `"skipped"`), strings.Count(string(out), `"collapsed": true`))
	// Output:
	// 5f1e2d3c map[pinned:1]
	// 1c2d3e4f map[skipped:1]
	// 0 1
}

// Some messages of a dialog, written into a folder that does not exist
// yet, in one call (the seed's dlg.write(dir, msgs=…)).
func ExampleWriteFile_folders() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	d := &dialog.Dialog{Name: "picked"}
	if _, err := d.Make(dialog.Note, "# Notes", dialog.MakeOptions{ID: "a1b2c3d4"}); err != nil {
		log.Fatal(err)
	}
	q, err := d.Make(dialog.Prompt, "Why?", dialog.MakeOptions{Reply: "Because.", ID: "e5f60718"})
	if err != nil {
		log.Fatal(err)
	}
	pick := convert.WriteOptions{Messages: []*dialog.Message{q}}
	if err := convert.WriteFile(&convert.File{Dialog: d}, filepath.Join(dir, "out", "today", "picked.ipynb"), pick); err != nil {
		log.Fatal(err)
	}
	back, err := convert.ReadFile(filepath.Join(dir, "out", "today", "picked"), convert.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(back.Summary(120, 20))
	// Output:
	// picked
	// e5f60718:p:Why? ⇒ reply(8)
	// > Because.
}

// WriteOptions.Messages writes some messages of a dialog, in the order
// given, with its notebook metadata (the seed's get_ipynb(dlg, msgs=…)),
// through Marshal, ToNotebook and WriteFile; an empty, non-nil list writes
// no cells.
func ExampleWriteOptions_messages() {
	d := &convert.File{Dialog: &dialog.Dialog{Name: "picked"}}
	if _, err := d.Make(dialog.Note, "# Notes", dialog.MakeOptions{ID: "a1b2c3d4"}); err != nil {
		log.Fatal(err)
	}
	q, err := d.Make(dialog.Prompt, "Why?", dialog.MakeOptions{Reply: "Because.", ID: "e5f60718"})
	if err != nil {
		log.Fatal(err)
	}
	data, err := convert.Marshal(d, convert.WriteOptions{Messages: []*dialog.Message{q}})
	if err != nil {
		log.Fatal(err)
	}
	back, err := convert.Unmarshal(data, convert.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(back.Summary(40, 0))
	nb, err := convert.ToNotebook(d, convert.WriteOptions{Messages: []*dialog.Message{}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(nb.Cells), "cells")
	// Output:
	// e5f60718:p:Why? ⇒ reply(8)
	// > Because.
	// 0 cells
}

// Merge two edited copies of a notebook, as git's merge driver would: the
// result is written in ours' style, and a cell both sides changed on the
// same line holds both versions between markers.
func ExampleMerge() {
	base, err := os.ReadFile(filepath.Join("..", "testdata", "dialog.ipynb"))
	if err != nil {
		log.Fatal(err)
	}
	edit := func(f func(d *dialog.Dialog)) []byte {
		d, err := convert.Unmarshal(base, convert.ReadOptions{})
		if err != nil {
			log.Fatal(err)
		}
		f(d.Dialog)
		out, err := convert.Marshal(d, convert.WriteOptions{})
		if err != nil {
			log.Fatal(err)
		}
		return out
	}
	ours := edit(func(d *dialog.Dialog) { d.Messages[0].Content = "A *merged* dialog" })
	theirs := edit(func(d *dialog.Dialog) {
		d.Messages[1].Content = "1+2"
		d.Messages[3].Content = "their text"
	})
	merged, conflicts, err := convert.Merge(base, ours, theirs, dialog.MergeOptions{})
	if err != nil {
		log.Fatal(err)
	}
	d, err := convert.Unmarshal(merged, convert.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(d.Summary(40, 0))
	fmt.Println(len(conflicts) == 0)

	mine := edit(func(d *dialog.Dialog) { d.Messages[3].Content = "my text" })
	if merged, conflicts, err = convert.Merge(base, mine, theirs, dialog.MergeOptions{}); err != nil {
		log.Fatal(err)
	}
	if d, err = convert.Unmarshal(merged, convert.ReadOptions{}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(conflicts[0])
	fmt.Print(d.Messages[3].Content)
	// Output:
	// a54dca18:n:A *merged* dialog
	// 0b9c3d7e:c:1+2 ⇒ out(94 B)
	// 5f1e2d3c:p:Add them. ⇒ reply(20)
	// > The answer is **2**.
	// 9a8b7c6d:r:their text
	// 1c2d3e4f:p:Hello?
	// true
	// message 9a8b7c6d: content
	// <<<<<<< ours
	// my text
	// =======
	// their text
	// >>>>>>> theirs
}

package convert_test

// An example of Save refusing to overwrite a file changed on disk since it was
// read.

import (
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// A File remembers what it was read from: Save refuses to overwrite a file
// that changed on disk since (ErrChanged), unless SaveOptions say
// otherwise.
func ExampleSaveOptions() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "notes.ipynb")

	// A new notebook: a File made from a dialog alone.
	d := &dialog.Dialog{Name: "notes"}
	d.Random = rand.NewChaCha8([32]byte{1})
	d.Add(dialog.Note, "# Notes")
	if err := convert.WriteFile(&convert.File{Dialog: d}, path, convert.WriteOptions{}); err != nil {
		log.Fatal(err)
	}

	f, err := convert.ReadFile(path, convert.ReadOptions{Name: "mine"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(f.Name, filepath.Base(f.Path), len(f.Messages))

	// Someone else writes the file meanwhile.
	if err := os.WriteFile(path, []byte(`{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`), 0o644); err != nil {
		log.Fatal(err)
	}
	f.Add(dialog.Note, "mine")
	err = f.Save(convert.SaveOptions{})
	fmt.Println(errors.Is(err, convert.ErrChanged))

	// Forced, the dialog replaces the file.
	if err := f.Save(convert.SaveOptions{Force: true}); err != nil {
		log.Fatal(err)
	}
	back, err := convert.ReadFile(path, convert.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(back.Messages), back.Messages[1].Content)
	// Output:
	// mine notes.ipynb 1
	// true
	// 2 mine
}

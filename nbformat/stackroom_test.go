package nbformat_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/stackroom"
	"github.com/nbdialog/ipynb/nbformat"
)

// TestEntryPointsMakeStackRoom: each entry point grows the stack, while it
// is shallow, to the room the work on a notebook needs
// (stackroom.Notebook), rather than letting the work grow it at its
// deepest point (a growth copies and adjusts every frame then on the
// stack). Run on a small notebook (whose work alone needs little stack)
// from a goroutine whose stack is at its least, each leaves that room
// behind; without the call, the stack grows only as far as the small
// notebook needs.
func TestEntryPointsMakeStackRoom(t *testing.T) {
	data := []byte(`{"cells": [{"cell_type": "markdown", "id": "a", "metadata": {}, "source": ["hi"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	path := filepath.Join(t.TempDir(), "small.ipynb")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	read := func() *nbformat.Notebook {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		return nb
	}
	// The notebooks are read beforehand (reading would make the room), and
	// the schema compiled (compiling goes deep).
	forValidate, forMarshal, forMarshalTo, forHeal := read(), read(), read(), read()
	if err := nbformat.Validate(read()); err != nil {
		t.Fatal(err)
	}
	// The room below the entry point's caller, less the frames of the
	// closure and of the entry point above the room it makes.
	room := stackroom.Notebook - 2<<10
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"Unmarshal", func() { _, _ = nbformat.Unmarshal(data) }},
		{"Read", func() { _, _ = nbformat.UnmarshalOptions{}.Read(bytes.NewReader(data)) }},
		{"ReadFile", func() { _, _ = nbformat.ReadFile(path) }},
		{"Validate", func() { _ = nbformat.Validate(forValidate) }},
		{"Marshal", func() { _, _ = nbformat.Marshal(forMarshal) }},
		{"MarshalTo", func() { _ = nbformat.MarshalOptions{}.MarshalTo(io.Discard, forMarshalTo) }},
		{"Heal", func() { _, _ = nbformat.Heal(forHeal) }},
	} {
		if !nbtest.StackRoomAfter(t, room, c.f) {
			t.Errorf("%s left less than %d bytes of stack: it did not make room while the stack was shallow (stackroom.Ensure)", c.name, room)
		}
	}
}

package convert_test

import (
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/stackroom"
)

// TestEntryPointsMakeStackRoom: Unmarshal (through nbformat.Unmarshal) and
// Marshal grow the stack, while it is shallow, to the room the work on a
// notebook needs, rather than letting the work grow it at its deepest
// point; see the test of the same name in package nbformat.
func TestEntryPointsMakeStackRoom(t *testing.T) {
	data := []byte(`{"cells": [{"cell_type": "markdown", "id": "a", "metadata": {}, "source": ["hi"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	// Read beforehand (reading makes the room), and written once (the
	// first validation compiles the schema, which goes deep).
	d, err := convert.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := convert.Marshal(d); err != nil {
		t.Fatal(err)
	}
	room := stackroom.Notebook - 2<<10
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"Unmarshal", func() { _, _ = convert.Unmarshal(data) }},
		{"Marshal", func() { _, _ = convert.Marshal(d) }},
	} {
		if !nbtest.StackRoomAfter(t, room, c.f) {
			t.Errorf("%s left less than %d bytes of stack: it did not make room while the stack was shallow (stackroom.Ensure)", c.name, room)
		}
	}
}

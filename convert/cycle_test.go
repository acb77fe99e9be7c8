package convert_test

// Tests that Marshal refuses a dialog holding a value that contains itself,
// with nbformat's cycle error naming the place.

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// A dialog holding a value that contains itself (in a message's or the
// notebook's metadata, in an output made in memory, nested in slices) is
// refused by convert.Marshal with nbformat's cycle error, whose pointer
// names the place in the value converted (the message's metadata, the
// notebook's, the output), as encoding/json refuses such values; making
// the output (dialog.NewOutput copies it) does not overflow the stack.
func TestMarshalCyclicValues(t *testing.T) {
	t.Parallel()
	self := func() map[string]any {
		m := map[string]any{"a": 1.0}
		m["self"] = m
		return m
	}
	nested := func() []any {
		inner := []any{2.0, nil}
		s := []any{1.0, inner}
		inner[1] = s
		return s
	}
	cases := []struct {
		name  string
		store func(d *dialog.Dialog, m *dialog.Message)
		ptr   string
		where string // in the message, as well as the pointer
	}{
		{"message metadata", func(d *dialog.Dialog, m *dialog.Message) { m.Meta = map[string]any{"c": self()} }, "/c/self", ": metadata: "},
		{"notebook metadata", func(d *dialog.Dialog, m *dialog.Message) { d.Meta = map[string]any{"c": self()} }, "/c/self", "convert: notebook metadata: "},
		{"nested slices", func(d *dialog.Dialog, m *dialog.Message) { m.Meta = map[string]any{"s": nested()} }, "/s/1/1", ": metadata: "},
		{"output", func(d *dialog.Dialog, m *dialog.Message) {
			o := map[string]any{"output_type": "display_data", "data": map[string]any{"text/plain": "x"}, "metadata": map[string]any{"c": self()}}
			m.Outputs = []dialog.Output{dialog.NewOutput(o)}
		}, "/metadata/c/self", ": output 0: "},
		{"output data", func(d *dialog.Dialog, m *dialog.Message) {
			o := map[string]any{"output_type": "display_data", "data": map[string]any{"application/json": nested()}, "metadata": map[string]any{}}
			m.Outputs = []dialog.Output{dialog.NewOutput(o)}
		}, "/data/application~1json/1/1", ": output 0: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := &convert.File{Dialog: &dialog.Dialog{Name: "d"}}
			m, err := d.Make(dialog.Code, "x = 1", dialog.MakeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			c.store(d.Dialog, m)
			_, err = convert.Marshal(d, convert.WriteOptions{})
			var fe *nbformat.FormatError
			if !errors.As(err, new(*json.UnsupportedValueError)) || !errors.As(err, &fe) || string(fe.Pointer) != c.ptr || !strings.Contains(err.Error(), c.where+"nbformat: "+c.ptr+": cannot write a ") {
				t.Errorf("%v (pointer %q), want the cycle at %s", err, pointerOf(fe), c.ptr)
			}
		})
	}
}

func pointerOf(fe *nbformat.FormatError) nbformat.Pointer {
	if fe == nil {
		return ""
	}
	return fe.Pointer
}

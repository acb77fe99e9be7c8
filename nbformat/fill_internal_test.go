package nbformat

import (
	"testing"
)

// Heal's repair of a missing required member is an explicit step that
// names the place: the struct lacking the member is recorded (fillMissing)
// and only it gains the member when written; the document and the other
// structs read from the file keep being compared member by member.
func TestHealFillsOnlyThePlacesLackingMembers(t *testing.T) {
	t.Parallel()
	in := `{
 "cells": [
  {
   "cell_type": "markdown",
   "id": "a",
   "metadata": {},
   "source": "x"
  }
 ],
 "metadata": {
  "kernelspec": {
   "name": "python3"
  },
  "language_info": {
   "name": "python"
  }
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
`
	// The file with the member added at its sorted place, as Python
	// nbformat's writer (sorted keys, indent 1) would place it.
	want := `{
 "cells": [
  {
   "cell_type": "markdown",
   "id": "a",
   "metadata": {},
   "source": "x"
  }
 ],
 "metadata": {
  "kernelspec": {
   "display_name": "",
   "name": "python3"
  },
  "language_info": {
   "name": "python"
  }
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
`
	nb, err := Unmarshal([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if nb.filled != nil {
		t.Fatalf("Unmarshal recorded places to fill: %v", nb.filled)
	}
	if _, err := Heal(nb); err != nil {
		t.Fatal(err)
	}
	if err := Validate(nb); err != nil {
		t.Fatalf("healed notebook invalid: %v", err)
	}
	ks := nb.Metadata.Kernelspec
	if len(nb.filled) != 1 || !nb.filled[ks] {
		t.Errorf("filled = %v, want only the kernelspec (%p)", nb.filled, ks)
	}
	if nb.filled[&nb.Document] || nb.filled[nb.Metadata.LanguageInfo] {
		t.Error("a struct that lacks no member was recorded")
	}
	out, err := Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != want {
		t.Errorf("Marshal after Heal:\n%s\nwant:\n%s", out, want)
	}
}

// structAt finds the struct a problem's pointer names, through cells,
// outputs and pointers, and the nearest struct above a place that is not
// one; a place outside the typed values is not found.
func TestStructAt(t *testing.T) {
	t.Parallel()
	nb, err := Unmarshal([]byte(`{"cells": [{"cell_type": "code", "id": "c", "metadata": {"jupyter": {}}, "source": "", "execution_count": 1,
 "outputs": [{"output_type": "stream", "name": "stdout", "text": "hi"}]}],
 "metadata": {"kernelspec": {"name": "k", "display_name": "K"}, "x": {"y": 1}}, "nbformat": 4, "nbformat_minor": 5}`))
	if err != nil {
		t.Fatal(err)
	}
	code := nb.Cells[0].(*CodeCell)
	for _, c := range []struct {
		p    Pointer
		want codecStruct // nil: not found
	}{
		{"", &nb.Document},
		{"/metadata", &nb.Metadata},
		{"/metadata/kernelspec", nb.Metadata.Kernelspec},
		{"/metadata/kernelspec/name", nb.Metadata.Kernelspec},
		{"/metadata/x/y", &nb.Metadata},
		{"/cells/0", code},
		{"/cells/0/metadata/jupyter", code.Metadata.Jupyter},
		{"/cells/0/outputs/0", code.Outputs[0].(*Stream)},
		{"/cells/0/outputs/0/text", code.Outputs[0].(*Stream)},
		{"/cells/1", nil},
		{"/cells/0/outputs/7", nil},
		{"/cells/x", nil},
	} {
		got, ok := structAt(&nb.Document, c.p)
		if !ok {
			got = nil
		}
		if got != c.want {
			t.Errorf("structAt(%q) = %p, want %p", c.p, got, c.want)
		}
	}
}

package nbformat

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// textLines keeps its pieces, textString one string.
func TestTextForms(t *testing.T) {
	t.Parallel()
	l := textLines("x", "y\n", "z")
	if l.String() != "xy\nz" {
		t.Errorf("textLines: %q", l.String())
	}
	if diff := cmp.Diff([]string{"x", "y\n", "z"}, l.Lines()); diff != "" {
		t.Error(diff)
	}
	s := textString("one\ntwo")
	if diff := cmp.Diff([]string{"one\ntwo"}, s.Lines()); diff != "" {
		t.Error(diff)
	}
}

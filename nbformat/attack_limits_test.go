package nbformat_test

import (
	"errors"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// TestAttackLimitsExact reads notebooks at and one past the documented
// limits: at the limit they read, one past fails.
func TestAttackLimitsExact(t *testing.T) {
	t.Parallel()
	opts := nbformat.UnmarshalOptions{MaxCells: 3}
	if _, err := opts.Unmarshal([]byte(attackNB)); err != nil {
		t.Errorf("3 cells with MaxCells 3: %v", err)
	}
	opts.MaxCells = 2
	if _, err := opts.Unmarshal([]byte(attackNB)); err == nil {
		t.Errorf("3 cells with MaxCells 2: read")
	}
	// attackNB's deepest value: cells[0].metadata.deep.k[2] object holds "z": 6 levels
	// (root, cells, cell, metadata, deep, k, {z}) = 7 containers.
	for _, d := range []struct {
		max int
		ok  bool
	}{{7, true}, {6, false}} {
		_, err := nbformat.UnmarshalOptions{MaxDepth: d.max}.Unmarshal([]byte(attackNB))
		if (err == nil) != d.ok {
			t.Errorf("MaxDepth %d: err %v, want ok=%v", d.max, err, d.ok)
		}
	}
}

// panicSite returns the innermost frame of package nbformat on the
// panicking goroutine's stack.
func panicSite() string {
	for _, line := range strings.Split(string(debug.Stack()), "\n") {
		if strings.Contains(line, "/nbformat/") && !strings.Contains(line, "_test.go") {
			return strings.TrimSpace(line)
		}
	}
	return "?"
}

// TestAttackForeignCells moves cells and outputs of one notebook into
// another read from different bytes (same ids, other values): Marshal
// must write the values the receiving notebook now holds, as encoding/json
// reads them back.
func TestAttackForeignCells(t *testing.T) {
	t.Parallel()
	other := strings.NewReplacer(`"x = 1\n"`, `"x = 100\n"`, `"one\n"`, `"uno\n"`, `"# Title\n"`, `"# Other\n"`,
		`print(\"\u00e9\\t\")`, `print(2)`, `"execution_count": 4,`, `"execution_count": 44,`).Replace(attackNB)
	for i := range 3 {
		for j := range 3 {
			a, b := mustRead(t, []byte(other)), mustRead(t, []byte(attackNB))
			b.Cells[i] = a.Cells[j]
			if msg := sameAsRef(t, b, mustMarshal(t, b)); msg != "" {
				t.Errorf("cell %d of the other notebook put at %d: %s", j, i, msg)
			}
		}
	}
	a, b := mustRead(t, []byte(other)), mustRead(t, []byte(attackNB))
	ac, bc := a.Cells[0].(*nbformat.CodeCell), b.Cells[0].(*nbformat.CodeCell)
	bc.Outputs[0] = ac.Outputs[0]
	if msg := sameAsRef(t, b, mustMarshal(t, b)); msg != "" {
		t.Errorf("an output of the other notebook: %s", msg)
	}
	b = mustRead(t, []byte(attackNB))
	b.Cells[0].(*nbformat.CodeCell).Outputs = ac.Outputs
	if msg := sameAsRef(t, b, mustMarshal(t, b)); msg != "" {
		t.Errorf("the outputs of the other notebook: %s", msg)
	}
	b = mustRead(t, []byte(attackNB))
	b.Cells = a.Cells
	if msg := sameAsRef(t, b, mustMarshal(t, b)); msg != "" {
		t.Errorf("all the cells of the other notebook: %s", msg)
	}
	b = mustRead(t, []byte(attackNB))
	b.Document = a.Document
	if msg := sameAsRef(t, b, mustMarshal(t, b)); msg != "" {
		t.Errorf("the other notebook's Document: %s", msg)
	}
}

// TestNilVariantNamed: a nil cell or output (nil, or a typed nil pointer)
// makes Marshal, Heal and Upgrade fail with a *FormatError whose pointer
// names it, and leaves the notebook as it was.
func TestNilVariantNamed(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		edit func(nb *nbformat.Notebook)
		ptr  nbformat.Pointer
	}{
		"nil-cell":       {func(nb *nbformat.Notebook) { nb.Cells[1] = nil }, "/cells/1"},
		"typed-nil-cell": {func(nb *nbformat.Notebook) { nb.Cells[2] = (*nbformat.RawCell)(nil) }, "/cells/2"},
		"typed-nil-output": {func(nb *nbformat.Notebook) {
			nb.Cells[0].(*nbformat.CodeCell).Outputs[1] = (*nbformat.ExecuteResult)(nil)
		}, "/cells/0/outputs/1"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			nb := mustRead(t, []byte(attackNB))
			c.edit(nb)
			check := func(what string, err error) {
				var fe *nbformat.FormatError
				if !errors.As(err, &fe) || fe.Pointer != c.ptr {
					t.Errorf("%s: %v, want a FormatError at %s", what, err, c.ptr)
				}
			}
			_, err := nbformat.Marshal(nb)
			check("Marshal", err)
			_, err = nbformat.Heal(nb)
			check("Heal", err)
			check("Upgrade", nbformat.Upgrade(nb))
			check("Validate", nbformat.Validate(nb))
		})
	}
}

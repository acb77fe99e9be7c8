package nbformat

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/internal/nbvalid"
)

// The bytes a notebook was read from are validated once: Validate again,
// and Heal's first pass, reuse the problems found (each caller getting its
// own copies); an edit validates what Marshal writes instead.
func TestValidateOnceForTheBytesRead(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "invalid.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	nb, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	runs := nbvalid.SchemaRuns.Load()
	first := Problems(Validate(nb))
	if len(first) == 0 {
		t.Fatal("testdata/invalid.ipynb validates")
	}
	if got := nbvalid.SchemaRuns.Load() - runs; got != 1 {
		t.Fatalf("first Validate: %d schema validations, want 1", got)
	}
	// What a caller does to the problems it got stays its own.
	want := make([]ValidationError, len(first))
	for i, p := range first {
		want[i] = *p
		p.Line, p.Msg = -1, "changed by the caller"
	}
	second := Problems(Validate(nb))
	if got := nbvalid.SchemaRuns.Load() - runs; got != 1 {
		t.Errorf("second Validate of the unedited notebook: %d schema validations in all, want 1", got)
	}
	if len(second) != len(want) {
		t.Fatalf("second Validate: %d problems, first %d", len(second), len(want))
	}
	for i, p := range second {
		if p == first[i] || !cmp.Equal(*p, want[i], everyField) {
			t.Errorf("second Validate, problem %d: %+v, first: %+v (-first +second):\n%s", i, *p, want[i], cmp.Diff(want[i], *p, everyField))
		}
	}
	// Heal's first pass reuses them too; its later passes validate what
	// it wrote.
	if _, err := Heal(nb); err != nil {
		t.Fatal(err)
	}
	healRuns := nbvalid.SchemaRuns.Load() - runs - 1
	if healRuns < 1 {
		t.Errorf("Heal validated its repairs %d times", healRuns)
	}
	fresh, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	before := nbvalid.SchemaRuns.Load()
	if _, err := Heal(fresh); err != nil {
		t.Fatal(err)
	}
	if got := nbvalid.SchemaRuns.Load() - before; got != healRuns+1 {
		t.Errorf("Heal after Validate: %d schema validations; Heal alone: %d (want one more)", healRuns, got)
	}
	// An edit is validated as written.
	edited, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(edited); err == nil {
		t.Fatal("no problems")
	}
	edited.Cells = edited.Cells[:0]
	before = nbvalid.SchemaRuns.Load()
	err = Validate(edited)
	if got := nbvalid.SchemaRuns.Load() - before; got != 1 {
		t.Errorf("Validate after an edit: %d schema validations, want 1", got)
	}
	if n := len(Problems(err)); n >= len(want) {
		t.Errorf("Validate after removing the cells: %d problems, as many as before (%d)", n, len(want))
	}
}

// Goroutines validating a notebook just read at once (run with -race) all
// get the problems one alone gets.
func TestValidateOnceConcurrently(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "invalid.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	alone, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	want := Validate(alone).Error()
	nb, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]string, 8)
	done := make(chan int)
	for i := range got {
		go func() {
			got[i] = Validate(nb).Error()
			done <- i
		}()
	}
	for range got {
		<-done
	}
	for i, g := range got {
		if g != want {
			t.Errorf("goroutine %d: %s\nalone: %s", i, g, want)
		}
	}
}

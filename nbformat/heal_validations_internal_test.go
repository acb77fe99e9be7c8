package nbformat

import (
	"testing"

	"github.com/nbdialog/ipynb/internal/nbvalid"
)

// keptIDsNotebook is an nbformat 4.minor notebook whose cells carry ids
// (as Colab writes 4.0), one of them invalid, and a code cell with an
// execution count that is a string: Heal raises it to 4.5 to keep the
// ids, then repairs the rest.
func keptIDsNotebook(minor int) []byte {
	return []byte(`{"cells": [
  {"cell_type": "markdown", "id": "a1", "metadata": {}, "source": ["# t"]},
  {"cell_type": "code", "id": "b2", "execution_count": "3", "metadata": {}, "outputs": [], "source": ["x"]},
  {"cell_type": "code", "id": "bad id", "execution_count": null, "metadata": {}, "outputs": [], "source": ["y"]}
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": ` + string(rune('0'+minor)) + `
}
`)
}

// When Heal raises nbformat_minor to keep cell ids, it has just written
// and validated the raised notebook to see that nothing else breaks; its
// first pass repairs what that found rather than writing and validating
// the same notebook again. So healing the notebook, once Validate has
// checked the bytes read, costs one schema validation more than healing
// the same notebook written as 4.5 (the raise tried): before, three more
// (the bytes read validated again, the raise tried, the first pass
// validating the raised notebook again). Repairs and bytes are those of
// Heal without Validate first.
func TestHealRaisingMinorValidatesOnce(t *testing.T) {
	for _, minor := range []int{0, 4} {
		data := keptIDsNotebook(minor)
		nb, err := Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		if Validate(nb) == nil {
			t.Fatalf("4.%d: valid", minor)
		}
		as45, err := Unmarshal(keptIDsNotebook(5))
		if err != nil {
			t.Fatal(err)
		}
		if Validate(as45) == nil {
			t.Fatal("4.5: valid")
		}
		before := nbvalid.SchemaRuns.Load()
		if _, err := Heal(as45); err != nil {
			t.Fatal(err)
		}
		runs45 := nbvalid.SchemaRuns.Load() - before
		before = nbvalid.SchemaRuns.Load()
		repairs, err := Heal(nb)
		if err != nil {
			t.Fatal(err)
		}
		runs := nbvalid.SchemaRuns.Load() - before
		if len(repairs) == 0 || repairs[0].Pointer != "/nbformat_minor" || nb.NbformatMinor != 5 {
			t.Fatalf("4.%d: not raised to 4.5: %v", minor, repairs)
		}
		if len(repairs) < 3 {
			t.Fatalf("4.%d: repairs %v: the count and the id expected too", minor, repairs)
		}
		if err := Validate(nb); err != nil {
			t.Fatalf("4.%d: healed invalid: %v", minor, err)
		}
		if runs != runs45+1 {
			t.Errorf("4.%d: Heal made %d schema validations, %d for the notebook as 4.5: want one more (the raise tried)", minor, runs, runs45)
		}
		// Heal alone, without Validate first, gives the same.
		fresh, err := Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Heal(fresh)
		if err != nil {
			t.Fatal(err)
		}
		if len(again) != len(repairs) {
			t.Fatalf("4.%d: %d repairs, %d after Validate", minor, len(again), len(repairs))
		}
		for i := range again {
			if again[i] != repairs[i] {
				t.Errorf("4.%d: repair %d: %v, after Validate %v", minor, i, again[i], repairs[i])
			}
		}
		a, err1 := Marshal(nb)
		b, err2 := Marshal(fresh)
		if err1 != nil || err2 != nil || string(a) != string(b) {
			t.Errorf("4.%d: healed bytes differ (%v, %v)", minor, err1, err2)
		}
	}
}

// Heal repairs, in its first pass, the problems found on the tape the
// notebook was read into: when that tape leaves values unparsed (output
// data, metadata), it parses them for the repairs but does not validate
// the notebook a second time (the schemas read nothing inside them). A
// notebook one pass repairs then costs Heal, after Validate, a single
// schema validation (of what it wrote); it cost two. The one repair is
// the execution count's. (Not parallel: the count of validations is the
// package's, which parallel tests would add to.)
func TestHealValidatesEachPassOnce(t *testing.T) {
	data := []byte(`{"cells": [
  {"cell_type": "code", "execution_count": "7", "id": "c1", "metadata": {"tags": ["a"]}, "outputs": [
    {"output_type": "display_data", "data": {"text/html": ["<b>x</b>"], "image/png": "iVBORw0KGgo="}, "metadata": {"image/png": {"width": 3}}},
    {"output_type": "stream", "name": "stdout", "text": ["hi\n"]}
   ], "source": ["x"]}
 ],
 "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
`)
	nb, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if !nb.src.tape.HasLazy() {
		t.Fatal("the tape read has no lazy value: the test needs one")
	}
	if Validate(nb) == nil {
		t.Fatal("valid")
	}
	before := nbvalid.SchemaRuns.Load()
	repairs, err := Heal(nb)
	if err != nil {
		t.Fatal(err)
	}
	if got := nbvalid.SchemaRuns.Load() - before; got != 1 {
		t.Errorf("Heal made %d schema validations after Validate, want 1", got)
	}
	if len(repairs) != 1 || repairs[0].Pointer != "/cells/0/execution_count" {
		t.Errorf("repairs %v, want the execution count's", repairs)
	}
	if err := Validate(nb); err != nil {
		t.Error(err)
	}
}

package nbformat_test

// Tests of Heal's repairs: convergence, determinism, content kept, Colab's ids,
// structured causes and valid cell ids.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// nb45 wraps cells in an nbformat 4.5 notebook.
func nb45(cells string) string {
	return `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [` + cells + `]}`
}

// many returns n members `"<prefix>i": value(i)`, comma-separated.
func many(n int, prefix string, value func(i int) string) string {
	var parts []string
	for i := 0; i < n; i++ {
		parts = append(parts, fmt.Sprintf(`"%s%d": %s`, prefix, i, value(i)))
	}
	return strings.Join(parts, ", ")
}

// checkHealed heals in and checks the contract: no error, valid, a second
// heal changes nothing, content kept. It returns the healed bytes.
func checkHealed(t *testing.T, in string) []byte {
	t.Helper()
	out := healBytes(t, []byte(in))
	nb, err := nbformat.Unmarshal(out)
	if err != nil {
		t.Fatal(err)
	}
	repairs, err := healWith(nb, counterIDs())
	if err != nil || len(repairs) > 0 {
		t.Errorf("second heal: %v %v", repairs, err)
	}
	if again, _ := nbformat.Marshal(nb); !bytes.Equal(again, out) {
		t.Errorf("second heal changed the bytes %s", firstDiff(out, again))
	}
	missing, err := missingContent([]byte(in), out)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		t.Errorf("content lost: %q\nhealed: %.600s", missing, out)
	}
	return out
}

// Heal converges however many problems one place has (it used to make one
// repair per place per pass, for five passes).
func TestHealConvergesManyProblems(t *testing.T) {
	t.Parallel()
	num := func(i int) string { return fmt.Sprint(i) }
	for _, n := range []int{6, 7, 40} {
		for name, in := range map[string]string{
			"stray output members": nb45(`{"cell_type": "code", "id": "a", "metadata": {}, "source": "", "execution_count": null, "outputs": [{"output_type": "stream", "name": "stdout", "text": "t", ` + many(n, "k", num) + `}]}`),
			"output MIME entries":  nb45(`{"cell_type": "code", "id": "a", "metadata": {}, "source": "", "execution_count": null, "outputs": [{"output_type": "display_data", "metadata": {}, "data": {` + many(n, "text/x", num) + `}}]}`),
			"attachment entries":   nb45(`{"cell_type": "markdown", "id": "a", "metadata": {}, "source": "", "attachments": {"a.png": {` + many(n, "image/x", num) + `}}}`),
			"attachments":          nb45(`{"cell_type": "markdown", "id": "a", "metadata": {}, "source": "", "attachments": {` + many(n, "a", func(i int) string { return `{"image/png": ` + num(i) + `}` }) + `}}`),
			"cell members":         nb45(`{"cell_type": "raw", "id": "a", "metadata": {"tags": 5, "name": "", "jupyter": 3}, "source": 7, ` + many(n, "k", num) + `}`),
			"mixed":                nb45(`{"cell_type": "code", "id": "a", "metadata": {}, "source": "", "execution_count": "x", "outputs": [{"output_type": "weird", "data": {` + many(n, "text/x", num) + `}, ` + many(n, "k", num) + `}]}, {"cell_type": "code", "id": "a", "source": 1}`),
		} {
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) { checkHealed(t, in) })
		}
	}
}

// Heal's output depends only on its input: an unknown output with several
// MIME entries in an unsorted file, attachments, ids (50 runs).
func TestHealDeterministic(t *testing.T) {
	t.Parallel()
	in := `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [` +
		`{"source": "", "cell_type": "code", "metadata": {}, "outputs": [{"output_type": "result", "data": {"text/plain": "p", "text/html": 1, "image/png": "AA", "application/json": {"b": 1, "a": 2}, "text/markdown": ["x", 2]}, "metadata": {}}], "execution_count": 1},` +
		`{"source": "", "cell_type": "markdown", "metadata": {}, "attachments": {"z.png": {"image/png": 1, "text/plain": 2}, "a.png": {"image/png": ["A", "B"]}, "m.png": 5}},` +
		`{"source": "", "cell_type": "Code", "metadata": {"z": 1, "a": 2}, "outputs": [], "execution_count": 2, "zz": 1, "aa": 2}]}`
	first := checkHealed(t, in)
	for i := 0; i < 50; i++ {
		if out := healBytes(t, []byte(in)); !bytes.Equal(out, first) {
			t.Fatalf("run %d gave other bytes %s", i, firstDiff(first, out))
		}
	}
}

// Content that has a valid place is kept (issue 9 item 7).
func TestHealKeepsContent(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, in string
		want     []string // fragments of the healed notebook
	}{
		{"attachment line lists", nb45(`{"cell_type": "markdown", "id": "m", "metadata": {}, "source": "", "attachments": {"a.png": {"image/png": ["iVBO", "AAAA"]}, "b.png": 5}}`),
			[]string{`"a.png": {`, `"iVBO"`, `"AAAA"`}},
		{"non-string text/plain", nb45(`{"cell_type": "code", "id": "c", "metadata": {}, "source": "", "execution_count": 1, "outputs": [{"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": {"text/plain": 42}}]}`),
			[]string{`"text/plain": [`, `"42"`}},
		{"traceback string", nb45(`{"cell_type": "code", "id": "c", "metadata": {}, "source": "", "execution_count": 1, "outputs": [{"output_type": "error", "ename": "E", "evalue": "v", "traceback": "Traceback (most recent call last)\nboom"}]}`),
			[]string{`"traceback": [`, `"Traceback (most recent call last)\nboom"`}},
		{"cell type Code", nb45(`{"cell_type": "Code", "id": "c", "metadata": {}, "source": "x = 1", "execution_count": 7, "outputs": [{"output_type": "stream", "name": "stdout", "text": "out"}]}`),
			[]string{`"cell_type": "code"`, `"execution_count": 7`, `"text": "out"`, `"x = 1"`}},
		{"cell type MARKDOWN", nb45(`{"cell_type": " MARKDOWN", "id": "c", "metadata": {}, "source": "# Title"}`),
			[]string{`"cell_type": "markdown"`, `"# Title"`}},
		{"unknown cell with outputs", nb45(`{"cell_type": "kode", "id": "c", "metadata": {}, "source": "y", "execution_count": 3, "outputs": []}`),
			[]string{`"cell_type": "code"`, `"execution_count": 3`}},
		{"unknown output with count", nb45(`{"cell_type": "code", "id": "c", "metadata": {}, "source": "", "execution_count": 4, "outputs": [{"output_type": "result", "execution_count": 4, "metadata": {}, "data": {"text/plain": "4"}}]}`),
			[]string{`"output_type": "execute_result"`, `"execution_count": 4`}},
		{"text beside data", nb45(`{"cell_type": "code", "id": "c", "metadata": {}, "source": "", "execution_count": 1, "outputs": [{"output_type": "display_data", "metadata": {}, "data": {"image/png": "AA"}, "text": ["a", "b"]}, {"output_type": "Result", "data": {}, "text": "t", "execution_count": 1}]}`),
			[]string{`"text/plain": ["a", "b"]`, `"text/plain": "t"`}},
		{"numeric string count", nb45(`{"cell_type": "code", "id": "c", "metadata": {}, "source": "", "execution_count": "12", "outputs": []}`),
			[]string{`"execution_count": 12`}},
		{"outputs given as one object", nb45(`{"cell_type": "code", "id": "c", "metadata": {}, "source": "", "execution_count": null, "outputs": {"output_type": "stream", "name": "stdout", "text": "alone"}}`),
			[]string{`"outputs": [`, `"alone"`}},
		{"tags", nb45(`{"cell_type": "raw", "id": "c", "metadata": {"tags": ["a", "a", "b,c", ""]}, "source": ""}`),
			[]string{`"tags": [`, `"a"`, `"b"`, `"c"`}},
		{"nbformat_minor as text", `{"nbformat": 4, "nbformat_minor": "5", "metadata": {}, "cells": [{"cell_type": "raw", "id": "r", "metadata": {}, "source": "s"}]}`,
			[]string{`"nbformat_minor": 5`, `"id": "r"`}},
		{"kernelspec member", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": 3, "display_name": "Python 3"}}, "cells": []}`,
			[]string{`"display_name": "Python 3"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := checkHealed(t, c.in)
			for _, w := range c.want {
				if !bytes.Contains(out, []byte(w)) {
					t.Errorf("healed notebook lacks %s:\n%s", w, out)
				}
			}
		})
	}
}

// Colab writes nbformat 4.0 with cell ids: Heal raises the minor version
// to 5 (giving ids to cells that lack one) instead of deleting the ids —
// unless raising would make something else invalid.
func TestHealColabIDs(t *testing.T) {
	t.Parallel()
	in := `{
  "nbformat": 4,
  "nbformat_minor": 0,
  "metadata": {"colab": {"provenance": []}, "kernelspec": {"name": "python3", "display_name": "Python 3"}},
  "cells": [
    {"cell_type": "markdown", "metadata": {"id": "colabmd1"}, "source": ["# Title"], "id": "colabmd1"},
    {"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [], "source": ["x = 1"], "id": "Xy_3-z"},
    {"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [], "source": ["y = 2"]}
  ]
}`
	nb, err := nbformat.Unmarshal([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	repairs, err := healWith(nb, counterIDs())
	if err != nil {
		t.Fatal(err)
	}
	if nb.NbformatMinor != 5 {
		t.Errorf("nbformat_minor %d, want 5 (repairs %v)", nb.NbformatMinor, repairs)
	}
	var ids []string
	for _, c := range nb.Cells {
		ids = append(ids, string(nbformat.CellIDOf(c)))
	}
	if got := strings.Join(ids, " "); got != "colabmd1 Xy_3-z h1" {
		t.Errorf("ids %s, want colabmd1 Xy_3-z h1", got)
	}
	if err := nbformat.Validate(nb); err != nil {
		t.Error(err)
	}
	out, _ := nbformat.Marshal(nb)
	if !bytes.Contains(out, []byte(`"source": ["x = 1"], "id": "Xy_3-z"}`)) {
		t.Errorf("the cells with ids were rewritten:\n%s", out)
	}

	// In 4.0 a code cell's metadata "execution" may be anything; in 4.5 it
	// must be an object: raising would lose it, so the ids go instead.
	broken := strings.Replace(in, `"metadata": {}, "outputs": [], "source": ["x = 1"]`, `"metadata": {"execution": 5}, "outputs": [], "source": ["x = 1"]`, 1)
	out = checkHealed(t, broken)
	if !bytes.Contains(out, []byte(`"nbformat_minor": 0`)) || bytes.Contains(out, []byte(`"id": "Xy_3-z"`)) || !bytes.Contains(out, []byte(`"execution": 5`)) {
		t.Errorf("raised although that loses metadata:\n%s", out)
	}
	// Only invalid ids: nothing to keep, they are removed.
	out = checkHealed(t, strings.NewReplacer(`"id": "colabmd1"}`, `"id": "a b"}`, `"id": "Xy_3-z"`, `"id": ""`).Replace(in))
	if !bytes.Contains(out, []byte(`"nbformat_minor": 0`)) {
		t.Errorf("raised for invalid ids only:\n%s", out)
	}
}

// Validation problems carry a structured cause: Heal and callers tell
// them apart with errors.Is and Member, not by reading messages.
func TestValidationErrorCauses(t *testing.T) {
	t.Parallel()
	in := nb45(`{"cell_type": "code", "metadata": {}, "source": 5, "outputs": [], "execution_count": -1, "stray": 1}, {"cell_type": "raw", "id": "a", "metadata": {}, "source": ""}, {"cell_type": "raw", "id": "a", "metadata": {}, "source": ""}`)
	nb, err := nbformat.Unmarshal([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		ptr     nbformat.Pointer
		keyword string
		member  string
	}
	wants := []want{
		{"/cells/0", "required", "id"},
		{"/cells/0/source", "type", ""},
		{"/cells/0/execution_count", "minimum", ""},
		{"/cells/0/stray", "additionalProperties", "stray"},
		{"/cells/2/id", "unique", ""},
	}
	probs := nbformat.Problems(nbformat.Validate(nb))
	if len(probs) != len(wants) {
		t.Fatalf("problems %v", probs)
	}
	for i, p := range probs {
		w := wants[i]
		if p.Pointer != w.ptr || p.Keyword != w.keyword || p.Member != w.member {
			t.Errorf("problem %d: %s %s member %q, want %s %s member %q", i, p.Pointer, p.Keyword, p.Member, w.ptr, w.keyword, w.member)
		}
	}
}

// Healing every invalid v4 notebook of the corpus (MANIFEST column schema)
// keeps every string and number that has a valid place.
func TestCorpusHealKeepsContent(t *testing.T) {
	t.Parallel()
	n := 0
	for e, data := range corpus.Sample(t) {
		if e.Schema != "invalid" {
			continue
		}
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat != 4 {
			continue
		}
		out := healBytes(t, data)
		missing, err := missingContent(data, out)
		if err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		if len(missing) > 0 {
			t.Errorf("%s: lost %d strings, e.g. %.200q", e.Path, len(missing), missing[0])
		}
		n++
	}
	t.Logf("%d invalid notebooks healed, content kept", n)
}

// A valid cell id follows the schema's cell_id: 1 to 64 of
// [a-zA-Z0-9-_], nothing after (Python's fastjsonschema: not even a final
// newline); Validate tells.
func TestCellIDValid(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]bool{
		"a": true, "Xy_3-z": true, strings.Repeat("a", 64): true,
		"": false, strings.Repeat("a", 65): false, "abc\n": false, "a b": false, "é": false, "a.b": false,
	} {
		quoted, _ := json.Marshal(id)
		nb, err := nbformat.Unmarshal([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "raw", "id": ` + string(quoted) + `, "metadata": {}, "source": ""}]}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := nbformat.Validate(nb) == nil; got != want {
			t.Errorf("id %q valid: %v, want %v (%v)", id, got, want, nbformat.Validate(nb))
		}
	}
}

// An id with a final newline is invalid to Python (fastjsonschema's "$"
// does not match before it): once Validate agrees, Heal gives a fresh id.
func TestHealIDWithFinalNewline(t *testing.T) {
	t.Parallel()
	in := nb45(`{"cell_type": "raw", "id": "abc\n", "metadata": {}, "source": "s"}`)
	nb, err := nbformat.Unmarshal([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if nbformat.Validate(nb) == nil {
		t.Skip(`Validate accepts the id "abc\n" (before the draft04 "$" change)`)
	}
	out := checkHealed(t, in)
	if !bytes.Contains(out, []byte(`"id": "h1"`)) {
		t.Errorf("id not replaced:\n%s", out)
	}
}

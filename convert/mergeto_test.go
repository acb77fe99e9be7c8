package convert_test

// MergeTo merges as Merge does, with base reduced and the result streamed.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/mergeparts"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// mergeToCase merges the inputs with Merge and, base reduced at every
// size, with MergeTo, twice: as internal/mergeparts's MergeTo, given parts
// of base, and as MergeTo itself; and fails t where they differ (bytes,
// conflicts or error) or where MergeTo asks for the inputs other than
// once each, in order, and base once more, after theirs (whole without
// parts, else in parts). It returns how many times MergeTo asked for base
// (parts count as one, as base read again).
func mergeToCase(t *testing.T, name string, base, ours, theirs []byte, opt dialog.MergeOptions) (bases int) {
	t.Helper()
	for _, parts := range []bool{true, false} {
		bases = mergeToCaseParts(t, name, base, ours, theirs, opt, parts)
	}
	return bases
}

func mergeToCaseParts(t *testing.T, name string, base, ours, theirs []byte, opt dialog.MergeOptions, parts bool) (bases int) {
	t.Helper()
	want, werr := merge(base, ours, theirs, opt)
	var asked []string
	askedParts := 0
	read := func(input string) ([]byte, error) {
		asked = append(asked, input)
		return map[string][]byte{"base": base, "ours": ours, "theirs": theirs}[input], nil
	}
	part := func(off, n int64) ([]byte, error) {
		askedParts++
		if len(asked) < 3 || off < 0 || n < 0 || off+n > int64(len(base)) {
			t.Errorf("%s: MergeTo asked for part %d+%d of base after %v", name, off, n, asked)
			return nil, errors.New("no such part")
		}
		return base[off : off+n], nil
	}
	mergeTo := func(w io.Writer) ([]dialog.Conflict, error) {
		if parts {
			return mergeparts.MergeTo(w, read, part, opt)
		}
		return convert.MergeTo(w, read, opt)
	}
	var out bytes.Buffer
	gotConflicts, gerr := mergeTo(&out)
	got := &mergeResult{Conflicts: gotConflicts}
	if (werr == nil) != (gerr == nil) {
		t.Errorf("%s: Merge: %v, MergeTo: %v", name, werr, gerr)
		return 0
	}
	if werr != nil {
		var wi, gi *convert.Error
		w, g := errors.As(werr, &wi), errors.As(gerr, &gi)
		if w != g || w && (wi.Op != gi.Op || wi.Input != gi.Input) || werr.Error() != gerr.Error() {
			t.Errorf("%s: Merge: %v, MergeTo: %v", name, werr, gerr)
		}
		return 0
	}
	if n := len(asked); n == 0 || n > 4 || strings.Join(asked, " ") != strings.Join([]string{"base", "ours", "theirs", "base"}[:n], " ") ||
		n == 4 && askedParts > 0 {
		t.Errorf("%s: MergeTo asked for %v and %d parts of base (parts given: %v)", name, asked, askedParts, parts)
	}
	for _, a := range asked {
		if a == "base" {
			bases++
		}
	}
	if askedParts > 0 {
		bases++
	}
	if !bytes.Equal(out.Bytes(), want.Data) {
		t.Errorf("%s: MergeTo wrote %d bytes, not Merge's %d", name, out.Len(), len(want.Data))
	}
	if len(got.Conflicts) != len(want.Conflicts) {
		t.Errorf("%s: MergeTo: %d conflicts, Merge: %d", name, len(got.Conflicts), len(want.Conflicts))
		return bases
	}
	for i := range got.Conflicts {
		g, w := got.Conflicts[i], want.Conflicts[i]
		if g.ID != w.ID || g.What != w.What || g.Part != w.Part || g.InText != w.InText ||
			!cmp.Equal(fmt.Sprint(g.Values), fmt.Sprint(w.Values)) {
			t.Errorf("%s: conflict %d: MergeTo %+v, Merge %+v", name, i, g, w)
		}
	}
	return bases
}

// TestMergeToAsMergeOnRealMerges: over the real merges (../shared), both
// output strategies, MergeTo with base reduced at every size writes what
// Merge returns, with the same conflicts and errors.
func TestMergeToAsMergeOnRealMerges(t *testing.T) {
	defer convert.ReduceBaseFrom(0)()
	dir, ms := realMerges(t)
	reduced := 0
	for i, m := range ms {
		name := m.repo + "@" + m.commit[:8] + ":" + m.path
		base, ours, theirs := blob(t, dir, m.base), blob(t, dir, m.ours), blob(t, dir, m.theirs)
		if n, meta := convert.ReducedOutputs(base, ours); n > 0 || meta {
			reduced++
		}
		for _, st := range []dialog.OutputStrategy{dialog.OutputsConflict, dialog.OutputsOurs} {
			if st != dialog.OutputsConflict && !testtier.Sample(i) {
				continue // the default strategy on every merge, another on a sample
			}
			mergeToCase(t, name, base, ours, theirs, dialog.MergeOptions{Outputs: st})
		}
	}
	t.Logf("%d merges, %d with a base reduced", len(ms), reduced)
	if reduced < len(ms)/4 {
		t.Errorf("only %d of %d bases reduced", reduced, len(ms))
	}
}

// TestMergeToAsMergeOnOutputEdits: notebooks of outputs (streams, images,
// tables, errors) where ours and theirs edit, move, delete and add cells
// and outputs, and re-run cells (outputs changed, the same on both sides
// or not), some outputs of base being in ours elsewhere than in base, an
// output of ours repeated, and the notebook metadata changed by theirs or
// both: MergeTo with base reduced merges as Merge does.
func TestMergeToAsMergeOnOutputEdits(t *testing.T) {
	defer convert.ReduceBaseFrom(0)()
	meta := func(data []byte, edit func(string) string) []byte {
		raw, ok := jsonvalue.MemberRaw(data, "metadata")
		if !ok {
			t.Fatal("no metadata")
		}
		at := bytes.LastIndex(data, raw)
		return []byte(string(data[:at]) + edit(string(raw)) + string(data[at+len(raw):]))
	}
	base := nbtest.Heavy{Cells: 12, Seed: 3, Kinds: []nbtest.OutputKind{nbtest.Stream, nbtest.Image, nbtest.Table, nbtest.Error},
		StreamLines: 3, TableRows: 2, ImageBytes: 300}.Notebook()
	base = meta(base, func(s string) string { return `{"big": "` + strings.Repeat("x", 400) + `", ` + s[1:] })
	cells := corpusCells(t, base)
	if len(cells) < 8 {
		t.Fatalf("%d cells", len(cells))
	}
	// A side is base's cells rearranged: each edit names cells by index.
	side := func(order []int, edit map[int]func(string) string) []byte {
		var parts []string
		for _, i := range order {
			c := cells[i]
			if f := edit[i]; f != nil {
				c = f(c)
			}
			parts = append(parts, c)
		}
		return replaceCells(t, base, parts)
	}
	all := func() []int {
		o := make([]int, len(cells))
		for i := range o {
			o[i] = i
		}
		return o
	}
	rerun := func(s string) string { return strings.Replace(s, `"execution_count": `, `"execution_count": 9`, 1) }
	newText := func(s string) string { return strings.Replace(s, `"text": [`, `"text": ["rerun\n", `, 1) }
	dropOutputs := func(s string) string {
		i := strings.Index(s, `"outputs": [`)
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], "\n   ]")
		if j < 0 {
			return s
		}
		return s[:i] + `"outputs": [` + s[i+j:]
	}
	moved := append([]int{len(cells) - 1}, all()[:len(cells)-1]...)
	addKey := func(s string) string { return `{"theirs": [1, 2], ` + s[1:] }
	changeKey := func(s string) string { return strings.Replace(s, `"name": "python3"`, `"name": "python4"`, 1) }
	cases := map[string][2][]byte{
		"same":                  {side(all(), nil), side(all(), nil)},
		"ours re-runs":          {side(all(), map[int]func(string) string{1: rerun, 3: newText}), side(all(), nil)},
		"both re-run alike":     {side(all(), map[int]func(string) string{3: newText}), side(all(), map[int]func(string) string{3: newText})},
		"both re-run":           {side(all(), map[int]func(string) string{3: newText}), side(all(), map[int]func(string) string{3: rerun, 5: newText})},
		"ours moves a cell":     {side(moved, nil), side(all(), map[int]func(string) string{5: newText})},
		"theirs deletes":        {side(all(), map[int]func(string) string{5: newText}), side(all()[2:], nil)},
		"ours drops outputs":    {side(all(), map[int]func(string) string{1: dropOutputs, 3: dropOutputs}), side(all(), map[int]func(string) string{3: newText})},
		"ours repeats a cell":   {side(append(all(), 1), nil), side(all(), map[int]func(string) string{1: newText})},
		"theirs only":           {side(all(), nil), side(all(), map[int]func(string) string{1: newText, 7: dropOutputs})},
		"ours deletes, re-run":  {side(all()[4:], nil), side(all(), map[int]func(string) string{1: rerun, 5: newText})},
		"theirs adds metadata":  {side(all(), nil), meta(side(all(), nil), addKey)},
		"theirs edits metadata": {side(all(), map[int]func(string) string{1: newText}), meta(side(all(), nil), changeKey)},
		"both edit metadata":    {meta(side(all(), nil), changeKey), meta(side(all(), nil), addKey)},
	}
	if b := meta(base, changeKey); bytes.Equal(b, base) {
		t.Fatal("no kernelspec name in the notebook's metadata")
	}
	for name, c := range cases {
		for _, st := range []dialog.OutputStrategy{dialog.OutputsConflict, dialog.OutputsTheirs, dialog.OutputsClear} {
			mergeToCase(t, name, base, c[0], c[1], dialog.MergeOptions{Outputs: st})
		}
	}
	if n, meta := convert.ReducedOutputs(base, side(moved, nil)); n == 0 || !meta {
		t.Errorf("%d outputs of base reduced, metadata %v", n, meta)
	}
}

// TestMergeToAsMergeOnCorpus: each corpus notebook merged with itself
// edited (ours: a line added to its first cell; theirs: its last cell's
// outputs dropped): MergeTo with base reduced merges as Merge does.
func TestMergeToAsMergeOnCorpus(t *testing.T) {
	defer convert.ReduceBaseFrom(0)()
	n := 0
	for e, data := range corpus.Sample(t) {
		ours := bytes.Replace(data, []byte(`"source": [`), []byte(`"source": ["# ours\n", `), 1)
		theirs := data
		if i := bytes.LastIndex(data, []byte(`"outputs": [`)); i >= 0 {
			if j := bytes.Index(data[i:], []byte("]")); j > 0 {
				theirs = append(append(append([]byte{}, data[:i]...), `"outputs": [`...), data[i+j:]...)
			}
		}
		mergeToCase(t, e.Path, data, ours, theirs, dialog.MergeOptions{})
		n++
	}
	if n == 0 {
		t.Fatal("no corpus files")
	}
}

// corpusCells returns the text of each cell of a notebook.
func corpusCells(t *testing.T, data []byte) []string {
	t.Helper()
	raw, ok := jsonvalue.MemberRaw(data, "cells")
	spans, ok2 := jsonvalue.ElementSpans(raw)
	if !ok || !ok2 {
		t.Fatal("no cells")
	}
	cells := make([]string, len(spans))
	for i, sp := range spans {
		cells[i] = string(raw[sp[0]:sp[1]])
	}
	return cells
}

// replaceCells returns the notebook data with the cells given.
func replaceCells(t *testing.T, data []byte, cells []string) []byte {
	t.Helper()
	raw, ok := jsonvalue.MemberRaw(data, "cells")
	if !ok {
		t.Fatal("no cells")
	}
	at := bytes.Index(data, raw)
	return []byte(string(data[:at]) + "[\n  " + strings.Join(cells, ",\n  ") + "\n ]" + string(data[at+len(raw):]))
}

// A base whose outputs ours re-ran (every stream and image changed) is
// reduced all the same: its outputs theirs holds byte for byte are read
// as theirs', and MergeTo asks for base once; where theirs re-ran one of
// those outputs too, it asks for base's own outputs again, in parts
// (given internal/mergeparts's part; else base whole), and where theirs
// is of another minor version, for base whole. Each merges as Merge does.
// Base asked again with other bytes (whole or a part) fails with
// ErrChanged, naming base; an error of read or part is returned as it is.
func TestMergeToBaseOutputsTheirsHolds(t *testing.T) {
	defer convert.ReduceBaseFrom(0)()
	base := nbtest.Heavy{Cells: 10, Seed: 5, Kinds: []nbtest.OutputKind{nbtest.Stream, nbtest.Image, nbtest.Table},
		StreamLines: 20, TableRows: 3, ImageBytes: 400}.Notebook()
	rerun := func(data []byte) []byte {
		data = bytes.ReplaceAll(data, []byte(`"image/png": "`), []byte(`"image/png": "Z`))
		return bytes.ReplaceAll(data, []byte(`"text": [`), []byte(`"text": ["rerun\n", `))
	}
	ours := rerun(base)
	if bytes.Count(ours, []byte(`"Z`)) < 2 || bytes.Count(ours, []byte(`"rerun\n"`)) < 2 {
		t.Fatal("the notebook has too few streams and images")
	}
	editSource := func(data []byte) []byte {
		return bytes.Replace(data, []byte(`"source": [`), []byte(`"source": ["# theirs\n", `), 1)
	}
	oneImage := func(data []byte) []byte {
		return bytes.Replace(data, []byte(`"image/png": "`), []byte(`"image/png": "Y`), 1)
	}
	otherMinor := bytes.Replace(editSource(base), []byte(`"nbformat_minor": 5`), []byte(`"nbformat_minor": 4`), 1)
	if bytes.Equal(otherMinor, editSource(base)) {
		t.Fatal("no nbformat_minor 5 in the notebook")
	}
	for _, c := range []struct {
		name   string
		theirs []byte
		bases  int
	}{
		{"theirs edits a source", editSource(base), 1},
		{"theirs re-runs one image", oneImage(editSource(base)), 2},
		{"theirs re-runs alike (neither holds base's)", rerun(base), 2},
		{"theirs of another minor version", otherMinor, 2},
	} {
		for _, st := range []dialog.OutputStrategy{dialog.OutputsConflict, dialog.OutputsTheirs} {
			if got := mergeToCase(t, c.name, base, ours, c.theirs, dialog.MergeOptions{Outputs: st}); got != c.bases {
				t.Errorf("%s: base asked for %d times, want %d", c.name, got, c.bases)
			}
		}
	}
	asked := 0
	_, err := convert.MergeTo(io.Discard, func(input string) ([]byte, error) {
		switch input {
		case "ours":
			return ours, nil
		case "theirs":
			return oneImage(base), nil
		}
		if asked++; asked > 1 {
			return editSource(base), nil
		}
		return base, nil
	}, dialog.MergeOptions{})
	var mie *convert.Error
	if !errors.Is(err, convert.ErrChanged) || !errors.As(err, &mie) || mie.Op != "merge" || mie.Input != "base" {
		t.Errorf("base changed between its two reads: %v, want an *Error of Op \"merge\" of base wrapping ErrChanged", err)
	}
	failed := errors.New("gone")
	asked = 0
	_, err = convert.MergeTo(io.Discard, func(input string) ([]byte, error) {
		switch input {
		case "ours":
			return ours, nil
		case "theirs":
			return oneImage(base), nil
		}
		if asked++; asked > 1 {
			return nil, failed
		}
		return base, nil
	}, dialog.MergeOptions{})
	if err != failed {
		t.Errorf("base unreadable the second time: %v, want read's own error", err)
	}
	for _, c := range []struct {
		name string
		part func(off, n int64) ([]byte, error)
		ok   func(error) bool
	}{
		{"a part of base changed", func(off, n int64) ([]byte, error) {
			return editSource(base)[off : off+n], nil
		}, func(err error) bool {
			return errors.Is(err, convert.ErrChanged) && errors.As(err, &mie) && mie.Op == "merge" && mie.Input == "base"
		}},
		{"a part of base unreadable", func(off, n int64) ([]byte, error) {
			return nil, failed
		}, func(err error) bool { return err == failed }},
	} {
		_, err = mergeparts.MergeTo(io.Discard, func(input string) ([]byte, error) {
			return map[string][]byte{"base": base, "ours": ours, "theirs": oneImage(base)}[input], nil
		}, c.part, dialog.MergeOptions{})
		if !c.ok(err) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

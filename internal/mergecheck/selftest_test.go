package mergecheck

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Tests of the tests' own machinery: the JSON layer against
// encoding/json, the generator's determinism and validity, the record
// and marker readers.

func TestJSONAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	bases := realBases(10)
	if len(bases) == 0 {
		t.Fatal("no notebooks in testdata")
	}
	for _, b := range bases {
		v, err := parseJSON(b.data)
		if err != nil {
			if json.Valid(b.data) {
				t.Errorf("%s: %v", b.name, err)
			}
			continue
		}
		if !bytes.Equal(markLone(b.data), b.data) {
			continue // encoding/json would change its strings
		}
		for _, st := range styles {
			var want, got any
			for data, into := range map[*[]byte]*any{&b.data: &want, new(st.write(v)): &got} {
				dec := json.NewDecoder(bytes.NewReader(*data))
				dec.UseNumber()
				if err := dec.Decode(into); err != nil {
					t.Fatalf("%s: %v", b.name, err)
				}
			}
			if !cmp.Equal(want, got) {
				t.Errorf("%s: written in style %+v, it decodes differently", b.name, st)
			}
		}
	}
}

func TestLoneSurrogatesKept(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`"a\ud83db"`:        "a" + lone(0xd83d) + "b",
		`"\udc00"`:          lone(0xdc00),
		`"\ud83d\ude00"`:    "😀",
		`"\ud83d\ud83d"`:    lone(0xd83d) + lone(0xd83d),
		`"\\ud83d"`:         `\ud83d`,
		"\"\uFDD0\"":        lone(0xfdd0),
		`["\u00e9","\ud8"]`: "",
	} {
		v, err := parseJSON([]byte(in))
		if want == "" {
			if err == nil {
				t.Errorf("%s: no error", in)
			}
			continue
		}
		if err != nil || v != want {
			t.Errorf("%s: %q, %v; want %q", in, v, err, want)
		}
		if out := string(asciiStyle.write(v)); out != in+"\n" && in != "\"\uFDD0\"" && in != `"\ud83d\ude00"` {
			t.Errorf("%s: written back as %s", in, out)
		}
	}
	if equal(lone(0xd83d), lone(0xd83e)) || !equal(fffd(lone(0xd83d)), fffd(lone(0xd83e))) {
		t.Error("lone surrogates compare wrongly")
	}
}

func TestGeneratorDeterministicAndValid(t *testing.T) {
	t.Parallel()
	reals := realBases(25)
	for s := range uint64(150) {
		for _, disjoint := range []bool{false, true} {
			a, b := drawCase(s, reals, disjoint), drawCase(s, reals, disjoint)
			fa, fb := a.files(), b.files()
			for i := range fa {
				if !bytes.Equal(fa[i], fb[i]) {
					t.Fatalf("%v\n  %s drawn twice differs", a, sideNames[i])
				}
				if err := validNotebook(fa[i]); err != nil {
					t.Errorf("%v\n  %s invalid: %v", a, sideNames[i], err)
				}
			}
		}
	}
}

func TestRecords(t *testing.T) {
	t.Parallel()
	meta := func(s string) *obj {
		v, err := parseJSON([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v.(*obj)
	}
	m := meta(`{"a": 1, "ipynb_conflicts": [{"pointer": "/metadata/colab", "base": {"h": 1}, "ours": {"h": 2}}]}`)
	recs, err := takeRecords(m)
	if err != nil || len(recs) != 1 || m.keys[0] != "a" || len(m.keys) != 1 {
		t.Fatalf("%v %v %v", recs, err, m.keys)
	}
	for _, c := range []struct {
		ptr  string
		side int
		val  any
		has  bool
		want bool
	}{
		{"/metadata/colab/h", 1, json.Number("2"), true, true},
		{"/metadata/colab/h", 1, json.Number("3"), true, false},
		{"/metadata/colab", 2, nil, false, true}, // theirs has none
		{"/metadata/colab/h", 2, json.Number("2"), true, false},
		{"/metadata/col", 1, nil, false, false},
		{"/metadata", 1, nil, false, false},
	} {
		if got := covers(recs, c.ptr, c.side, c.val, c.has); got != c.want {
			t.Errorf("covers %s %s: %v, want %v", c.ptr, sideNames[c.side], got, c.want)
		}
	}
	for _, bad := range []string{`{"ipynb_conflicts": {}}`, `{"ipynb_conflicts": []}`, `{"ipynb_conflicts": [{"base": 1}]}`, `{"ipynb_conflicts": [{"pointer": "x"}]}`} {
		if _, err := takeRecords(meta(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestRegions(t *testing.T) {
	t.Parallel()
	outside, parts := regions("a\n<<<<<<< ours\nb\n||||||| base\nc\n=======\nd\n>>>>>>> theirs\ne\n<<<<<<< x\nf")
	want := [][3][]string{{{"c"}, {"b"}, {"d"}}}
	if !cmp.Equal(parts, want) || !outside["a"] || !outside["e"] || !outside["f"] || outside["b"] {
		t.Errorf("%v %v", parts, outside)
	}
	if marked("=======\n") || !marked("<<<<<<< ours\n=======\n>>>>>>> theirs") {
		t.Error("marked")
	}
	outs := []any{markerOutput("<<<<<<< ours"), newObj("x", "1"), markerOutput("======="), markerOutput(">>>>>>> theirs")}
	runs, ok := outputRegions(outs)
	if !ok || len(runs) != 1 || len(runs[0][1]) != 1 || len(runs[0][2]) != 0 {
		t.Errorf("%v", runs)
	}
}

// Blank lines and lines base has more than once are judged by count: a
// copy one side deleted, back outside the conflicts, is a deletion
// undone, and a conflict's part shows no line more often than its side
// has it (seed 156 without ../shared: theirs deleted a markdown cell's
// blank line, which a merge dropping it passed).
func TestBlankAndRepeatedLinesJudged(t *testing.T) {
	t.Parallel()
	nb := func(src string) []byte {
		s, _ := json.Marshal(src)
		return []byte(`{"cells": [{"cell_type": "markdown", "id": "c0", "metadata": {}, "source": ` + string(s) + `}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	}
	conflict := func(ours, theirs string) string {
		return "«b0»\n<<<<<<< ours\n" + ours + "=======\n" + theirs + ">>>>>>> theirs"
	}
	opt := checkOptions{keys: tokenKeys, uniqueLines: true}
	for _, c := range []struct {
		name                       string
		base, ours, theirs, result string
		clean                      bool
		want                       string // a failure's text holds it; "" none
	}{
		{"blank line deleted, kept", "«b0»\nA\n\nB", "«b0»\nA\n\nB", "«b0»\nA\nB", "«b0»\nA\n\nB", true, "lost (theirs) /source (deletion undone)"},
		{"blank line deleted, gone", "«b0»\nA\n\nB", "«b0»\nA\n\nB", "«b0»\nA\nB", "«b0»\nA\nB", true, ""},
		{"one of two copies deleted, kept", "«b0»\nx\nA\nx", "«b0»\nx\nA\nx", "«b0»\nA\nx", "«b0»\nx\nA\nx", true, "lost (theirs) /source (deletion undone)"},
		{"blank line deleted, ours adds one", "«b0»\nA\n\nB\n", "«b0»\nA\n\nB\n\nC", "«b0»\nA\nB\n", "«b0»\nA\nB\n\nC", true, ""},
		{"blank line deleted, ours deletes another line", "«b0»\nA\n\nB", "«b0»\n\nB", "«b0»\nA\nB", "«b0»\nB", true, ""},
		// theirs added a reply after the separator; ours deleted the blank
		// line and B, keeping A's line end (seed 7019647)
		{"reply added, prompt's last line ended", "«b0»\nA\n\nB", "«b0»\nA\n", "«b0»\nA\n\nB" + separator + "r", "«b0»\nA\n" + separator + "r", true, ""},
		{"reply added, blank line kept", "«b0»\nA\n\nB", "«b0»\nA\n", "«b0»\nA\n\nB" + separator + "r", "«b0»\nA\n\n" + separator + "r", true, "lost (ours) /source (deletion undone)"},
		{"conflict, parts as the sides", "«b0»\nA\n\nB", "«b0»\nA\n\nB\nC", "«b0»\nA\nB", conflict("A\n\nB\nC\n", "A\nB\n"), false, ""},
		{"conflict, theirs' part with a blank line", "«b0»\nA\n\nB", "«b0»\nA\n\nB\nC", "«b0»\nA\nB", conflict("A\n\nB\nC\n", "A\n\nB\n"), false, "conflict shows a line the side has not (theirs)"},
	} {
		fails := check(nb(c.base), nb(c.ours), nb(c.theirs), nb(c.result), c.clean, opt)
		found := false
		for _, f := range fails {
			found = found || c.want != "" && strings.Contains(f.String(), c.want)
		}
		if c.want == "" && len(fails) > 0 || c.want != "" && !found {
			t.Errorf("%s: failures %v, want %q", c.name, fails, c.want)
		}
	}
}

// A marker cell holds one marker line and nothing else: a cell whose
// text holds a conflict (its first line "<<<<<<< ours", then its
// versions) is a cell of its own, not the opening of a region of cells
// both sides put in one place. Seed 5008737 (nbformat 3): both sides
// edited heading b0 (one line once upgraded: a conflict in its text), and
// both deleted b2 and each put a new cell there (o4, t5: a region between
// marker cells); read as an opening marker, b0's cell made b0 lost and
// the region's first marker a cell from nowhere.
func TestMarkerCellsHoldOneLine(t *testing.T) {
	t.Parallel()
	cell := func(id, typ, src string) string {
		s, _ := json.Marshal(src)
		return `{"cell_type": "` + typ + `", "id": "` + id + `", "metadata": {}, "source": ` + string(s) + `}`
	}
	nb := func(cells ...string) []byte {
		return []byte(`{"cells": [` + strings.Join(cells, ", ") + `], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	}
	b0, b1, b2 := cell("b0", "markdown", "«b0»\nA\nB"), cell("b1", "markdown", "«b1»\nC"), cell("b2", "markdown", "«b2»\nD")
	o4, t5 := cell("o4", "markdown", "«o4»\nE"), cell("t5", "markdown", "«t5»\nF")
	base := nb(b0, b1, b2)
	ours := nb(cell("b0", "markdown", "«b0»\nA\nB\nours"), b1, o4)
	theirs := nb(cell("b0", "markdown", "«b0»\ntheirs\nA\nB"), b1, t5)
	conflicted := cell("b0", "markdown", "<<<<<<< ours\n«b0»\nA\nB\nours\n=======\n«b0»\ntheirs\nA\nB\n>>>>>>> theirs\n")
	region := []string{cell("m1", "raw", "<<<<<<< ours"), o4, cell("m2", "raw", "======="), t5, cell("m3", "raw", ">>>>>>> theirs")}
	opt := checkOptions{keys: tokenKeys, uniqueLines: true}
	for _, c := range []struct {
		name   string
		result []byte
		want   string // a failure's text holds it; "" none
	}{
		{"text conflict, then the region", nb(append([]string{conflicted, b1}, region...)...), ""},
		{"text conflict, region without theirs' cell", nb(conflicted, b1, region[0], o4, region[2], region[4]), "cell lost"},
		{"text conflict without the region", nb(conflicted, b1, o4), "cell lost"},
	} {
		fails := check(base, ours, theirs, c.result, false, opt)
		found := false
		for _, f := range fails {
			found = found || c.want != "" && strings.Contains(f.String(), c.want)
		}
		if c.want == "" && len(fails) > 0 || c.want != "" && !found {
			t.Errorf("%s: failures %v, want %q", c.name, fails, c.want)
		}
	}
}

// Output lists of one length merge output by output (as git's line merge
// of the file does): a side's change is its changed outputs, at their
// index; an output it left as base has it is no change of its own, so
// the other side's change there is no loss of it (seed 5018851: ours
// replaced output 1, theirs output 0, merged to theirs' 0 and ours' 1).
func TestOutputsJudgedOutputByOutput(t *testing.T) {
	t.Parallel()
	out := func(text string) string {
		return `{"name": "stdout", "output_type": "stream", "text": "` + text + `\n"}`
	}
	err := func(v string) string {
		return `{"ename": "E", "evalue": "` + v + `", "output_type": "error", "traceback": []}`
	}
	nb := func(outs ...string) []byte {
		return []byte(`{"cells": [{"cell_type": "code", "execution_count": 1, "id": "c0", "metadata": {}, "outputs": [` + strings.Join(outs, ", ") +
			`], "source": "«b0»\nx"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	}
	base, ours, theirs := nb(out("A"), out("B")), nb(out("A"), err("o")), nb(err("t"), out("B"))
	opt := checkOptions{keys: tokenKeys, uniqueLines: true}
	for _, c := range []struct {
		name   string
		result []byte
		want   string // a failure's text holds it; "" none
	}{
		{"each side's output", nb(err("t"), err("o")), ""},
		{"theirs' output lost", nb(out("A"), err("o")), "lost (theirs) /outputs"},
		{"ours' output lost", nb(err("t"), out("B")), "lost (ours) /outputs"},
		{"an output of neither", nb(err("x"), err("o")), "lost (theirs) /outputs"},
		{"swapped", nb(err("o"), err("t")), "lost (ours) /outputs"},
		{"one output more", nb(err("t"), err("o"), out("B")), "lost (ours) /outputs"},
	} {
		fails := check(base, ours, theirs, c.result, true, opt)
		found := false
		for _, f := range fails {
			found = found || c.want != "" && strings.Contains(f.String(), c.want)
		}
		if c.want == "" && len(fails) > 0 || c.want != "" && !found {
			t.Errorf("%s: failures %v, want %q", c.name, fails, c.want)
		}
	}
}

// A version 3 cell's or pyout/display_data output's missing metadata is
// the empty one (nbformat's upgrade sets it so): seed 6001725 (fix path),
// git's hunk gave an output's "metadata": {} line to ours' side only, so
// that ours read back "added" it while theirs changed the output's data;
// theirs' output, without the line, lost nothing of ours. A metadata with
// members is a change still.
func TestV3MetadataAbsentIsEmpty(t *testing.T) {
	t.Parallel()
	out := func(meta, png string) string {
		return `{"output_type": "display_data", ` + meta + `"png": "` + png + `", "text": ["x"]}`
	}
	nb := func(cellMeta, src string, outs ...string) []byte {
		return []byte(`{"metadata": {"name": "nb"}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"metadata": {}, "cells": [` +
			`{"cell_type": "code", "collapsed": false, "input": "` + src + `", "language": "python", ` + cellMeta +
			`"outputs": [` + strings.Join(outs, ", ") + `], "prompt_number": 1}]}]}`)
	}
	const empty, isolated = `"metadata": {}, `, `"metadata": {"isolated": true}, `
	opt := checkOptions{keys: tokenKeys, uniqueLines: true}
	for _, c := range []struct {
		name                       string
		base, ours, theirs, result []byte
		want                       string // a failure's text holds it; "" none
	}{
		{"output: ours spelled it, theirs changed the data",
			nb(empty, "«b0»\\nx", out("", "AA==")), nb(empty, "«b0»\\nx", out(empty, "AA==")), nb(empty, "«b0»\\nx", out("", "AQ==")),
			nb(empty, "«b0»\\nx", out("", "AQ==")), ""},
		{"output: ours spelled it, theirs' change lost",
			nb(empty, "«b0»\\nx", out("", "AA==")), nb(empty, "«b0»\\nx", out(empty, "AA==")), nb(empty, "«b0»\\nx", out("", "AQ==")),
			nb(empty, "«b0»\\nx", out(empty, "AA==")), "lost (theirs) /outputs"},
		{"output: ours gave it members",
			nb(empty, "«b0»\\nx", out("", "AA==")), nb(empty, "«b0»\\nx", out(isolated, "AA==")), nb(empty, "«b0»\\nx", out("", "AQ==")),
			nb(empty, "«b0»\\nx", out("", "AQ==")), "lost (ours) /outputs"},
		{"cell: ours spelled it, theirs changed the text",
			nb("", "«b0»\\nx", out(empty, "AA==")), nb(empty, "«b0»\\nx", out(empty, "AA==")), nb("", "«b0»\\ny", out(empty, "AA==")),
			nb("", "«b0»\\ny", out(empty, "AA==")), ""},
		{"cell: ours gave it members",
			nb("", "«b0»\\nx", out(empty, "AA==")), nb(isolated, "«b0»\\nx", out(empty, "AA==")), nb("", "«b0»\\ny", out(empty, "AA==")),
			nb("", "«b0»\\ny", out(empty, "AA==")), "lost (ours) /metadata"},
	} {
		fails := check(c.base, c.ours, c.theirs, c.result, true, opt)
		found := false
		for _, f := range fails {
			found = found || c.want != "" && strings.Contains(f.String(), c.want)
		}
		if c.want == "" && len(fails) > 0 || c.want != "" && !found {
			t.Errorf("%s: failures %v, want %q", c.name, fails, c.want)
		}
	}
}

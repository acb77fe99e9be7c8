package mergecheck

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// A cell git's hunks put twice in every side, with its id both times (one
// side moved it after a cell, the other to the front): a valid result
// cannot give both copies that id, so a repair that gives one copy an id
// of its own keeps every value; one that keeps the id on no cell, or
// drops a copy both sides hold, is caught.
func TestRepairRenamesCopyID(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git absent")
	}
	const (
		b0 = `{"cell_type": "markdown", "id": "d989a1b0", "metadata": {}, "source": ["«b0»\n", "b0.1 x = 1"]}`
		b2 = `{"cell_type": "code", "execution_count": null, "id": "84dad2b2", "metadata": {}, "outputs": [], "source": ["«b2»\n", "b2.1 # title"]}`
		b3 = `{"cell_type": "code", "execution_count": null, "id": "d1154fb3", "metadata": {}, "outputs": [], "source": ["«b3»"]}`
	)
	b3as := func(id string) string { return strings.Replace(b3, "d1154fb3", id, 1) }
	marked := gitMarked(t, t.TempDir(), nb45(t, b0, b2, b3), nb45(t, b0, b3, b2), nb45(t, b3, b0, b2))
	if marked == nil {
		t.Fatal("git merged the moves cleanly")
	}
	if sides, _ := readBack(marked); bytes.Count(sides[1], []byte(`"d1154fb3"`)) < 2 {
		t.Fatalf("ours' side does not hold the moved cell twice:\n%s", sides[1])
	}
	for _, c := range []struct {
		name  string
		cells []string
		want  string // the failures' checks
	}{
		{"copy given an id of its own", []string{b3, b0, b3as("0a0a0a0a"), b2}, ""},
		{"the id on no cell", []string{b3as("1b1b1b1b"), b0, b3as("0a0a0a0a"), b2}, "unchanged value changed,unchanged value changed"},
		{"a copy dropped", []string{b3, b0, b2}, "cell lost"},
	} {
		out := outcome{marked: marked, result: nb45(t, c.cells...)}
		var got []string
		for _, f := range judgeRepair(out, checkOptions{keys: tokenKeys, uniqueLines: true}) {
			got = append(got, f.check)
		}
		if strings.Join(got, ",") != c.want {
			t.Errorf("%s: failures %q, want %q\ngit's file:\n%s", c.name, got, c.want, marked)
		}
	}
}

// nb45 is a version 4.5 notebook of cells (JSON objects), laid out as
// nbformat writes it.
func nb45(t *testing.T, cells ...string) []byte {
	t.Helper()
	var out bytes.Buffer
	src := `{"cells": [` + strings.Join(cells, ", ") + `], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	if err := json.Indent(&out, []byte(src), "", " "); err != nil {
		t.Fatal(err)
	}
	return append(out.Bytes(), '\n')
}

// A repair judged by its lines (base's side is no valid notebook: git's
// hunks took its cell's type) keeps a side's lines where a conflict
// record of a result cell holds that side's text: theirs made the code
// cell a prompt with a reply, which the result, code as ours', records.
// Without the record the reply's lines are lost.
func TestLinesKeptReadsRecordTexts(t *testing.T) {
	t.Parallel()
	marked := []byte(`{
 "cells": [
  {
<<<<<<< ours
   "cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [], "source": ["«b0»"]
||||||| base
   "source": ["«b0»"]
=======
   "cell_type": "markdown", "metadata": {"solveit_ai": true}, "source": ["«b0»\n", "\n", "#### reply\n", "\n", "t5 reply"]
>>>>>>> theirs
  }
 ],
 "metadata": {}, "nbformat": 4, "nbformat_minor": 4
}
`)
	result := func(meta string) outcome {
		return outcome{status: 1, marked: marked, result: []byte(`{"cells": [{"cell_type": "code", "execution_count": null, "metadata": ` + meta +
			`, "outputs": [], "source": ["«b0»"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`)}
	}
	record := `{"ipynb_conflicts": [{"pointer": "/source", "what": "reply of a message that is no longer a prompt", "ours": "«b0»", "theirs": "«b0»\n\n#### reply\n\nt5 reply"}]}`
	for _, c := range []struct {
		name string
		out  outcome
		want string // the failures' checks
	}{
		{"theirs' text in a record", result(record), ""},
		{"no record", result(`{}`), "lost,lost,conflict not marked in the file"},
	} {
		var got []string
		for _, f := range judgeRepair(c.out, checkOptions{keys: tokenKeys, uniqueLines: true}) {
			got = append(got, f.check)
		}
		if strings.Join(got, ",") != c.want {
			t.Errorf("%s: failures %q, want %q", c.name, got, c.want)
		}
	}
}

// A repair's copy of a cell a side holds twice that is equal to a base
// copy is that copy, in the result as in the sides (tokenKeysEqualFirst):
// seed 6000913 (fix path; ours moved raw cell b1 after b3, theirs made b1
// code and deleted b2 and b3), where git's hunks left b1's text three
// times in base read back (raw, then as b3's code cell, then raw again at
// ours' new place), ours' sides [b2, the code copy, the raw copy] and
// theirs' [the code copy with b1's metadata, the raw copy]. Read with the
// raw copies as base's first, ours deleted nothing of b1 and theirs gave
// the code copy b1's metadata: the repair's [theirs' code copy, the raw
// copy] keeps both, and the raw copy equal to base's first is that copy.
func TestRepairResultCopyEqualToBase(t *testing.T) {
	t.Parallel()
	cell, nb := cell41, nb41
	const colab = `{"colab": {"height": 140}}`
	raw, b2 := cell("raw", colab, "«b1»\nA"), cell("markdown", "{}", "«b2»\nB")
	code, theirsCode := cell("code", "{}", "«b1»\nA"), cell("code", colab, "«b1»\nA")
	base, ours, theirs := nb(raw, b2, code, raw), nb(b2, code, raw), nb(theirsCode, raw)
	opt := checkOptions{keys: tokenKeysEqualFirst, uniqueLines: true}
	for _, c := range []struct {
		name   string
		result []byte
		want   string // a failure's text holds it; "" none
	}{
		{"the repair's", nb(theirsCode, raw), ""},
		{"theirs' change lost", nb(code, raw), "lost (theirs)"},
		{"the raw copy lost", nb(theirsCode), "cell lost"},
		{"theirs' deletion of b2 undone", nb(b2, theirsCode, raw), "deleted"},
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

// A side whose one change to a cell is an id it gives another cell too
// (git's hunks gave the cell that cell's id line) changed nothing a
// deletion of the cell loses, where the result keeps the id on the other
// cell: seed 10003875 (fix path; both sides renamed b1 to o3id, theirs
// moved it to the front), where git's file gives ours b1 twice, both
// o3id, and theirs deletes the second, base's b25875b1. The repair's
// [b1, b0] keeps every value; one that drops b0 is caught.
func TestRepairIDCopyDeleted(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git absent")
	}
	const (
		b0 = `{"cell_type": "code", "execution_count": null, "id": "50862db0", "metadata": {}, "outputs": [], "source": ["«b0»\n", "b0.1 text"]}`
		b1 = `{"cell_type": "markdown", "id": "b25875b1", "metadata": {}, "source": ["«b1»\n", "b1.1 - item"]}`
	)
	o3 := strings.Replace(b1, "b25875b1", "o3id", 1)
	marked := gitMarked(t, t.TempDir(), nb45(t, b0, b1), nb45(t, b0, o3), nb45(t, o3, b0))
	if marked == nil {
		t.Fatal("git merged cleanly")
	}
	if sides, _ := readBack(marked); bytes.Count(sides[1], []byte(`"o3id"`)) != 2 || bytes.Count(sides[2], []byte(`"o3id"`)) != 1 {
		t.Fatalf("ours' side does not give o3id twice, theirs' once:\n%s", marked)
	}
	for _, c := range []struct {
		name  string
		cells []string
		want  string // the failures' checks
	}{
		{"the copy gone", []string{o3, b0}, ""},
		{"b0 dropped", []string{o3}, "cell lost"},
	} {
		var got []string
		for _, f := range judgeRepair(outcome{marked: marked, result: nb45(t, c.cells...)}, checkOptions{keys: tokenKeys, uniqueLines: true}) {
			got = append(got, f.check)
		}
		if strings.Join(got, ",") != c.want {
			t.Errorf("%s: failures %q, want %q\ngit's file:\n%s", c.name, got, c.want, marked)
		}
	}
}

// A cell base has once that git's file gives a side twice is read with
// the copy in base's place as base's, too: seed 12003919 (fix path; both
// sides added o3 and o2, ours both at the front, theirs o3 at the end),
// where git's clean hunk puts theirs' o3 at the end of all three sides,
// so ours' o3 at the front is ours' copy. Read first copy first, ours'
// o2 was after o3, not at the front where theirs has it: "added cell's
// place lost" of the repair's [o3, o2, b0, b3, o3], which keeps every
// cell at each side's place. One that drops ours' copy or o2 is caught.
func TestRepairCopyInBasePlace(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git absent")
	}
	const (
		b0 = `{"attachments": {"x.png": {"image/png": "AAECAw=="}}, "cell_type": "markdown", "id": "a1b2c3d4", "metadata": {}, "source": ["«b0»\n", "![x](attachment:x.png)"]}`
		b3 = `{"cell_type": "code", "execution_count": null, "id": "d4e5f6a7", "metadata": {}, "outputs": [], "source": ["«b3»\n", "plot()"]}`
		o2 = `{"cell_type": "markdown", "id": "6aa2c5o2", "metadata": {}, "source": ["«o2»\n", "o2.1 x = 1"]}`
		o3 = `{"cell_type": "code", "execution_count": null, "id": "ba475bo3", "metadata": {}, "outputs": [], "source": ["«o3»\n", "o3.1 - item"]}`
	)
	marked := gitMarked(t, t.TempDir(), nb45(t, b0, b3), nb45(t, o3, o2, b0, b3), nb45(t, o2, b0, b3, o3))
	if marked == nil {
		t.Fatal("git merged cleanly")
	}
	if sides, _ := readBack(marked); bytes.Count(sides[0], []byte(`"ba475bo3"`)) != 1 || bytes.Count(sides[1], []byte(`"ba475bo3"`)) != 2 {
		t.Fatalf("base's side does not have o3 once, ours' twice:\n%s", marked)
	}
	o3Copy := strings.Replace(o3, "ba475bo3", "22bfad97", 1)
	for _, c := range []struct {
		name  string
		cells []string
		want  string // the failures' checks
	}{
		{"both copies", []string{o3, o2, b0, b3, o3Copy}, ""},
		{"ours' copy dropped", []string{o2, b0, b3, o3}, "inserted cell lost"},
		{"o2 dropped", []string{o3, b0, b3, o3Copy}, "inserted cell lost,inserted cell lost"}, // (by both sides)
	} {
		var got []string
		for _, f := range judgeRepair(outcome{marked: marked, result: nb45(t, c.cells...), status: 0}, checkOptions{keys: tokenKeys, uniqueLines: true}) {
			got = append(got, f.check)
		}
		if strings.Join(got, ",") != c.want {
			t.Errorf("%s: failures %q, want %q\ngit's file:\n%s", c.name, got, c.want, marked)
		}
	}
}

// cell41 is a cell of type typ with metadata meta (a JSON object) and
// source src, a code cell unexecuted and without outputs.
func cell41(typ, meta, src string) string {
	s, _ := json.Marshal(src)
	c := `{"cell_type": "` + typ + `", "metadata": ` + meta + `, "source": ` + string(s)
	if typ == "code" {
		c += `, "execution_count": null, "outputs": []`
	}
	return c + "}"
}

// nb41 is a version 4.1 notebook of cells (JSON objects).
func nb41(cells ...string) []byte {
	return []byte(`{"cells": [` + strings.Join(cells, ", ") + `], "metadata": {}, "nbformat": 4, "nbformat_minor": 1}`)
}

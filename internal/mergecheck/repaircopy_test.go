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

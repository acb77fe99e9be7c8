package mergecheck

import (
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// A cell whose brace git merged cleanly is one cell in every side of
// git's file, whatever its token lines (fileKeys): seed 8004618 (fix
// path; ours added a line to b0, theirs swapped b0 and b1, two notes of
// one image line). Git's clean hunk gives the second cell b0's token in
// every side, its conflict gives the first ours' token line against
// theirs' b1: read back, ours' side has b1 nowhere, theirs' first cell
// is b0's place with b1's token. The repair's conflict in the first cell
// (ours' lines against theirs') keeps every value; one that keeps ours'
// side alone, or gives the conflict a line no side has there, is caught.
func TestRepairFileKeysCellPlacedByGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git absent")
	}
	note := func(src ...string) string {
		return `{"cell_type": "markdown", "metadata": {}, "source": ["` + strings.Join(src, `", "`) + `"]}`
	}
	const img = "![image.png](attachment:image.png)"
	nb := func(cells ...string) []byte {
		return bytes.Replace(nb45(t, cells...), []byte(`"nbformat_minor": 5`), []byte(`"nbformat_minor": 2`), 1)
	}
	b0, b1 := note(`«b0»\n`, img), note(`«b1»\n`, img)
	marked := gitMarked(t, t.TempDir(), nb(b0, b1), nb(note(`«b0»\n`, `o3 line\n`, img), b1), nb(b1, b0))
	if marked == nil {
		t.Fatal("git merged cleanly")
	}
	if sides, _ := readBack(marked); bytes.Contains(sides[1], []byte("«b1»")) || !bytes.Contains(sides[2], []byte("«b1»")) {
		t.Fatalf("git's file is not the shape: ours' side holds b1, or theirs' does not:\n%s", marked)
	}
	conflict := note(`<<<<<<< ours\n`, `«b0»\n`, `o3 line\n`, `=======\n`, `«b1»\n`, `>>>>>>> theirs\n`, img)
	for _, c := range []struct {
		name   string
		status int
		cells  []string
		want   bool // a failure
	}{
		{"the repair's conflict", 1, []string{conflict, b0}, false},
		{"ours' side alone", 0, []string{note(`«b0»\n`, `o3 line\n`, img), b0}, true},
		{"a line from nowhere in the conflict", 1, []string{strings.Replace(conflict, `«b1»\n`, `«b1»\n", "x\n`, 1), b0}, true},
	} {
		fails := judgeRepair(outcome{status: c.status, marked: marked, result: nb(c.cells...)}, checkOptions{keys: tokenKeys, uniqueLines: true})
		if (len(fails) > 0) != c.want {
			t.Errorf("%s: failures %v, want any: %v\ngit's file:\n%s", c.name, fails, c.want, marked)
		}
	}
}

// Seed 69001638 (fix path; fileEndKeys): base is b0, b1, b2; ours deleted
// b1, wrote a line into b2 and made it raw; theirs moved b0 last and
// wrote that line into b2. git's line merge ended base's b2, ours' raw
// b2 and theirs' b0 with the same clean lines (b0's and b2's last ones
// alike), their kinds and first lines in conflicts: read back, base is
// b1, b1, b2; ours b1, raw b2; theirs b1, b2, b0. The cell git's file
// ends there is one cell in all three sides: ours made it raw and gave
// it its line, theirs gave it b0's text, and theirs' b2 before it is a
// cell theirs added. The repair (b1, theirs' b2, the raw cell with ours'
// and theirs' first lines in a conflict; the merge of git's own sides)
// is accepted, and not with any cell dropped, the raw cell markdown, or
// either side's lines of it dropped.
func TestRepairFileEndKeysCellEndedByGit(t *testing.T) {
	t.Parallel()
	out := seedRepair(t, "fix-endkeys", "69001638")
	sides, _ := readBack(out.marked)
	if fails := check(defaulted(sides[0]), defaulted(sides[1]), defaulted(sides[2]), out.result, out.status == 0, seedRepairOptions); len(fails) == 0 {
		t.Fatal("the repair is judged right with the cells keyed by their tokens: the case is not the one described")
	}
	cells := resultCells(t, out)
	if len(cells) != 3 || str(cells[2].(*obj).vals["cell_type"]) != "raw" {
		t.Fatalf("the repair is not b1, b2 and the raw cell: %s", out.result)
	}
	judgedWith := func(what string, edit func(cells []any) []any) { t.Helper(); rejectsEdited(t, out, what, edit) }
	drop := func(i int) func(cs []any) []any {
		return func(cs []any) []any { return slices.Delete(cs, i, i+1) }
	}
	judgedWith("without b1", drop(0))
	judgedWith("without theirs' b2", drop(1))
	judgedWith("without the raw cell", drop(2))
	judgedWith("with the raw cell markdown", func(cs []any) []any {
		cs[2].(*obj).set("cell_type", "markdown")
		return cs
	})
	side := func(i int) func(cs []any) []any {
		return func(cs []any) []any {
			text, _ := joined(cs[2].(*obj).vals["source"])
			cs[2].(*obj).set("source", sideText(text, i))
			return cs
		}
	}
	judgedWith("with ours' lines alone", side(1))
	judgedWith("with theirs' lines alone", side(2))
}

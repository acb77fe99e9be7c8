package mergecheck

import (
	"bytes"
	"os/exec"
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

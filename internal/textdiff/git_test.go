package textdiff

// Tests of Match, MergeText and Unified against git diff and git merge-file, on
// shapes, long texts and extremes.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/internal/textdiff/textshape"
)

// Differential tests against git itself: git diff --no-index (its
// default algorithm, without the indent heuristic, which git merge-file
// does not use either) and git merge-file, on random and crafted inputs
// large enough for the search's heuristics to decide the diff.

// gitRunner runs git with no configuration but its defaults.
type gitRunner struct {
	bin, dir string
	env      []string
}

func newGit(t *testing.T) *gitRunner {
	t.Helper()
	home := t.TempDir()
	return &gitRunner{bin: gitBinary(t), dir: t.TempDir(), env: append(os.Environ(),
		"HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)}
}

// run writes files into the folder, runs git there and returns its
// standard output and exit status (1 means differences or conflicts).
func (g *gitRunner) run(t *testing.T, files map[string][]string, args ...string) ([]byte, int) {
	t.Helper()
	for name, lines := range files {
		if err := os.WriteFile(filepath.Join(g.dir, name), []byte(join(lines)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(g.bin, args...)
	cmd.Dir, cmd.Env = g.dir, g.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() > 0 && stderr.Len() == 0 {
		return out, ee.ExitCode()
	} else if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out, 0
}

// changes returns which lines of a git diff deletes and which of b it
// inserts, read from its hunks. (With -U0, git diff first trims the
// texts' common tail, which changes the diff; merge-file does not.)
func (g *gitRunner) changes(t *testing.T, a, b []string) (da, db []bool) {
	t.Helper()
	out, _ := g.run(t, map[string][]string{"a": a, "b": b}, "diff", "--no-index", "--no-color", "--no-ext-diff",
		"--no-indent-heuristic", "--diff-algorithm=myers", "-U1", "a", "b")
	da, db = make([]bool, len(a)), make([]bool, len(b))
	lines := strings.Split(string(out), "\n")
	for len(lines) > 0 && !strings.HasPrefix(lines[0], "@@ ") {
		lines = lines[1:] // the headers
	}
	var i, j int // the next lines of a and b
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "@@ -"):
			f := strings.Fields(l) // "@@" "-s,n" "+s,n" "@@" …
			i, j = rangeStart(t, f[1][1:]), rangeStart(t, f[2][1:])
		case l == "" || l[0] == '\\':
		case l[0] == ' ':
			i, j = i+1, j+1
		case l[0] == '-':
			da[i] = true
			i++
		case l[0] == '+':
			db[j] = true
			j++
		default:
			t.Fatalf("git diff: line %q", l)
		}
	}
	return da, db
}

// rangeStart returns the index of the first line of a hunk header's
// range "start[,count]" (of the line before it when count is 0).
func rangeStart(t *testing.T, r string) int {
	s, n, found := strings.Cut(r, ",")
	start, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("hunk range %q: %v", r, err)
	}
	if found && n == "0" {
		return start
	}
	return start - 1
}

// ourChanges is changes from Match.
func ourChanges(a, b []string) (da, db []bool) {
	m := Match(a, b)
	da, db = make([]bool, len(a)), make([]bool, len(b))
	for j := range db {
		db[j] = true
	}
	for i, j := range m {
		if j < 0 {
			da[i] = true
		} else {
			db[j] = false
		}
	}
	return da, db
}

// firstDifference describes where two markings of changed lines differ.
func firstDifference(what string, got, want []bool) string {
	for i := range got {
		if got[i] != want[i] {
			return fmt.Sprintf("%s line %d: ours changed %v, git's %v", what, i+1, got[i], want[i])
		}
	}
	return ""
}

// diffCases are pairs of texts: the shapes' sides against their base
// and against each other, random texts heavily edited, and extremes.
func diffCases(short bool) []struct {
	name string
	a, b []string
} {
	type pair = struct {
		name string
		a, b []string
	}
	var cases []pair
	sizes := []int{300, 3000, 20000}
	if short {
		sizes = sizes[:2]
	}
	for _, sh := range textshape.All {
		for _, n := range sizes {
			base, ours, theirs := sh.Gen(n)
			cases = append(cases, pair{fmt.Sprintf("%s/%d/ours", sh.Name, n), base, ours},
				pair{fmt.Sprintf("%s/%d/theirs", sh.Name, n), base, theirs},
				pair{fmt.Sprintf("%s/%d/sides", sh.Name, n), ours, theirs})
		}
	}
	r := rand.New(rand.NewPCG(23, 29))
	count := 60
	if short {
		count = 15
	}
	for i := range count {
		vocab := []int{4, 10, 60, 400}[i%4]
		n := 200 + r.IntN(4000)
		a := randomText(r, n, vocab)
		b := edit(r, a, n/[]int{3, 10, 50}[i%3], vocab)
		// The texts' lines (edit may put lines after one without "\n").
		a, b = Lines(join(a)), Lines(join(b))
		cases = append(cases, pair{fmt.Sprintf("random/%d/vocab%d/n%d", i, vocab, n), a, b})
	}
	for i := range 2 * count {
		// Small texts, where every tie and corner matters.
		vocab := 2 + i%9
		a := randomText(r, r.IntN(40), vocab)
		b := edit(r, a, r.IntN(8), vocab)
		a, b = Lines(join(a)), Lines(join(b))
		cases = append(cases, pair{fmt.Sprintf("small/%d/vocab%d", i, vocab), a, b})
	}
	for _, n := range []int{20000, 50000, 140000}[:len(sizes)] {
		// Snakes longer than snakeMin between edits that a vocabulary
		// line replaces: past 32,768 lines a side (where the search may
		// spend more than heurMinCost edits), it stops at good places.
		a := randomText(r, n, 100)
		a[n-1] = strings.TrimSuffix(a[n-1], "\n") + "\n" // reversed below
		b := slices.Clone(a)
		for i := 7; i < n; i += 30 + r.IntN(5) {
			b[i] = fmt.Sprintf("line %d\n", r.IntN(100))
		}
		cases = append(cases, pair{fmt.Sprintf("sparse/%d", n), a, b}, pair{fmt.Sprintf("sparse/%d/reversed", n), reversed(a), reversed(b)})
	}
	x := slices.Repeat([]string{"x\n"}, 3000)
	ab := make([]string, 0, 4000)
	for i := range 2000 {
		ab = append(ab, "a\n", []string{"b\n", "c\n"}[i%2])
	}
	cases = append(cases,
		pair{"reversed", textshape.Nested(6000), reversed(textshape.Nested(6000))},
		pair{"same-line", x, x[:1700]},
		pair{"alternating", ab, slices.Concat(ab[1000:], ab[:1000])},
		pair{"all-new", randomText(r, 3000, 400), editAll(randomText(r, 3000, 400))},
	)
	return cases
}

func reversed(lines []string) []string {
	out := slices.Clone(lines)
	slices.Reverse(out)
	return out
}

func editAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = "new " + l
	}
	return out
}

// Match marks the very lines git diff marks, on every case: it is
// git's algorithm, heuristics included, not merely as short.
func TestDiffAgreesWithGit(t *testing.T) {
	t.Parallel()
	g := newGit(t)
	for _, c := range diffCases(!testtier.Full()) {
		wa, wb := g.changes(t, c.a, c.b)
		ga, gb := ourChanges(c.a, c.b)
		if d := firstDifference("a", ga, wa) + firstDifference("b", gb, wb); d != "" {
			t.Errorf("%s (%d and %d lines): %s", c.name, len(c.a), len(c.b), d)
		}
	}
}

// MergeText agrees with git merge-file on the shapes at growing sizes
// (the cases among them: nested repeats, many small hunks, an
// 80,000-line text with 2,000 insertions on each side): where git's
// merge is clean, ours is clean and the same text.
func TestMergeShapesAgreeWithGit(t *testing.T) {
	t.Parallel()
	g := newGit(t)
	sizes := []int{1000, 4000, 20000, 80000}
	if !testtier.Full() {
		sizes = sizes[:2]
	}
	for _, sh := range textshape.All {
		for _, n := range sizes {
			base, ours, theirs := sh.Gen(n)
			want, st := g.run(t, map[string][]string{"base": base, "ours": ours, "theirs": theirs},
				"merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", "ours", "base", "theirs")
			got, nc := MergeText(join(base), join(ours), join(theirs), Markers{Ours: "ours", Theirs: "theirs"})
			switch {
			case st != 0 && nc == 0:
				t.Logf("%s/%d: git conflicts (%d), ours is clean", sh.Name, n, st)
			case st != 0:
				t.Logf("%s/%d: both conflict (git %d, ours %d)", sh.Name, n, st, nc)
			case nc != 0:
				t.Errorf("%s/%d: git's merge is clean, ours has %d conflicts", sh.Name, n, nc)
			case got != string(want):
				t.Errorf("%s/%d: clean merges differ", sh.Name, n)
			}
		}
	}
}

// Unified gives git diff's hunks, line numbers and all, on the shapes
// (many small hunks among them: every hunk's numbers are counted once).
func TestUnifiedAgreesWithGit(t *testing.T) {
	t.Parallel()
	g := newGit(t)
	sizes := []int{3000, 20000}
	if !testtier.Full() {
		sizes = sizes[:1]
	}
	for _, sh := range textshape.All {
		for _, n := range sizes {
			base, ours, _ := sh.Gen(n)
			out, _ := g.run(t, map[string][]string{"a": base, "b": ours}, "diff", "--no-index", "--no-color",
				"--no-ext-diff", "--no-indent-heuristic", "--diff-algorithm=myers", "a", "b")
			want := gitHunks(string(out))
			got := Unified("a", "b", join(base), join(ours), 3)
			_, got, _ = strings.Cut(got, "+++ b\n")
			if got != want {
				t.Errorf("%s/%d: unified diff differs from git's (%d and %d bytes)", sh.Name, n, len(got), len(want))
			}
		}
	}
}

// gitHunks is git diff's output from its first hunk on, without the
// function names git puts after hunk headers.
func gitHunks(out string) string {
	var b strings.Builder
	started := false
	for l := range strings.SplitAfterSeq(out, "\n") {
		if strings.HasPrefix(l, "@@ -") {
			started = true
			head, _, _ := strings.Cut(l[3:], " @@")
			l = "@@ " + head + " @@\n"
		}
		if started {
			b.WriteString(l)
		}
	}
	return b.String()
}

// MergeText agrees with git merge-file on long random texts that both
// sides edit in many places, each in its own blocks (the search stops at
// maxCost there): where git is clean, ours is clean with git's text.
func TestMergeLongTextsAgreeWithGit(t *testing.T) {
	t.Parallel()
	g := newGit(t)
	r := rand.New(rand.NewPCG(59, 61))
	count := 40
	if !testtier.Full() {
		count = 8
	}
	clean := 0
	for i := range count {
		vocab := []int{6, 40, 400, 5000}[i%4]
		n := 500 + r.IntN(6000)
		base := Lines(join(randomText(r, n, vocab)))
		ours := editBlocks(r, base, 0, vocab)
		theirs := editBlocks(r, base, 1, vocab)
		want, st := g.run(t, map[string][]string{"base": base, "ours": ours, "theirs": theirs},
			"merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", "ours", "base", "theirs")
		if st != 0 {
			continue
		}
		clean++
		got, nc := MergeText(join(base), join(ours), join(theirs), Markers{Ours: "ours", Theirs: "theirs"})
		switch {
		case nc != 0:
			t.Errorf("case %d (%d lines, vocabulary %d): git's merge is clean, ours has %d conflicts", i, n, vocab, nc)
		case got != string(want):
			t.Errorf("case %d (%d lines, vocabulary %d): clean merges differ", i, n, vocab)
		}
	}
	t.Logf("%d of %d merges clean in git, all clean and equal here", clean, count)
}

// editBlocks edits, in the blocks of 24 lines whose index has the given
// parity, lines away from the blocks' edges: each side its own blocks.
func editBlocks(r *rand.Rand, base []string, parity, vocab int) []string {
	var out []string
	for start := 0; start < len(base); start += 24 {
		block := base[start:min(start+24, len(base))]
		if (start/24)%2 != parity || len(block) < 24 {
			out = append(out, block...)
			continue
		}
		mid := edit(r, block[6:18], 1+r.IntN(3), vocab)
		out = append(append(append(out, block[:6]...), mid...), block[18:]...)
	}
	return Lines(join(out))
}

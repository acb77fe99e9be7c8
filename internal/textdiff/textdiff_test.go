package textdiff

// Tests of MergeText against git merge-file, of Unified with GNU patch, and of
// Lines, CommonLines and increasing.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// randomText returns n lines drawn from a vocabulary of vocab lines (a
// small one makes lines repeat a lot), the last one sometimes without
// its "\n".
func randomText(r *rand.Rand, n, vocab int) []string {
	words := []string{"a", "b", "c", "x = 1", "return", "}", "{", "", "if ok", "pass"}
	out := make([]string, n)
	for i := range out {
		k := r.IntN(vocab)
		if k < len(words) {
			out[i] = words[k] + "\n"
		} else {
			out[i] = fmt.Sprintf("line %d\n", k)
		}
	}
	if n > 0 && r.IntN(4) == 0 {
		out[n-1] = strings.TrimSuffix(out[n-1], "\n")
	}
	return out
}

// edit changes lines at a few random places: deletes, inserts, replaces.
func edit(r *rand.Rand, lines []string, edits, vocab int) []string {
	out := append([]string(nil), lines...)
	for range edits {
		i := r.IntN(len(out) + 1)
		switch r.IntN(3) {
		case 0:
			if i < len(out) {
				out = append(out[:i], out[i+1:]...)
			}
		case 1:
			ins := randomText(r, 1+r.IntN(3), vocab)
			for k := range ins {
				if !strings.HasSuffix(ins[k], "\n") {
					ins[k] += "\n"
				}
			}
			out = append(out[:i], append(ins, out[i:]...)...)
		case 2:
			if i < len(out) {
				out[i] = fmt.Sprintf("changed %d\n", r.IntN(1000))
			}
		}
	}
	return out
}

func join(lines []string) string { return strings.Join(lines, "") }

func gitBinary(t *testing.T) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	return git
}

// MergeText agrees with git merge-file (the reference) on random edits:
// the same verdict (clean or not) and, when clean, the same text, on
// code-like text (lines mostly distinct) and on text of a ten-line
// vocabulary, where many alignments are equally short (the diffs are
// git's, ties broken as git breaks them). Conflict texts are compared
// and counted, not required equal (git also refines conflicts by diffing
// the two sides).
func TestMergeTextAgreesWithGit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		vocab    int
		tolerate float64
	}{{"code-like", 400, 0}, {"repetitive", 10, 0}} {
		t.Run(tc.name, func(t *testing.T) { mergeTextAgainstGit(t, tc.vocab, tc.tolerate) })
	}
}

func mergeTextAgainstGit(t *testing.T, vocab int, tolerate float64) {
	git := gitBinary(t)
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(1, uint64(vocab)))
	n := 1000
	if !testtier.Full() {
		n = 100
	}
	var clean, conflicted, sameConflictText, disagree int
	for i := range n {
		base := randomText(r, 5+r.IntN(30), vocab)
		ours, theirs := edit(r, base, 1+r.IntN(3), vocab), edit(r, base, 1+r.IntN(3), vocab)
		b, o, th := join(base), join(ours), join(theirs)
		for name, s := range map[string]string{"base": b, "ours": o, "theirs": th} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(git, "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", "ours", "base", "theirs")
		cmd.Dir = dir
		want, err := cmd.Output()
		gitClean := err == nil
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() < 0) {
			t.Fatal(err)
		}
		got, nc := MergeText(b, o, th, Markers{Ours: "ours", Theirs: "theirs"})
		if m, ok := MergeClean(b, o, th); ok != (nc == 0) || ok && m != got || !ok && m != "" {
			t.Errorf("case %d: MergeClean = %q, %v; MergeText has %d conflicts, git clean %v", i, m, ok, nc, gitClean)
		}
		if gitClean != (nc == 0) {
			disagree++
			if float64(disagree) <= tolerate*float64(n) {
				t.Logf("case %d: git clean %v, ours %d conflicts (tolerated)", i, gitClean, nc)
				continue
			}
			t.Errorf("case %d: git clean %v, ours %d conflicts\nbase:\n%s\nours:\n%s\ntheirs:\n%s\ngit:\n%s\ngot:\n%s", i, gitClean, nc, b, o, th, want, got)
			continue
		}
		if gitClean {
			clean++
			if got != string(want) {
				t.Errorf("case %d: clean merge differs from git's\ngit:\n%s\ngot:\n%s", i, want, got)
			}
			continue
		}
		conflicted++
		if got == string(want) {
			sameConflictText++
		}
	}
	t.Logf("%d clean (all equal to git's), %d conflicted (%d with git's exact text), %d verdicts differ", clean, conflicted, sameConflictText, disagree)
	if clean == 0 || conflicted == 0 {
		t.Errorf("the random cases should include clean and conflicting merges")
	}
}

// Unified diffs apply with GNU patch (the reference reader of the format)
// and are never longer than GNU diff's for the same texts.
func TestUnifiedAppliesWithPatch(t *testing.T) {
	t.Parallel()
	patch, err := exec.LookPath("patch")
	if err != nil {
		t.Skip("patch not installed")
	}
	diffBin, err := exec.LookPath("diff")
	if err != nil {
		t.Skip("diff not installed")
	}
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(3, 4))
	n := 200
	if !testtier.Full() {
		n = 40
	}
	for i := range n {
		vocab := []int{10, 400}[i%2]
		a := randomText(r, r.IntN(40), vocab)
		b := edit(r, a, 1+r.IntN(5), vocab)
		as, bs := join(a), join(b)
		u := Unified("a", "b", as, bs, 3)
		if as == bs {
			if u != "" {
				t.Errorf("case %d: equal texts give a diff", i)
			}
			continue
		}
		fa, fp := filepath.Join(dir, "a"), filepath.Join(dir, "p")
		if err := os.WriteFile(fa, []byte(as), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(fp, []byte(u), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(patch, "-s", "-o", filepath.Join(dir, "out"), fa, fp).CombinedOutput(); err != nil {
			t.Fatalf("case %d: patch: %v %s\n%s", i, err, out, u)
		}
		got, err := os.ReadFile(filepath.Join(dir, "out"))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != bs {
			t.Errorf("case %d: patched text differs\nwant:\n%s\ngot:\n%s\ndiff:\n%s", i, bs, got, u)
		}
		if err := os.WriteFile(filepath.Join(dir, "b"), []byte(bs), 0o644); err != nil {
			t.Fatal(err)
		}
		ref, _ := exec.Command(diffBin, "-u", fa, filepath.Join(dir, "b")).Output()
		if c, rc := changedLines(u), changedLines(string(ref)); c > rc {
			t.Errorf("case %d: %d changed lines, GNU diff has %d\nours:\n%s\ndiff:\n%s", i, c, rc, u, ref)
		}
	}
}

func changedLines(u string) int {
	n := 0
	for _, l := range strings.Split(u, "\n") {
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---") {
			n++
		}
	}
	return n
}

func TestMergeTextMarkers(t *testing.T) {
	t.Parallel()
	base := "a\nb\nc\n"
	ours := "a\nB1\nc\n"
	theirs := "a\nB2\nc" // no final newline: the marker still starts a line
	got, n := MergeText(base, ours, theirs, Markers{Size: 4, Ours: "HEAD", Theirs: "feature"})
	// git merge-file -p --marker-size=4 -L HEAD -L base -L feature:
	want := "a\n<<<< HEAD\nB1\nc\n====\nB2\nc\n>>>> feature\n"
	if n != 1 || got != want {
		t.Errorf("got %d conflicts:\n%q\nwant 1:\n%q", n, got, want)
	}
	got, n = MergeText(base, ours, theirs, Markers{})
	if n != 1 || !strings.HasPrefix(got, "a\n<<<<<<<\nB1\nc\n=======\n") {
		t.Errorf("default markers: %q", got)
	}
	if got, n := MergeText(base, ours, base, Markers{}); n != 0 || got != ours {
		t.Errorf("one-sided: %q %d", got, n)
	}
	if got := Conflict("", "x", Markers{Ours: "o", Theirs: "t"}); got != "<<<<<<< o\n=======\nx\n>>>>>>> t\n" {
		t.Errorf("Conflict: %q", got)
	}
}

func TestLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want []string
	}{{"", nil}, {"a", []string{"a"}}, {"a\n", []string{"a\n"}}, {"a\n\nb", []string{"a\n", "\n", "b"}}, {"\r\n", []string{"\r\n"}}} {
		if got := Lines(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Lines(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// CommonLines counts the lines two texts share as multisets: as many as
// a merge of their sorted lines pairs (the reference), and the lines
// each has as Lines gives them.
func TestCommonLines(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(41, 43))
	for i := range 300 {
		x, y := join(randomText(r, r.IntN(30), 1+r.IntN(12))), join(randomText(r, r.IntN(30), 1+r.IntN(12)))
		lx, ly := slices.Sorted(slices.Values(Lines(x))), slices.Sorted(slices.Values(Lines(y)))
		want := 0
		for a, b := 0, 0; a < len(lx) && b < len(ly); {
			switch strings.Compare(lx[a], ly[b]) {
			case 0:
				want++
				a, b = a+1, b+1
			case -1:
				a++
			default:
				b++
			}
		}
		if c, nx, ny := CommonLines(x, y); c != want || nx != len(lx) || ny != len(ly) {
			t.Fatalf("case %d: CommonLines(%q, %q) = %d, %d, %d; want %d, %d, %d", i, x, y, c, nx, ny, want, len(lx), len(ly))
		}
	}
}

// increasing finds a longest increasing run: as long as the quadratic
// dynamic programme's (the reference), increasing, and taken in order.
func TestIncreasing(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(47, 53))
	for i := range 500 {
		n := r.IntN(60)
		pairs := make([][2]int, n)
		for k := range pairs {
			pairs[k] = [2]int{k, r.IntN(1 + r.IntN(80))}
			if i%3 == 0 {
				pairs[k][1] = k + r.IntN(4) // mostly in order
			}
		}
		best := make([]int, n) // the longest run ending at k
		want := 0
		for k := range pairs {
			best[k] = 1
			for j := range k {
				if pairs[j][1] < pairs[k][1] {
					best[k] = max(best[k], best[j]+1)
				}
			}
			want = max(want, best[k])
		}
		got, _ := increasing(pairs)
		ok := len(got) == want
		for k := 1; k < len(got); k++ {
			ok = ok && got[k-1][0] < got[k][0] && got[k-1][1] < got[k][1]
		}
		if !ok {
			t.Fatalf("case %d: increasing(%v) = %v, want a run of %d", i, pairs, got, want)
		}
	}
}

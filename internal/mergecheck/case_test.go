package mergecheck

// The three-way cases of the merge property test, the mergers (library,
// command, git and fix) and the judging of their results.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
)

// v3MergeCases turns on nbformat 3 bases (worksheets), for when merging
// version 3 notebooks is supported; IPYNB_MERGEPROP_V3=1 turns them on
// too.
const v3MergeCases = true

func v3On() bool { return v3MergeCases || os.Getenv("IPYNB_MERGEPROP_V3") != "" }

// A tcase is one three-way case: a base and each side's edits of it.
type tcase struct {
	seed uint64
	from string // what base was made from
	base *doc
	ed   [2][]edit
}

// docs returns base, ours and theirs.
func (c *tcase) docs() [3]*doc {
	ds := [3]*doc{c.base, c.base.clone(), c.base.clone()}
	for s, es := range c.ed {
		for _, e := range es {
			ds[s+1].apply(e)
		}
	}
	return ds
}

func (c *tcase) files() [3][]byte {
	ds := c.docs()
	return [3][]byte{ds[0].bytes(), ds[1].bytes(), ds[2].bytes()}
}

func (c *tcase) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, base %s (nbformat %d.%d, %d cells)", c.seed, c.from, c.base.major(), c.base.minor(), len(c.base.cells()))
	for s, es := range c.ed {
		fmt.Fprintf(&b, "\n  %s:", sideNames[s+1])
		for _, e := range es {
			fmt.Fprintf(&b, "\n    %v", e)
		}
	}
	return b.String()
}

// newCase draws case seed: a base (synthetic of some shape and version,
// or one of reals), and one to four edits per side, each side's often on
// the cells the other edits, sometimes the same edit, and where ours
// moved a cell, often a move of that cell after another anchor.
func newCase(seed uint64, reals []realBase) *tcase { return drawCase(seed, reals, false) }

// drawCase draws a case; disjoint: theirs' edits touch no cell ours'
// edits touch, and neither both sides edit the notebook metadata nor
// both move cells (so that the merge is known: see trueMerge).
func drawCase(seed uint64, reals []realBase, disjoint bool) *tcase {
	r := rand.New(rand.NewPCG(seed, 0x6d657267))
	c := &tcase{seed: seed}
	if len(reals) > 0 && r.IntN(10) < 3 {
		b := reals[r.IntN(len(reals))]
		c.base, c.from = fromReal(r, b, v3On()), b.name
	}
	if c.base == nil {
		major, minor := 4, 5
		switch x := r.IntN(20); {
		case x < 3 && v3On():
			major, minor = 3, 0
		case x < 10:
			minor = r.IntN(5)
		}
		shape := shapes[r.IntN(len(shapes))]
		c.base, c.from = synthBase(r, shape, major, minor), shape
	}
	toks := c.base.tokens()
	var hot []string
	for range 2 {
		if len(toks) > 0 {
			hot = append(hot, toks[r.IntN(len(toks))])
		}
	}
	count := 0
	sides := [2]*doc{c.base.clone(), c.base.clone()}
	for s, name := range []string{"o", "t"} {
		for range 1 + r.IntN(4) {
			var e edit
			switch {
			case disjoint && s == 1:
				avoid, banned := map[string]bool{}, map[string]bool{}
				for _, oe := range c.ed[0] {
					avoid[oe.tok], avoid[oe.at] = true, true
					if oe.op == "nbmeta" || oe.op == "mov" {
						banned[oe.op] = true
					}
				}
				e = randomEdit(r, sides[s], name, &count, nil, avoid, banned)
			case disjoint:
				e = randomEdit(r, sides[s], name, &count, nil, nil, nil)
			case s == 1 && hasMove(c.ed[0]) && r.IntN(2) == 0:
				e = moveApart(r, sides[s], c.ed[0], &count) // a cell ours moved, elsewhere
			case s == 1 && len(c.ed[0]) > 0 && r.IntN(6) == 0:
				e = c.ed[0][r.IntN(len(c.ed[0]))] // the same edit
				if e.op == "ins" && r.IntN(2) == 0 {
					e = insApart(r, sides[s], e) // the same cell, elsewhere
				}
			default:
				prefer := slices.Clone(hot)
				if s == 1 {
					for _, oe := range c.ed[0] {
						prefer = append(prefer, oe.tok, oe.tok, oe.at)
					}
				}
				e = randomEdit(r, sides[s], name, &count, prefer, nil, nil)
			}
			sides[s].apply(e)
			c.ed[s] = append(c.ed[s], e)
		}
	}
	return c
}

// A merger merges three notebook files.
type merger func(base, ours, theirs []byte) outcome

// An outcome is what a merger made.
type outcome struct {
	result []byte
	status int    // the command's exit status: 0 clean, 1 conflicts, 2 refused; notRun if the case does not apply
	said   string // what it said
	// marked, for a repair of git's markers (fixMerge): the file git's
	// line merge wrote, whose sides are what the repair merges
	marked []byte
}

const notRun = -1

func libraryMerge(base, ours, theirs []byte) (o outcome) {
	defer func() {
		if p := recover(); p != nil {
			o = outcome{status: 3, said: fmt.Sprintf("panic: %v", p)}
		}
	}()
	data, conflicts, err := convert.Merge(base, ours, theirs, dialog.MergeOptions{})
	if err != nil {
		return outcome{status: 2, said: err.Error()}
	}
	if len(conflicts) == 0 {
		return outcome{result: data}
	}
	return outcome{result: data, status: 1, said: fmt.Sprint(conflicts)}
}

// buildCommand builds the ipynb command into a temporary directory.
func buildCommand(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ipynb")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/nbdialog/ipynb/cmd/ipynb").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func exitStatus(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return 3
}

func writeFiles(t testing.TB, dir string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// commandMerge runs "ipynb merge -o OUT BASE OURS THEIRS" in dir.
func commandMerge(t testing.TB, bin, dir string) merger {
	return func(base, ours, theirs []byte) outcome {
		writeFiles(t, dir, map[string][]byte{"base.ipynb": base, "ours.ipynb": ours, "theirs.ipynb": theirs})
		out := filepath.Join(dir, "out.ipynb")
		os.Remove(out)
		var stderr bytes.Buffer
		cmd := exec.Command(bin, "merge", "-o", out, "base.ipynb", "ours.ipynb", "theirs.ipynb")
		cmd.Dir, cmd.Stderr = dir, &stderr
		st := exitStatus(cmd.Run())
		data, _ := os.ReadFile(out)
		return outcome{result: data, status: st, said: stderr.String()}
	}
}

// fixMerge lets real git's line merge (git merge-file --diff3) write its
// markers into the JSON and has "ipynb fix" repair the file; a case git
// merges cleanly is not run.
func fixMerge(t testing.TB, bin, dir string) merger {
	return func(base, ours, theirs []byte) outcome {
		marked := gitMarked(t, dir, base, ours, theirs)
		if marked == nil {
			return outcome{status: notRun}
		}
		var stderr bytes.Buffer
		cmd := exec.Command(bin, "fix", "nb.ipynb")
		cmd.Dir, cmd.Stderr = dir, &stderr
		st := exitStatus(cmd.Run())
		data, _ := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
		return outcome{result: data, status: st, said: stderr.String(), marked: marked}
	}
}

// gitMarked has git's line merge (git merge-file --diff3) write its
// markers into ours in dir/nb.ipynb and returns the file, or nil where
// git merged cleanly.
func gitMarked(t testing.TB, dir string, base, ours, theirs []byte) []byte {
	writeFiles(t, dir, map[string][]byte{"base.ipynb": base, "nb.ipynb": ours, "theirs.ipynb": theirs})
	git := exec.Command("git", "merge-file", "--diff3", "-L", "ours", "-L", "base", "-L", "theirs", "nb.ipynb", "base.ipynb", "theirs.ipynb")
	git.Dir = dir
	if st := exitStatus(git.Run()); st == 0 {
		return nil
	} else if st > 127 {
		t.Fatalf("git merge-file: exit %d", st)
	}
	marked, err := os.ReadFile(filepath.Join(dir, "nb.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	return marked
}

// runCase merges a case and judges the result; ran is false if the
// merger did not apply to it.
func runCase(c *tcase, m merger) (fails []failure, ran bool) {
	fs := c.files()
	for i, f := range fs {
		if err := validNotebook(f); err != nil {
			return []failure{{check: "generator made an invalid notebook", side: sideNames[i], msg: err.Error()}}, true
		}
	}
	return judge(fs[0], fs[1], fs[2], m, checkOptions{keys: tokenKeys, uniqueLines: true})
}

// judge merges three files with m and checks the result.
func judge(base, ours, theirs []byte, m merger, opt checkOptions) (fails []failure, ran bool) {
	out := m(base, ours, theirs)
	res, st, said := out.result, out.status, out.said
	if out.marked != nil {
		return judgeRepair(out, opt), true
	}
	switch {
	case st == notRun:
		return nil, false
	case st == 2:
		return []failure{{check: "refused (exit 2): " + reason(said), msg: firstLine(said)}}, true
	case st != 0 && st != 1:
		return []failure{{check: fmt.Sprintf("crashed (exit %d)", st), msg: firstLine(said)}}, true
	}
	return check(base, ours, theirs, res, st == 0, opt), true
}

var (
	placeRe  = regexp.MustCompile(`^(\S+\.ipynb|<stdin>)(:\d+:\d+)?: `)
	idRe     = regexp.MustCompile(`\b(message|cell) [0-9a-f-]{6,}`)
	numberRe = regexp.MustCompile(`\d+`)
)

// reason is what a refusal says without its places, ids and numbers, up
// to its second colon (or to "is not a notebook"): the class of the
// refusal.
func reason(said string) string {
	s := firstLine(said)
	s = placeRe.ReplaceAllString(strings.TrimPrefix(s, "ipynb fix: "), "")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "ipynb merge: "), "convert: ")
	s = numberRe.ReplaceAllString(idRe.ReplaceAllString(s, "$1 ID"), "N")
	if i := strings.Index(s, "is not a notebook"); i >= 0 {
		s = s[:i+len("is not a notebook")] // (the parser's detail follows)
	} else if parts := strings.SplitN(s, ": ", 3); len(parts) == 3 {
		s = parts[0] + ": " + parts[1]
	}
	return strings.ReplaceAll(s, "|", "/")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

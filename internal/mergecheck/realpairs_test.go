package mergecheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Other pairings of a real merge's cells. Without ids the checker pairs
// cells by content (alignKeys), and where a side split a cell in two,
// merged two, or rewrote several alike ones, more than one pairing is as
// good: which of a side's cells continues a base cell is not in the
// files. The merge may have chosen another one. So where the checker's
// pairing finds a failure at a base cell, it tries giving that base
// cell's key, on one side, to another cell of that side that it finds
// similar to the base cell (by its own measure, similar), or to none
// (the side's cell of that key taken for new), the result's cells
// following (the result cells aligned to
// either cell swap too); a swap is kept when it leaves fewer failures. A
// merge is accepted when some such pairing finds none: a failure only
// one reading of an ambiguous pairing shows is no side's change lost.
// (The generated cases carry tokens, so that their pairing is certain:
// this applies to the real merges alone.)

// judgeReal judges the library's merge of a real merge: by alignKeys,
// then by other pairings.
func judgeReal(base, ours, theirs []byte) []failure {
	return judgeRealOutcome(base, ours, theirs, libraryMerge(base, ours, theirs))
}

func judgeRealOutcome(base, ours, theirs []byte, out outcome) []failure {
	if out.status != 0 && out.status != 1 {
		fails, _ := judge(base, ours, theirs, func(_, _, _ []byte) outcome { return out }, checkOptions{keys: alignKeys})
		return fails
	}
	var swaps []swap
	keys := func(vs [4]*nbView) {
		alignKeys(vs)
		for _, s := range swaps {
			s.apply(vs)
		}
	}
	run := func() []failure {
		return check(base, ours, theirs, out.result, out.status == 0, checkOptions{keys: keys})
	}
	best := run()
	for round := 0; round < 8 && len(best) > 0; round++ {
		var vs [4]*nbView
		for i, data := range [4][]byte{base, ours, theirs, out.result} {
			v, err := viewOf(data)
			if err != nil {
				return best
			}
			vs[i] = v
		}
		takeMarkerCells(vs[3])
		keys(vs)
		improved := false
		for _, s := range candidates(best, vs) {
			swaps = append(swaps, s)
			if fs := run(); len(fs) < len(best) {
				best, improved = fs, true
				break
			}
			swaps = swaps[:len(swaps)-1]
		}
		if !improved {
			break
		}
	}
	return best
}

// A swap exchanges two keys on one side (1 ours, 2 theirs) and in the
// result cells aligned to that side's two cells.
type swap struct {
	side int
	a, b string
}

func (s swap) apply(vs [4]*nbView) {
	texts := map[string]bool{}
	for _, c := range vs[s.side].cells {
		switch c.key {
		case s.a:
			c.key = s.b
		case s.b:
			c.key = s.a
		default:
			continue
		}
		texts[c.text] = true
	}
	for _, c := range vs[3].cells {
		if c.key != s.a && c.key != s.b {
			continue
		}
		if !texts[c.text] && !markedFrom(c.text, texts) {
			continue
		}
		if c.key == s.a {
			c.key = s.b
		} else {
			c.key = s.a
		}
	}
}

// markedFrom reports whether text is one of texts between conflict
// markers (a delete/edit conflict shows the kept cell's text so).
func markedFrom(text string, texts map[string]bool) bool {
	if !marked(text) {
		return false
	}
	for t := range texts {
		if t != "" && strings.Contains(text, strings.TrimSuffix(t, "\n")) {
			return true
		}
	}
	return false
}

// candidates lists the swaps that could remove a failure at a base cell:
// the base cell's key against a new one (the side's cell of that key is
// new: the side deleted the base cell), and against the key of each
// other cell of a side that is similar to the base cell.
func candidates(fails []failure, vs [4]*nbView) []swap {
	baseCell := map[string]*cellView{}
	for _, c := range vs[0].cells {
		baseCell[c.key] = c
	}
	var out []swap
	seen := map[swap]bool{}
	for _, f := range fails {
		b := baseCell[f.key]
		if b == nil {
			continue
		}
		for side := 1; side <= 2; side++ {
			// or none: the side's cell of that key is new
			if s := (swap{side, f.key, fmt.Sprintf("%s%d*%s", "_ot"[side:side+1], side, f.key)}); !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
			for _, c := range vs[side].cells {
				if c.key == f.key || !similar(b, c) {
					continue
				}
				if s := (swap{side, f.key, c.key}); !seen[s] {
					seen[s] = true
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// The real-merge judge, other pairings and all, is not vacuous: a merge
// that returns ours (or theirs) is caught on every real merge whose
// other side changed a cell's text or kind, or the cells. (Long tier,
// and every oneSideEvery'th real merge: a one-sided result fails at many
// cells, each failure retried under other pairings, minutes a merge.)
const oneSideEvery = 8

func TestRealMergesJudgeCatchesOneSideLong(t *testing.T) {
	t.Parallel()
	long(t)
	dir := "../../../shared/merges"
	rows := realMergeFiles(t, dir)
	caught, applied := [2]int{}, [2]int{}
	for i, fs := range rows {
		if i%oneSideEvery != 0 {
			continue
		}
		for s := range 2 {
			other := fs[2-s] // theirs when returning ours
			if !textsDiffer(fs[0], other) || !textsDiffer(fs[1+s], other) {
				continue
			}
			applied[s]++
			if len(judgeRealOutcome(fs[0], fs[1], fs[2], outcome{result: fs[1+s]})) > 0 {
				caught[s]++
			}
		}
	}
	for s, name := range []string{"returns ours", "returns theirs"} {
		t.Logf("%s: caught on %d of %d real merges", name, caught[s], applied[s])
		if caught[s] != applied[s] || applied[s] == 0 {
			t.Errorf("%s: caught on %d of %d", name, caught[s], applied[s])
		}
	}
}

// textsDiffer reports whether two notebooks' cells differ in kind or
// text, or in number.
func textsDiffer(a, b []byte) bool {
	va, err1 := viewOf(a)
	vb, err2 := viewOf(b)
	if err1 != nil || err2 != nil || len(va.cells) != len(vb.cells) {
		return true
	}
	for i, c := range va.cells {
		d := vb.cells[i]
		if c.text != d.text || str(c.c.vals["cell_type"]) != str(d.c.vals["cell_type"]) {
			return true
		}
	}
	return false
}

// realMergeFiles reads the base, ours and theirs of every real merge
// whose three files are JSON.
func realMergeFiles(t *testing.T, dir string) [][3][]byte {
	man, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skipf("real merges absent: %v", err)
	}
	var out [][3][]byte
	for _, row := range strings.Split(strings.TrimSpace(string(man)), "\n")[1:] {
		c := strings.Split(row, "\t")
		var fs [3][]byte
		ok := len(c) == 9
		for i := range fs {
			if ok {
				fs[i], err = os.ReadFile(filepath.Join(dir, "blobs", c[3+i]+".ipynb"))
				ok = err == nil && json.Valid(fs[i])
			}
		}
		if ok {
			out = append(out, fs)
		}
	}
	return out
}

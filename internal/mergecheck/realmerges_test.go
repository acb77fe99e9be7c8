package mergecheck

// The judge of real merges: cells of the four files aligned, by id or by
// content, and every side's change kept.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// The checker over the real merges of ../shared/merges (MANIFEST.tsv and
// blobs/): the library's result of each, judged against its base, ours
// and theirs. Real cells carry no tokens: they are matched by id where
// every cell of the four notebooks has a unique one, else by content
// (alignKeys).

// alignKeys keys cells by id, or by aligning each side to base and the
// result to ours, then theirs, then base.
func alignKeys(vs [4]*nbView) {
	if keyByID(vs) {
		return
	}
	for i, c := range vs[0].cells {
		c.key = fmt.Sprintf("b%d", i)
	}
	var added [2][]*cellView
	for s, prefix := range []string{"o", "t"} {
		m := align(vs[0].cells, vs[s+1].cells)
		for j, c := range vs[s+1].cells {
			if m[j] >= 0 {
				c.key = vs[0].cells[m[j]].key
			} else {
				c.key = fmt.Sprintf("%s%d", prefix, j)
				added[s] = append(added[s], c)
			}
		}
	}
	// a cell both sides added at one place (after the same base cell) is
	// one cell
	after := func(v *nbView) map[*cellView]string {
		at, prev := map[*cellView]string{}, "^"
		for _, c := range v.cells {
			if c.key[0] == 'b' {
				prev = c.key
			} else {
				at[c] = prev
			}
		}
		return at
	}
	a0, a1 := after(vs[1]), after(vs[2])
	for j, i := range align(added[0], added[1]) {
		if i >= 0 && a0[added[0][i]] == a1[added[1][j]] {
			added[1][j].key = added[0][i].key
		}
	}
	// the result's cells by what each side reads in them: a cell with
	// conflict markers is aligned to ours by its ours' part, to theirs by
	// theirs'
	rest := vs[3].cells
	for i, from := range []*nbView{vs[1], vs[2], vs[0]} {
		read := make([]*cellView, len(rest))
		for j, c := range rest {
			read[j] = &cellView{c: c.c, text: sideText(c.text, [3]int{1, 2, 0}[i])}
		}
		m := align(from.cells, read)
		var left []*cellView
		for j, c := range rest {
			if m[j] >= 0 {
				c.key = from.cells[m[j]].key
			} else {
				left = append(left, c)
			}
		}
		rest = left
	}
	for j, c := range rest {
		c.key = fmt.Sprintf("r%d", j)
	}
	equalReadings(vs)
}

// equalReadings rekeys a result cell that the alignment took for a base
// cell a side deleted where it is as much a cell a side inserted that no
// result cell is: equal to both (kind and text), e.g. one empty cell
// deleted and another added beside it. Equal cells cannot tell which is
// which; of the two readings of the same result, this one keeps the
// deletion and the insertion both.
func equalReadings(vs [4]*nbView) {
	has := [4]map[string]*cellView{}
	for i, v := range vs {
		has[i] = map[string]*cellView{}
		for _, c := range v.cells {
			has[i][c.key] = c
		}
	}
	same := func(x, y *cellView) bool {
		return x.text == y.text && str(x.c.vals["cell_type"]) == str(y.c.vals["cell_type"])
	}
	for _, c := range vs[3].cells {
		if c.key[0] != 'b' || has[1][c.key] != nil && has[2][c.key] != nil {
			continue // not a base cell, or no side deleted it
		}
	swap:
		for s := 1; s <= 2; s++ {
			for _, in := range vs[s].cells {
				if in.key[0] != 'b' && has[3][in.key] == nil && same(in, c) {
					delete(has[3], c.key)
					c.key = in.key
					has[3][c.key] = c
					break swap
				}
			}
		}
	}
}

// keyByID keys every cell by its id if all cells of the four have unique
// ones.
func keyByID(vs [4]*nbView) bool {
	for _, v := range vs {
		seen := map[string]bool{}
		for _, c := range v.cells {
			id, ok := c.c.vals["id"].(string)
			if !ok || seen[id] {
				return false
			}
			seen[id] = true
		}
	}
	for _, v := range vs {
		for _, c := range v.cells {
			c.key = "id:" + c.c.vals["id"].(string)
		}
	}
	return true
}

// align pairs the cells of b with those of a: for each cell of b, the
// index of its cell in a or -1. Equal cells (kind and text) are paired
// first, in order (longest common subsequence); between them, similar
// ones (half the lines of the shorter text shared, half its characters
// as a common beginning and end, or, short texts, half their byte
// triples).
func align(a, b []*cellView) []int {
	m := make([]int, len(b))
	for i := range m {
		m[i] = -1
	}
	same := func(x, y *cellView) bool {
		return strings.TrimSuffix(x.text, "\n") == strings.TrimSuffix(y.text, "\n") && str(x.c.vals["cell_type"]) == str(y.c.vals["cell_type"])
	}
	anchors := lcs(a, b, same)
	prevA, prevB := 0, 0
	for _, p := range append(anchors, [2]int{len(a), len(b)}) {
		ga, gb := a[prevA:p[0]], b[prevB:p[1]]
		paired := map[int]bool{}
		for _, q := range lcs(ga, gb, similar) {
			m[prevB+q[1]] = prevA + q[0]
			paired[prevA+q[0]] = true
		}
		// as many left on both sides of the gap: replaced, in order
		var la, lb []int
		for i := range ga {
			if !paired[prevA+i] {
				la = append(la, prevA+i)
			}
		}
		for j := range gb {
			if m[prevB+j] < 0 {
				lb = append(lb, prevB+j)
			}
		}
		if len(la) == len(lb) {
			for k := range la {
				if str(a[la[k]].c.vals["cell_type"]) == str(b[lb[k]].c.vals["cell_type"]) {
					m[lb[k]] = la[k]
				}
			}
		}
		if p[0] < len(a) {
			m[p[1]] = p[0]
		}
		prevA, prevB = p[0]+1, p[1]+1
	}
	return m
}

func similar(x, y *cellView) bool {
	if n := min(len(x.text), len(y.text)); n > 0 {
		p := 0
		for p < n && x.text[p] == y.text[p] {
			p++
		}
		q := 0
		for q < n-p && x.text[len(x.text)-1-q] == y.text[len(y.text)-1-q] {
			q++
		}
		if 2*(p+q) >= n && p+q >= 8 {
			return true
		}
	}
	if trigrams(x.text, y.text) >= 0.5 {
		return true
	}
	lx, ly := lineSet(x.text), lineSet(y.text)
	delete(lx, "")
	delete(ly, "")
	if len(lx) == 0 || len(ly) == 0 {
		return len(lx) == len(ly) && str(x.c.vals["cell_type"]) == str(y.c.vals["cell_type"])
	}
	n := 0
	for l := range lx {
		if ly[l] {
			n++
		}
	}
	return 2*n >= min(len(lx), len(ly))
}

// trigrams is the Dice coefficient of the sets of byte triples of two
// short texts (0 for texts over 2 KB or under 3 bytes): a line edited
// inside keeps most of its triples.
func trigrams(x, y string) float64 {
	if len(x) < 3 || len(y) < 3 || len(x) > 2048 || len(y) > 2048 {
		return 0
	}
	set := func(s string) map[string]bool {
		m := map[string]bool{}
		for i := 0; i+3 <= len(s); i++ {
			m[s[i:i+3]] = true
		}
		return m
	}
	a, b := set(x), set(y)
	common := 0
	for t := range a {
		if b[t] {
			common++
		}
	}
	return 2 * float64(common) / float64(len(a)+len(b))
}

// lcs returns the index pairs of a longest common subsequence of a and b
// under eq.
func lcs(a, b []*cellView, eq func(x, y *cellView) bool) [][2]int {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return nil
	}
	t := make([]int32, (n+1)*(m+1))
	at := func(i, j int) *int32 { return &t[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case eq(a[i], b[j]):
				*at(i, j) = *at(i+1, j+1) + 1
			default:
				*at(i, j) = max(*at(i+1, j), *at(i, j+1))
			}
		}
	}
	var ps [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case eq(a[i], b[j]) && *at(i, j) == *at(i+1, j+1)+1:
			ps = append(ps, [2]int{i, j})
			i, j = i+1, j+1
		case *at(i+1, j) >= *at(i, j+1):
			i++
		default:
			j++
		}
	}
	return ps
}

// TestRealMergesKeepEverySide judges every eighth real merge in the fast
// tier, and all of them in the long tier.
func TestRealMergesKeepEverySide(t *testing.T) {
	t.Parallel()
	dir := "../../../shared/merges"
	man, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skipf("real merges absent: %v", err)
	}
	type class struct {
		n     int
		names []string
		first failure
	}
	classes := map[string]*class{}
	merged, failed, skipped, sampledOut := 0, 0, 0, 0
	for i, row := range strings.Split(strings.TrimSpace(string(man)), "\n")[1:] {
		c := strings.Split(row, "\t")
		if len(c) != 9 {
			t.Fatalf("MANIFEST.tsv: bad row %q", row)
		}
		if !testtier.Sample(i) {
			sampledOut++ // every merge in the long tier (internal/testtier)
			continue
		}
		var fs [3][]byte
		ok := true
		for i := range fs {
			if fs[i], err = os.ReadFile(filepath.Join(dir, "blobs", c[3+i]+".ipynb")); err != nil {
				t.Fatal(err)
			}
			ok = ok && json.Valid(fs[i])
		}
		if !ok {
			skipped++ // not JSON (git's markers committed): nothing to judge by
			continue
		}
		merged++
		name := fmt.Sprintf("%s@%.8s:%s (git clean %s)", c[0], c[1], c[2], c[7])
		fails := judgeReal(fs[0], fs[1], fs[2])
		if len(fails) > 0 {
			failed++
		}
		done := map[string]bool{}
		for _, f := range fails {
			k := f.class()
			if done[k] {
				continue
			}
			done[k] = true
			cl := classes[k]
			if cl == nil {
				cl = &class{first: f}
				classes[k] = cl
			}
			cl.n++
			cl.names = append(cl.names, name)
		}
	}
	keys := make([]string, 0, len(classes))
	for k := range classes {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(classes[b].n, classes[a].n), strings.Compare(a, b)) })
	var tab strings.Builder
	fmt.Fprintf(&tab, "real merges: %d judged, %d failing, %d skipped (an input not JSON), %d left to the long tier\n\n| failure class | merges | first |\n|---|---|---|\n", merged, failed, skipped, sampledOut)
	for _, k := range keys {
		cl := classes[k]
		fmt.Fprintf(&tab, "| %s | %d | %s |\n", k, cl.n, cl.names[0])
		t.Errorf("%s: %d merges, first %s\n  %v", k, cl.n, cl.names[0], cl.first)
	}
	t.Log(tab.String())
}

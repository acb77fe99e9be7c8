package mergecheck

import (
	"fmt"
	"regexp"
	"slices"
)

var tokenRe = regexp.MustCompile(`«([bots][0-9]+)»`)

// tokenKeys keys each cell by the token in its text (the generator's
// cells each carry one), or, for a cell without one (a side git's markers
// hold can have a cell whose text git's hunks took), by the token of a
// cell with its id, as the base cell without one it equals, or by its
// place (see byGap). A cell without any is keyed by its place in its
// notebook.
//
// A side git's markers hold can have a token twice (a cell git's clean
// hunk moved, beside its old place in a conflict): base's second cell of
// a token is "tok#2", and so on, and a side's or the result's cells of a
// token base has more than once take the keys of the base cells they
// align with (a longest common subsequence of the tokens, in order),
// others the next number free.
func tokenKeys(vs [4]*nbView) { tokenKeysBy(vs, byAlignment) }

// tokenKeysInOrder is tokenKeys numbering a repeated token's cells in
// their order in each notebook (another reading of a cell held twice).
func tokenKeysInOrder(vs [4]*nbView) { tokenKeysBy(vs, inOrder) }

// tokenKeysEqualFirst is tokenKeys giving a base cell's key, among a
// side's or the result's cells of its token, first to the one equal to it
// (the copy git's hunks left as base had it is base's, and so is the
// result's copy equal to it), the others in order.
func tokenKeysEqualFirst(vs [4]*nbView) { tokenKeysBy(vs, equalFirst) }

// tokenKeysEqualTwinsInOrder is tokenKeysEqualFirst leaving to their
// order the copies base holds twice alike (see twinInBase): being equal
// to one of them does not tell which the side's cell is.
func tokenKeysEqualTwinsInOrder(vs [4]*nbView) { tokenKeysBy(vs, equalTwinsInOrder) }

// twinInBase reports whether base's cell k equals another of base's
// cells of its token.
func twinInBase(b *nbView, toks []string, k int) bool {
	for j, c := range b.cells {
		if j != k && toks[j] == toks[k] && equal(c.c, b.cells[k].c) {
			return true
		}
	}
	return false
}

// tokenIDKeys is tokenKeys with a repeated token's cells told apart by
// their ids where they have them: a copy with an id of its own is the
// cell of that id in every notebook (git's hunks gave the copies their
// ids).
func tokenIDKeys(vs [4]*nbView) { tokenKeysBy(vs, copyIDs) }

// tokenKeysAlignedCopies is tokenKeys aligning, too, the cells of a
// token base has once that a side or the result holds more than once:
// the copy aligned with base's cell is base's, the others the next
// numbers (git's clean hunks put a cell one side inserted elsewhere
// beside base's place of it; that the first copy is base's is not in the
// file).
func tokenKeysAlignedCopies(vs [4]*nbView) { tokenKeysBy(vs, alignedCopies) }

// tokenKeysSameKindFirst is tokenKeys giving a side's or the result's
// cell of a token base has more than once the key of base's first copy
// of its kind not yet taken, the others in order (git's hunks gave one
// base cell's text the token of another: the cell whose kind line a side
// kept is the base copy of that kind).
func tokenKeysSameKindFirst(vs [4]*nbView) { tokenKeysBy(vs, sameKindFirst) }

// How tokenKeysBy numbers a token's cells in a notebook that has it more
// than once.
type numbering int

const (
	byAlignment numbering = iota
	inOrder
	equalFirst
	copyIDs
	alignedCopies
	equalTwinsInOrder
	sameKindFirst
	kindCopies // see kindcopies_test.go
	apartEarly // see alikeapart_test.go
	apartLate
)

func tokenKeysBy(vs [4]*nbView, how numbering) {
	tokenKeysEach(vs, [4]numbering{how, how, how, how})
}

// tokenKeysEach is tokenKeysBy numbering each notebook's cells as hows
// says (base's are numbered in order whatever hows[0], but for copyIDs).
// A side's copies are base's copies as that side read them, whichever the
// other side's are: the numberings need not agree (see mixedReadings).
func tokenKeysEach(vs [4]*nbView, hows [4]numbering) {
	how := hows[0]
	byID := map[string]string{}
	for _, v := range vs {
		for _, c := range v.cells {
			id, ok := c.c.vals["id"].(string)
			if m := tokenRe.FindStringSubmatch(c.text); m != nil && ok {
				byID[id] = m[1]
			}
		}
	}
	toks := [4][]string{}
	for i, v := range vs {
		for _, c := range v.cells {
			tok := ""
			if m := tokenRe.FindStringSubmatch(c.text); m != nil {
				tok = m[1]
			} else if id, ok := c.c.vals["id"].(string); ok {
				tok = byID[id]
			}
			toks[i] = append(toks[i], tok)
		}
	}
	// a cell without a token equal to a base cell without one is that
	// cell
	for i := 1; i < 4; i++ {
		taken := map[int]bool{}
		for j, c := range vs[i].cells {
			for k, b := range vs[0].cells {
				if toks[i][j] == "" && toks[0][k] == "" && !taken[k] && equal(b.c, c.c) {
					toks[i][j], taken[k] = fmt.Sprintf("?b%d", k), true
				}
			}
		}
	}
	for k, tok := range toks[0] {
		if tok == "" && slices.ContainsFunc(toks[1:], func(ts []string) bool { return slices.Contains(ts, fmt.Sprintf("?b%d", k)) }) {
			toks[0][k] = fmt.Sprintf("?b%d", k)
		}
	}
	byGap(toks)
	if how == copyIDs {
		idKeys(vs, toks)
	}
	for i := range toks {
		for j, tok := range toks[i] {
			if tok == "" {
				toks[i][j] = fmt.Sprintf("?%s%d", "botr"[i:i+1], j)
			}
		}
	}
	numbered := func(tok string, n int) string {
		if n <= 1 {
			return tok
		}
		return fmt.Sprintf("%s#%d", tok, n)
	}
	baseKeys := make([]string, len(toks[0]))
	count := map[string]int{}
	for j, tok := range toks[0] {
		count[tok]++
		baseKeys[j] = numbered(tok, count[tok])
	}
	for j, c := range vs[0].cells {
		c.key = baseKeys[j]
	}
	for i := 1; i < 4; i++ {
		how := hows[i]
		aligned := how == byAlignment || how == alignedCopies
		used := map[string]bool{}
		keys := make([]string, len(toks[i]))
		var pairs [][2]int
		switch {
		case aligned:
			pairs = lcsStrings(toks[0], toks[i])
		case how == apartEarly || how == apartLate:
			pairs = apartPairs(vs[0], vs[i], toks[0], toks[i], toks[3], how == apartLate)
		}
		held := map[string]int{} // this notebook's cells of each token
		for _, tok := range toks[i] {
			held[tok]++
		}
		for _, p := range pairs {
			if tok := toks[0][p[0]]; count[tok] > 1 || how == alignedCopies && held[tok] > 1 { // a repeated token: by alignment
				keys[p[1]] = baseKeys[p[0]]
				used[keys[p[1]]] = true
			}
		}
		if how == kindCopies && i == 3 {
			kindCopyKeys(vs, toks, baseKeys, keys, used)
		}
		if how == sameKindFirst || how == kindCopies && i < 3 {
			for j, c := range vs[i].cells {
				for k, b := range vs[0].cells {
					if toks[i][j] == toks[0][k] && (count[toks[0][k]] > 1 || how == kindCopies && held[toks[i][j]] > 1) && !used[baseKeys[k]] && str(b.c.vals["cell_type"]) == str(c.c.vals["cell_type"]) {
						keys[j], used[baseKeys[k]] = baseKeys[k], true
						break
					}
				}
			}
		}
		if how == equalFirst || how == equalTwinsInOrder {
			for j, c := range vs[i].cells {
				for k, b := range vs[0].cells {
					if toks[i][j] == toks[0][k] && !used[baseKeys[k]] && (how == equalFirst || !twinInBase(vs[0], toks[0], k)) && equal(b.c, c.c) {
						keys[j], used[baseKeys[k]] = baseKeys[k], true
						break
					}
				}
			}
		}
		for j, tok := range toks[i] {
			if keys[j] != "" {
				continue
			}
			for n := 1; ; n++ {
				if k := numbered(tok, n); !used[k] {
					keys[j], used[k] = k, true
					break
				}
			}
		}
		for j, c := range vs[i].cells {
			c.key = keys[j]
		}
	}
}

// mixedReadings are the key assignments numbering ours', theirs' and the
// result's copies each its own way (of the numberings that keep tokens
// as they are), other than those numbering all alike.
func mixedReadings() []func([4]*nbView) {
	hows := []numbering{byAlignment, inOrder, equalFirst, alignedCopies, equalTwinsInOrder}
	var out []func([4]*nbView)
	for _, o := range hows {
		for _, t := range hows {
			for _, r := range hows {
				if o == t && t == r {
					continue
				}
				out = append(out, func(vs [4]*nbView) { tokenKeysEach(vs, [4]numbering{o, o, t, r}) })
			}
		}
	}
	return out
}

// idKeys makes the token of each cell of a token some notebook holds
// twice token@id, where the cell has an id.
func idKeys(vs [4]*nbView, toks [4][]string) {
	repeated := map[string]bool{}
	for i := range toks {
		seen := map[string]bool{}
		for _, tok := range toks[i] {
			repeated[tok] = repeated[tok] || seen[tok]
			seen[tok] = true
		}
	}
	for i, v := range vs {
		for j, c := range v.cells {
			if id, ok := c.c.vals["id"].(string); ok && repeated[toks[i][j]] && toks[i][j] != "" {
				toks[i][j] += "@" + id
			}
		}
	}
}

// lcsStrings returns the index pairs of a longest common subsequence of
// a and b.
func lcsStrings(a, b []string) [][2]int {
	n, m := len(a), len(b)
	t := make([]int, (n+1)*(m+1))
	at := func(i, j int) *int { return &t[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				*at(i, j) = *at(i+1, j+1) + 1
			} else {
				*at(i, j) = max(*at(i+1, j), *at(i, j+1))
			}
		}
	}
	var ps [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i] == b[j]:
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

// byGap gives a cell without a token ("") the token that another
// notebook has in its place: between the same cells with tokens (or the
// ends), where it is the only cell without one there, and the other has
// there exactly one cell whose token this notebook has nowhere.
func byGap(toks [4][]string) {
	type gap struct{ prev, next string }
	gapOf := func(seq []string, j int) gap {
		g := gap{"^", "$"}
		for k := j - 1; k >= 0; k-- {
			if seq[k] != "" {
				g.prev = seq[k]
				break
			}
		}
		for k := j + 1; k < len(seq); k++ {
			if seq[k] != "" {
				g.next = seq[k]
				break
			}
		}
		return g
	}
	for i := range toks {
		has := map[string]bool{}
		unknown := map[gap]int{}
		for j, tok := range toks[i] {
			if tok != "" {
				has[tok] = true
			} else {
				unknown[gapOf(toks[i], j)]++
			}
		}
		for j, tok := range toks[i] {
			g := gapOf(toks[i], j)
			if tok != "" || unknown[g] != 1 {
				continue
			}
			cands := map[string]bool{}
			for o := range toks {
				if o == i {
					continue
				}
				for k, t := range toks[o] {
					if t != "" && !has[t] && gapOf(toks[o], k) == g {
						cands[t] = true
					}
				}
			}
			if len(cands) == 1 {
				for t := range cands {
					toks[i][j] = t
				}
			}
		}
	}
}

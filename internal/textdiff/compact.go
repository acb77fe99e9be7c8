package textdiff

// Change groups are slid the way git's xdiff slides them (its
// xdl_change_compact, without the indent heuristic, which git merge-file
// does not use), so that diffs and merges agree with git's where several
// alignments are equally short. A group of changed lines of one sequence
// is moved up as far as equal lines allow, then down as far as they
// allow (merging with groups it meets); it ends as low as possible,
// unless it can line up with a change of the other sequence, where it
// goes back up to the lowest such place. Groups of the two sequences
// correspond one to one, separated by the unchanged lines they share.

// compact slides the change groups of a and b, marked in ca and cb,
// and returns its steps.
func compact[T comparable](a, b []T, ca, cb []bool) int {
	return slideGroups(a, ca, cb) + slideGroups(b, cb, ca)
}

// group is a run [start, end) of changed lines (possibly empty); steps
// counts the lines its moves passed over.
type group struct{ start, end, steps int }

func firstGroup(c []bool) group {
	g := group{}
	for g.end < len(c) && c[g.end] {
		g.end++
	}
	g.steps = 1 + g.end
	return g
}

// next moves to the group after the unchanged line that ends g.
func (g *group) next(c []bool) bool {
	if g.end >= len(c) {
		return false
	}
	g.start = g.end + 1
	g.end = g.start
	for g.end < len(c) && c[g.end] {
		g.end++
	}
	g.steps += 1 + g.end - g.start
	return true
}

// prev moves to the group before the unchanged line that starts g.
func (g *group) prev(c []bool) bool {
	if g.start == 0 {
		return false
	}
	g.end = g.start - 1
	g.start = g.end
	for g.start > 0 && c[g.start-1] {
		g.start--
	}
	g.steps += 1 + g.end - g.start
	return true
}

func slideDown[T comparable](x []T, c []bool, g *group) bool {
	if g.end >= len(x) || x[g.start] != x[g.end] {
		return false
	}
	c[g.start], c[g.end] = false, true
	g.start++
	g.end++
	e := g.end
	for g.end < len(c) && c[g.end] {
		g.end++
	}
	g.steps += 1 + g.end - e
	return true
}

func slideUp[T comparable](x []T, c []bool, g *group) bool {
	if g.start == 0 || x[g.start-1] != x[g.end-1] {
		return false
	}
	g.start--
	g.end--
	c[g.start], c[g.end] = true, false
	st := g.start
	for g.start > 0 && c[g.start-1] {
		g.start--
	}
	g.steps += 1 + st - g.start
	return true
}

// slideGroups slides the change groups of x (marked in c); co marks the
// other sequence's changes. It returns its steps: the lines passed over.
func slideGroups[T comparable](x []T, c, co []bool) int {
	g, o := firstGroup(c), firstGroup(co)
	for {
		if g.end > g.start {
			var earliest int
			endOther := -1
			for {
				size := g.end - g.start
				endOther = -1
				for slideUp(x, c, &g) {
					o.prev(co)
				}
				earliest = g.end
				if o.end > o.start {
					endOther = g.end
				}
				for slideDown(x, c, &g) {
					o.next(co)
					if o.end > o.start {
						endOther = g.end
					}
				}
				if size == g.end-g.start {
					break
				}
			}
			if g.end != earliest && endOther >= 0 {
				for o.end == o.start {
					slideUp(x, c, &g)
					o.prev(co)
				}
			}
		}
		if !g.next(c) {
			return g.steps + o.steps
		}
		o.next(co)
	}
}

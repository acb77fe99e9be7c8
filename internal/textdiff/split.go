package textdiff

import "math"

// The search is Myers' O(ND) algorithm in its linear-space form, as git's
// xdiff runs it (xdiffi.c): a box of the edit graph is split at the
// middle of a minimal edit path, found from both corners at once, and
// each half is split in turn. When the path is long — the search has
// spent maxCost edits from each corner without the two meeting — it
// stops and splits at the point of either frontier that reaches
// furthest from its corner: the part before that point, which the
// frontier reaches with at most maxCost edits, is diffed minimally, the
// rest in the same way again. The diff is then not minimal, but it stays
// local: every match is looked for inside the box that holds it, never
// given up for a whole region.
//
// maxCost is git's for every diff of up to 65,532 kept elements (about
// 32,000 lines a side): 256 (XDL_MAX_COST_MIN). Past that git raises it
// as √n, and from 256 edits on it also stops at the end of a long snake
// (XDL_HEUR_MIN_COST, XDL_SNAKE_CNT); with the cost fixed, that point is
// never reached, and the work stays linear: a minimal search of a box
// of n elements that differ by d edits costs O(n·d); a search stopped
// at maxCost edits costs O(maxCost·r), where r is the reach of the point
// it splits at, and the box up to that point, at most maxCost edits
// apart, is then diffed for O(r·maxCost) more. These boxes do not
// overlap, so a diff of n elements costs O(n·maxCost) steps at most,
// whatever they hold.

// maxCost is the edits after which a search stops.
const maxCost = 256

// A box is the part x[lo1:hi1] × y[lo2:hi2] of the edit graph; minimal
// asks for a minimal edit path through it.
type box struct {
	lo1, hi1, lo2, hi2 int
	minimal            bool
}

// search diffs x against y (classes), marking changed elements.
type search struct {
	x, y     []int32
	cx, cy   []bool
	fwd, bwd []int // the furthest x reached on each diagonal k = x-y, at k+off
	off      int
	steps    int
}

// diffClasses marks in cx and cy the elements of x and y that an edit
// path from the start to the end of both leaves unmatched.
func diffClasses(x, y []int32, cx, cy []bool) int {
	n := len(x) + len(y) + 3
	s := &search{x: x, y: y, cx: cx, cy: cy, fwd: make([]int, n), bwd: make([]int, n), off: len(y) + 1}
	stack := []box{{0, len(x), 0, len(y), false}}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		// Shrink the box by the snakes at its corners.
		lo0, hi0 := b.lo1, b.hi1
		for b.lo1 < b.hi1 && b.lo2 < b.hi2 && x[b.lo1] == y[b.lo2] {
			b.lo1++
			b.lo2++
		}
		for b.lo1 < b.hi1 && b.lo2 < b.hi2 && x[b.hi1-1] == y[b.hi2-1] {
			b.hi1--
			b.hi2--
		}
		s.steps += 1 + b.lo1 - lo0 + hi0 - b.hi1
		switch {
		case b.lo1 == b.hi1:
			for j := b.lo2; j < b.hi2; j++ {
				cy[j] = true
			}
			s.steps += b.hi2 - b.lo2
		case b.lo2 == b.hi2:
			for i := b.lo1; i < b.hi1; i++ {
				cx[i] = true
			}
			s.steps += b.hi1 - b.lo1
		default:
			i1, i2, minLo, minHi := s.split(b)
			stack = append(stack, box{b.lo1, i1, b.lo2, i2, minLo}, box{i1, b.hi1, i2, b.hi2, minHi})
		}
	}
	return s.steps
}

// split returns the point (i1, i2) at which box b is split, and whether
// each part needs a minimal path.
func (s *search) split(b box) (i1, i2 int, minLo, minHi bool) {
	x, y, fwd, bwd, o := s.x, s.y, s.fwd, s.bwd, s.off
	lo1, hi1, lo2, hi2 := b.lo1, b.hi1, b.lo2, b.hi2
	dmin, dmax := lo1-hi2, hi1-lo2 // the diagonals of the box
	fmid, bmid := lo1-lo2, hi1-hi2 // those of its corners
	odd := (fmid-bmid)&1 != 0
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	fwd[fmid+o], bwd[bmid+o] = lo1, hi1
	steps := 0
	defer func() { s.steps += steps }()
	for ec := 1; ; ec++ {
		// Forward, one edit more: the diagonals in reach grow by one
		// each way, or shrink where they would leave the box.
		if fmin > dmin {
			fmin--
			fwd[fmin-1+o] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			fwd[fmax+1+o] = -1
		} else {
			fmax--
		}
		for k := fmax; k >= fmin; k -= 2 {
			var x1 int
			if fwd[k-1+o] >= fwd[k+1+o] {
				x1 = fwd[k-1+o] + 1
			} else {
				x1 = fwd[k+1+o]
			}
			from := x1
			y1 := x1 - k
			for x1 < hi1 && y1 < hi2 && x[x1] == y[y1] {
				x1++
				y1++
			}
			steps += 1 + x1 - from
			fwd[k+o] = x1
			if odd && bmin <= k && k <= bmax && bwd[k+o] <= x1 {
				return x1, y1, true, true
			}
		}
		// Backward, likewise.
		if bmin > dmin {
			bmin--
			bwd[bmin-1+o] = math.MaxInt
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			bwd[bmax+1+o] = math.MaxInt
		} else {
			bmax--
		}
		for k := bmax; k >= bmin; k -= 2 {
			var x1 int
			if bwd[k-1+o] < bwd[k+1+o] {
				x1 = bwd[k-1+o]
			} else {
				x1 = bwd[k+1+o] - 1
			}
			from := x1
			y1 := x1 - k
			for x1 > lo1 && y1 > lo2 && x[x1-1] == y[y1-1] {
				x1--
				y1--
			}
			steps += 1 + from - x1
			bwd[k+o] = x1
			if !odd && fmin <= k && k <= fmax && x1 <= fwd[k+o] {
				return x1, y1, true, true
			}
		}
		if b.minimal {
			continue
		}
		if ec >= maxCost {
			return s.furthest(b, fmin, fmax, bmin, bmax, &steps)
		}
	}
}

// furthest returns the point of either frontier that reaches furthest
// from its corner (the search has spent maxCost edits).
func (s *search) furthest(b box, fmin, fmax, bmin, bmax int, steps *int) (i1, i2 int, minLo, minHi bool) {
	fwd, bwd, o := s.fwd, s.bwd, s.off
	fbest, fbest1 := -1, -1
	for k := fmax; k >= fmin; k -= 2 {
		x1 := min(fwd[k+o], b.hi1)
		y1 := x1 - k
		if y1 > b.hi2 {
			x1, y1 = b.hi2+k, b.hi2
		}
		if x1+y1 > fbest {
			fbest, fbest1 = x1+y1, x1
		}
	}
	bbest, bbest1 := math.MaxInt, math.MaxInt
	for k := bmax; k >= bmin; k -= 2 {
		x1 := max(b.lo1, bwd[k+o])
		y1 := x1 - k
		if y1 < b.lo2 {
			x1, y1 = b.lo2+k, b.lo2
		}
		if x1+y1 < bbest {
			bbest, bbest1 = x1+y1, x1
		}
	}
	*steps += fmax - fmin + bmax - bmin + 2
	if b.hi1+b.hi2-bbest < fbest-(b.lo1+b.lo2) {
		return fbest1, fbest - fbest1, true, false
	}
	return bbest1, bbest - bbest1, false, true
}

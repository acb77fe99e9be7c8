package textdiff

// Before the search, the elements of a region are classified as git's
// xdiff classifies lines (xprepare.c), by how often each occurs in the
// other sequence. An element that never occurs there can match nothing:
// it is changed, and the search never looks at it. One that occurs very
// often there (at least √n times for a sequence of n, at most 1,024) is
// also left aside when it sits among elements of the first kind — in a
// block of changed lines, a blank line or a lone brace would otherwise
// pull the diff into matching it somewhere far away. What is left
// usually differs in far fewer places than the sequences themselves,
// which keeps the search short and the diff local.

const (
	maxEqLimit    = 1024 // the "very often" threshold's cap (git's XDL_MAX_EQLIMIT)
	simScanWindow = 100  // how far around an element the run is looked at (XDL_SIMSCAN_WINDOW)
	kpDisRun      = 4    // in a run, elements occurring very often may be at most 1 in 4 (XDL_KPDIS_RUN)
)

// How often an element occurs in the other sequence.
const (
	noMatch byte = iota
	someMatches
	manyMatches
)

// reduced holds the elements of a region the search looks at: their
// classes (equal elements, equal classes) and their indexes.
type reduced struct {
	x, y   []int32
	ix, iy []int
}

// reduce classifies a[lo1:hi1] and b[lo2:hi2], which lie between the
// common prefix and suffix of a and b, counting occurrences in the whole
// of a and b. It marks as changed (in ca and cb, indexed as a and b) the
// elements the search leaves aside, and returns the others.
func reduce[T comparable](a, b []T, lo1, hi1, lo2, hi2 int, ca, cb []bool) (r reduced, steps int) {
	class := make(map[T]int32, hi1-lo1+hi2-lo2)
	classOf := func(s []T) []int32 {
		out := make([]int32, len(s))
		for i, x := range s {
			c, ok := class[x]
			if !ok {
				c = int32(len(class))
				class[x] = c
			}
			out[i] = c
		}
		return out
	}
	xa, xb := classOf(a[lo1:hi1]), classOf(b[lo2:hi2])
	inA, inB := make([]int32, len(class)), make([]int32, len(class))
	count := func(in []int32, classes []int32, ends ...[]T) {
		for _, c := range classes {
			in[c]++
		}
		for _, end := range ends {
			for _, x := range end {
				if c, ok := class[x]; ok {
					in[c]++
				}
			}
		}
	}
	count(inA, xa, a[:lo1], a[hi1:])
	count(inB, xb, b[:lo2], b[hi2:])
	steps = 2*(len(a)+len(b)) + len(class)
	var s1, s2 int
	r.x, r.ix, s1 = keep(xa, inB, len(a), lo1, ca)
	r.y, r.iy, s2 = keep(xb, inA, len(b), lo2, cb)
	return r, steps + s1 + s2
}

// keep returns the classes xs of a sequence of n elements (xs starting
// at its index lo) the search looks at, and their indexes; it marks the
// others in changed. inOther counts each class in the other sequence.
func keep(xs, inOther []int32, n, lo int, changed []bool) (kept []int32, at []int, steps int) {
	limit := int32(min(bogosqrt(n), maxEqLimit))
	dis := make([]byte, len(xs))
	// none[i] and many[i] count the elements of xs[:i] occurring nowhere
	// and very often in the other sequence; nextSome[i] is the first
	// index from i on of one occurring some times (len(xs) if none does).
	none, many := make([]int32, len(xs)+1), make([]int32, len(xs)+1)
	for i, c := range xs {
		none[i+1], many[i+1] = none[i], many[i]
		switch nm := inOther[c]; {
		case nm == 0:
			dis[i] = noMatch
			none[i+1]++
		case nm >= limit:
			dis[i] = manyMatches
			many[i+1]++
		default:
			dis[i] = someMatches
		}
	}
	nextSome := make([]int, len(xs)+1)
	nextSome[len(xs)] = len(xs)
	for i := len(xs) - 1; i >= 0; i-- {
		nextSome[i] = nextSome[i+1]
		if dis[i] == someMatches {
			nextSome[i] = i
		}
	}
	kept, at = make([]int32, 0, len(xs)), make([]int, 0, len(xs))
	lastSome := -1
	for i, c := range xs {
		k := false
		switch dis[i] {
		case someMatches:
			k, lastSome = true, i
		case manyMatches:
			// The runs of elements occurring nowhere or very often
			// just before and just after i, within the window.
			from, to := max(lastSome+1, i-simScanWindow), min(nextSome[i+1], i+simScanWindow+1)
			k = !amongUnmatched(none[i]-none[from], many[i]-many[from], none[to]-none[i+1], many[to]-many[i+1])
		}
		if k {
			kept = append(kept, c)
			at = append(at, lo+i)
		} else {
			changed[lo+i] = true
		}
	}
	return kept, at, 4 * len(xs)
}

// amongUnmatched reports whether an element occurring very often, with
// noneBefore elements occurring nowhere and manyBefore occurring very
// often in the run just before it (none occurring some times), and
// likewise after it, is left aside: when both runs have elements
// occurring nowhere and fewer than one in kpDisRun of the runs' elements
// occur very often (the element itself counted twice, as git counts it).
func amongUnmatched(noneBefore, manyBefore, noneAfter, manyAfter int32) bool {
	if noneBefore == 0 || noneAfter == 0 {
		return false
	}
	none, many := noneBefore+noneAfter, 2+manyBefore+manyAfter
	return many*kpDisRun < many+none
}

// bogosqrt is git's rough square root: the power of two with half as
// many bits as n, rounded up (at least 1).
func bogosqrt(n int) int {
	r := 1
	for ; n > 0; n >>= 2 {
		r <<= 1
	}
	return r
}

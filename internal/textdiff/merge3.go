package textdiff

// A Chunk is one region of a three-way merge of sequences. In a stable
// chunk the three sides agree (Base, Ours and Theirs are the same
// elements); otherwise Base, Ours and Theirs are what each side has there,
// and exactly one of the flags below describes it.
type Chunk[T comparable] struct {
	Base, Ours, Theirs []T
	// Stable: all three agree. OursOnly: only ours changed the region
	// (theirs equals base); TheirsOnly: only theirs did; Same: both made
	// the same change. Otherwise the chunk is a conflict.
	Stable, OursOnly, TheirsOnly, Same bool
}

// Conflict reports whether both sides changed the region differently.
func (c Chunk[T]) Conflict() bool { return !c.Stable && !c.OursOnly && !c.TheirsOnly && !c.Same }

// Resolved returns the chunk's merged elements and true, or nil and false
// for a conflict.
func (c Chunk[T]) Resolved() ([]T, bool) {
	switch {
	case c.Stable, c.OursOnly, c.Same:
		return c.Ours, true
	case c.TheirsOnly:
		return c.Theirs, true
	}
	return nil, false
}

// Merge3 is diff3: it splits base, ours and theirs into chunks where all
// three agree and chunks between them, each classified (see Chunk).
func Merge3[T comparable](base, ours, theirs []T) []Chunk[T] {
	return merge3(base, ours, theirs, Match(base, ours), Match(base, theirs))
}

func merge3[T comparable](base, ours, theirs []T, mo, mt []int) []Chunk[T] {
	var out []Chunk[T]
	io, ia, ib := 0, 0, 0
	for {
		// Stable run: base lines matched to the next line of both sides.
		k := 0
		for io+k < len(base) && mo[io+k] == ia+k && mt[io+k] == ib+k {
			k++
		}
		if k > 0 {
			out = append(out, Chunk[T]{Base: base[io : io+k], Ours: ours[ia : ia+k], Theirs: theirs[ib : ib+k], Stable: true})
			io, ia, ib = io+k, ia+k, ib+k
			continue
		}
		// Next base line matched on both sides.
		o := io
		for o < len(base) && (mo[o] < 0 || mt[o] < 0) {
			o++
		}
		var c Chunk[T]
		if o == len(base) {
			c = Chunk[T]{Base: base[io:], Ours: ours[ia:], Theirs: theirs[ib:]}
		} else {
			c = Chunk[T]{Base: base[io:o], Ours: ours[ia:mo[o]], Theirs: theirs[ib:mt[o]]}
		}
		if len(c.Base) > 0 || len(c.Ours) > 0 || len(c.Theirs) > 0 {
			classify(&c)
			out = append(out, c)
		}
		if o == len(base) {
			return out
		}
		io, ia, ib = o, mo[o], mt[o]
	}
}

func classify[T comparable](c *Chunk[T]) {
	ob, tb, ot := equal(c.Ours, c.Base), equal(c.Theirs, c.Base), equal(c.Ours, c.Theirs)
	switch {
	case ob && tb:
		c.Stable = true
	case tb:
		c.OursOnly = true
	case ob:
		c.TheirsOnly = true
	case ot:
		c.Same = true
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Merge3Matched is Merge3 with the matches of base against ours (mo) and
// against theirs (mt) already computed (as Match returns them).
func Merge3Matched[T comparable](base, ours, theirs []T, mo, mt []int) []Chunk[T] {
	return merge3(base, ours, theirs, mo, mt)
}

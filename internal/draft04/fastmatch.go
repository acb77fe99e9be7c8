package draft04

import (
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// A matcher decides whether a pattern matches (is found in) a string. The
// patterns the nbformat schemas use ("^[a-zA-Z0-9-_]+$", "^.+$",
// "^[^,]+$", "^.*$", ".*") have a simple form that is decided in one
// pass over the string, without the regexp machine; for the others the
// regexp runs, after a check of the literal prefix an anchored pattern
// begins with ("^application/…").
//
// The simple form, in Go's syntax after translation from Python's, is
//
//	\A L X{min,} Q? \z
//
// with L and Q literal strings (either may be empty), X a character class
// (or "." and the like), and the trailing \z optional. Whether it matches
// does not depend on greediness: it matches exactly when the string
// starts with L, the longest run of X after it has at least min
// characters, and what follows the run is nothing, or Q where \z ends
// the pattern (a Q made of characters of X would have been taken by the
// run, and then the run alone decides), or anything where it does not.
// Without \A, only a pattern that matches the empty string anywhere
// (X* alone) is simple: it matches every string.
type matcher struct {
	re     *regexp.Regexp
	simple bool
	always bool   // matches every string
	prefix string // the string must start with it (simple or not)

	// The simple form.
	class    charClass
	min      int
	optional string // Q
	end      bool   // \z ends the pattern
}

// newMatcher returns the matcher of re, compiled from the Go pattern src.
func newMatcher(re *regexp.Regexp, src string) *matcher {
	m := &matcher{re: re}
	r, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return m
	}
	r = r.Simplify()
	items := []*syntax.Regexp{r}
	if r.Op == syntax.OpConcat {
		items = r.Sub
	}
	if len(items) == 1 && isRun(items[0]) && items[0].Op == syntax.OpStar {
		m.simple, m.always = true, true
		return m
	}
	if len(items) == 0 || items[0].Op != syntax.OpBeginText {
		return m
	}
	items = items[1:]
	if len(items) > 0 && isLiteral(items[0]) {
		m.prefix = string(items[0].Rune)
		items = items[1:]
	}
	if len(items) > 0 && isRun(items[0]) {
		if m.class, m.min = newCharClass(items[0].Sub[0]), 0; items[0].Op == syntax.OpPlus {
			m.min = 1
		}
		items = items[1:]
	}
	if len(items) > 0 && items[0].Op == syntax.OpQuest && isLiteral(items[0].Sub[0]) {
		m.optional = string(items[0].Sub[0].Rune)
		items = items[1:]
	}
	if len(items) > 0 && items[0].Op == syntax.OpEndText {
		m.end = true
		items = items[1:]
	}
	m.simple = len(items) == 0
	return m
}

// isLiteral reports whether r is a case-sensitive literal string.
func isLiteral(r *syntax.Regexp) bool {
	return r.Op == syntax.OpLiteral && r.Flags&syntax.FoldCase == 0
}

// isRun reports whether r is X* or X+ of a character class X.
func isRun(r *syntax.Regexp) bool {
	if r.Op != syntax.OpStar && r.Op != syntax.OpPlus {
		return false
	}
	switch r.Sub[0].Op {
	case syntax.OpCharClass, syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return true
	}
	return false
}

// Match reports whether the pattern is found in s.
func (m *matcher) Match(s []byte) bool {
	if m.always {
		return true
	}
	if len(s) < len(m.prefix) || string(s[:len(m.prefix)]) != m.prefix {
		return false
	}
	if !m.simple {
		return m.re.Match(s)
	}
	rest := s[len(m.prefix):]
	i, runes := 0, 0
	for i < len(rest) {
		r, size := rune(rest[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(rest[i:])
		}
		if !m.class.has(r) {
			break
		}
		i += size
		runes++
	}
	if runes < m.min {
		return false
	}
	if !m.end || i == len(rest) {
		return true
	}
	return string(rest[i:]) == m.optional
}

// A charClass is a set of runes: a bit set for ASCII, ranges above.
type charClass struct {
	ascii  [2]uint64
	ranges []rune // pairs lo, hi (inclusive) of the runes from U+0080
}

func newCharClass(r *syntax.Regexp) charClass {
	var ranges []rune
	switch r.Op {
	case syntax.OpAnyChar:
		ranges = []rune{0, utf8.MaxRune}
	case syntax.OpAnyCharNotNL:
		ranges = []rune{0, '\n' - 1, '\n' + 1, utf8.MaxRune}
	default:
		ranges = r.Rune
	}
	var c charClass
	for k := 0; k+1 < len(ranges); k += 2 {
		lo, hi := ranges[k], ranges[k+1]
		for x := lo; x <= hi && x < utf8.RuneSelf; x++ {
			c.ascii[x/64] |= 1 << (x % 64)
		}
		if hi >= utf8.RuneSelf {
			c.ranges = append(c.ranges, max(lo, utf8.RuneSelf), hi)
		}
	}
	return c
}

func (c *charClass) has(r rune) bool {
	if r < utf8.RuneSelf {
		return c.ascii[r/64]&(1<<(r%64)) != 0
	}
	for k := 0; k < len(c.ranges); k += 2 {
		if r < c.ranges[k] {
			return false
		}
		if r <= c.ranges[k+1] {
			return true
		}
	}
	return false
}

package draft04

import (
	"fmt"
	"regexp"
	"strings"
)

// Patterns are Python regular expressions, searched (re.search) as
// fastjsonschema 2.16 does, which Python nbformat validates with:
//
//   - For the "pattern" keyword, fastjsonschema first replaces every "$"
//     that does not directly follow a backslash with `\Z` (its
//     DOLLAR_FINDER, `(?<!\\)\$`, which also rewrites a "$" inside a
//     character class, where Python then refuses `\Z`). So "$" matches
//     only at the very end: "abc\n" does not match "^[a-z]+$".
//   - "patternProperties" keys are compiled as they are: there a "$"
//     keeps Python's meaning, matching at the end or before a final
//     newline ("a\n" matches "^.*$").
//
// The Python pattern is translated to Go's syntax, keeping Python's
// semantics: `\Z` is `\z`; Python's "$" is `(?:\n?\z)` (allowed only where
// nothing but closing parentheses come before the end of the pattern or
// the next alternative); `\d` is any Unicode decimal digit, as in Python's
// str patterns; `{,n}` is `{0,n}`. Constructs whose Python meaning Go
// cannot express the same way (`\w`, `\s`, `\b` and their negations, which
// are Unicode-aware in Python) are refused with an error rather than given
// a different meaning. "." and "^" mean the same in both.

// compilePattern compiles the pattern of a "pattern" keyword.
func compilePattern(p string) (*regexp.Regexp, error) {
	return compilePython(p, fastjsonschemaDollars(p))
}

// compilePatternProperty compiles a "patternProperties" key.
func compilePatternProperty(p string) (*regexp.Regexp, error) {
	return compilePython(p, p)
}

// fastjsonschemaDollars applies fastjsonschema's rewrite: every "$" not
// directly after a backslash becomes `\Z`.
func fastjsonschemaDollars(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '$' && (i == 0 || p[i-1] != '\\') {
			b.WriteString(`\Z`)
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// compilePython translates the Python pattern q (from the schema's
// pattern orig) to Go's syntax and compiles it.
func compilePython(orig, q string) (*regexp.Regexp, error) {
	fail := func(format string, args ...any) (*regexp.Regexp, error) {
		return nil, fmt.Errorf("draft04: pattern %q: %s", orig, fmt.Sprintf(format, args...))
	}
	var b strings.Builder
	inClass := false
	classStart := 0 // index in q just past "[" or "[^"
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\\':
			if i+1 == len(q) {
				return fail("ends with a backslash")
			}
			i++
			switch e := q[i]; e {
			case 'Z':
				if inClass {
					return fail(`bad escape \Z in a character class (Python refuses it)`)
				}
				b.WriteString(`\z`)
			case 'A':
				if inClass {
					return fail(`bad escape \A in a character class (Python refuses it)`)
				}
				b.WriteString(`\A`)
			case 'd':
				b.WriteString(`\p{Nd}`)
			case 'D':
				b.WriteString(`\P{Nd}`)
			case 'w', 'W', 's', 'S', 'b', 'B':
				return fail(`\%c is Unicode-aware in Python; not supported`, e)
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		case inClass:
			if c == ']' && i > classStart {
				inClass = false
			}
			b.WriteByte(c)
		case c == '[':
			inClass = true
			b.WriteByte(c)
			classStart = i + 1
			if classStart < len(q) && q[classStart] == '^' {
				classStart++
				b.WriteByte('^')
				i++
			}
		case c == '$':
			j := i + 1
			for j < len(q) && q[j] == ')' {
				j++
			}
			if j < len(q) && q[j] != '|' {
				return fail(`"$" followed by more pattern; not supported`)
			}
			b.WriteString(`(?:\n?\z)`)
		case c == '{' && i+1 < len(q) && q[i+1] == ',':
			// Python reads {,n} as {0,n}; Go would read it literally.
			j := i + 2
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			if j > i+2 && j < len(q) && q[j] == '}' {
				b.WriteString("{0")
			} else {
				b.WriteByte(c)
			}
		default:
			b.WriteByte(c)
		}
	}
	if inClass {
		return fail("unterminated character class")
	}
	re, err := regexp.Compile(b.String())
	if err != nil {
		return fail("%v", err)
	}
	return re, nil
}

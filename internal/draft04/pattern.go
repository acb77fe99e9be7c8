package draft04

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
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
func compilePattern(p string) (*matcher, error) {
	return compilePython(p, fastjsonschemaDollars(p))
}

// compilePatternProperty compiles a "patternProperties" key.
func compilePatternProperty(p string) (*matcher, error) {
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

// matchers holds the matcher of every Python pattern compiled (its q),
// shared by the schemas that have it: a matcher never changes once made,
// and the schemas of the nbformat versions repeat the same patterns.
var matchers sync.Map // string → *matcher

// compilePython translates the Python pattern q (from the schema's
// pattern orig) to Go's syntax and compiles it, once per q.
func compilePython(orig, q string) (*matcher, error) {
	if m, ok := matchers.Load(q); ok {
		return m.(*matcher), nil
	}
	m, err := translatePython(orig, q)
	if err != nil {
		return nil, err
	}
	actual, _ := matchers.LoadOrStore(q, m)
	return actual.(*matcher), nil
}

// translatePython is compilePython without the sharing.
func translatePython(orig, q string) (*matcher, error) {
	fail := func(format string, args ...any) (*matcher, error) {
		return nil, fmt.Errorf("draft04: pattern %q: %s", orig, fmt.Sprintf(format, args...))
	}
	tr := translator{q: q}
	for tr.i = 0; tr.i < len(q); tr.i++ {
		if msg := tr.step(); msg != "" {
			return fail("%s", msg)
		}
	}
	if tr.inClass {
		return fail("unterminated character class")
	}
	re, err := regexp.Compile(tr.b.String())
	if err != nil {
		return fail("%v", err)
	}
	return newMatcher(re, tr.b.String()), nil
}

// translator translates a Python pattern to Go's syntax, one construct
// at a time.
type translator struct {
	q          string
	i          int // the byte of q being translated
	b          strings.Builder
	inClass    bool
	classStart int // index in q just past "[" or "[^"
}

// step translates the construct at q[i] (advancing i past all of it but
// its last byte); it returns why the pattern is refused, or "".
func (tr *translator) step() string {
	q, c := tr.q, tr.q[tr.i]
	switch {
	case c == '\\':
		return tr.escape()
	case tr.inClass:
		if c == ']' && tr.i > tr.classStart {
			tr.inClass = false
		}
		tr.b.WriteByte(c)
	case c == '[':
		tr.inClass = true
		tr.b.WriteByte(c)
		tr.classStart = tr.i + 1
		if tr.classStart < len(q) && q[tr.classStart] == '^' {
			tr.classStart++
			tr.b.WriteByte('^')
			tr.i++
		}
	case c == '$':
		return tr.dollar()
	case c == '{' && tr.i+1 < len(q) && q[tr.i+1] == ',':
		tr.braceComma()
	default:
		tr.b.WriteByte(c)
	}
	return ""
}

// escape translates the escape at q[i], a backslash.
func (tr *translator) escape() string {
	if tr.i+1 == len(tr.q) {
		return "ends with a backslash"
	}
	tr.i++
	switch e := tr.q[tr.i]; e {
	case 'Z', 'A':
		if tr.inClass {
			return fmt.Sprintf(`bad escape \%c in a character class (Python refuses it)`, e)
		}
		if e == 'Z' {
			tr.b.WriteString(`\z`)
		} else {
			tr.b.WriteString(`\A`)
		}
	case 'd':
		tr.b.WriteString(`\p{Nd}`)
	case 'D':
		tr.b.WriteString(`\P{Nd}`)
	case 'w', 'W', 's', 'S', 'b', 'B':
		return fmt.Sprintf(`\%c is Unicode-aware in Python; not supported`, e)
	default:
		tr.b.WriteByte('\\')
		tr.b.WriteByte(e)
	}
	return ""
}

// dollar translates Python's "$" at q[i] (outside a class): the end, or
// before a final newline; allowed only where nothing but closing
// parentheses come before the end of the pattern or the next alternative.
func (tr *translator) dollar() string {
	j := tr.i + 1
	for j < len(tr.q) && tr.q[j] == ')' {
		j++
	}
	if j < len(tr.q) && tr.q[j] != '|' {
		return `"$" followed by more pattern; not supported`
	}
	tr.b.WriteString(`(?:\n?\z)`)
	return ""
}

// braceComma translates "{," at q[i]: Python reads {,n} as {0,n}; Go
// would read it literally.
func (tr *translator) braceComma() {
	q, i := tr.q, tr.i
	j := i + 2
	for j < len(q) && q[j] >= '0' && q[j] <= '9' {
		j++
	}
	if j > i+2 && j < len(q) && q[j] == '}' {
		tr.b.WriteString("{0")
	} else {
		tr.b.WriteByte('{')
	}
}

package draft04

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/schema"
)

// schemaPatterns returns every "pattern" and patternProperties key of the
// embedded nbformat schemas, compiled as Compile compiles them.
func schemaPatterns(t testing.TB) map[string]*matcher {
	t.Helper()
	out := map[string]*matcher{}
	var walk func(v any, inPatProps bool)
	walk = func(v any, inPatProps bool) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if inPatProps {
					m, err := compilePatternProperty(k)
					if err != nil {
						t.Fatal(err)
					}
					out["patternProperties "+k] = m
				}
				if p, ok := x.(string); ok && k == "pattern" {
					m, err := compilePattern(p)
					if err != nil {
						t.Fatal(err)
					}
					out["pattern "+p] = m
				}
				walk(x, k == "patternProperties")
			}
		case []any:
			for _, x := range v {
				walk(x, false)
			}
		}
	}
	entries, err := schema.FS.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		data, err := schema.FS.ReadFile(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		walk(doc, false)
	}
	return out
}

// More patterns of the simple form and near it.
var extraPatterns = []string{
	"^abc$", "^abc", "abc", "^[a-z]+", "^[a-z]*$", "^x[0-9]*$", "^é.+$", "^[^é]+$", "^.*$", ".*", ".+",
	"^$", "^", "[a-z]*", "^a*b$", "^(a|b)+$", "^ab{2,}$", "^(?i)ab$", "^(?i)[a-z]+$", "^[\\n,]+$", "^.{0,3}$",
}

// matchStrings are the strings every pattern is tried on: line breaks,
// commas, non-ASCII, empty.
var matchStrings = []string{
	"", "a", "abc", "abc\n", "abc\n\n", "\n", "a\nb", "a,b", "ab-_9", "x12", "x12\n", "é", "éa", "aé\n", "ABC", "ab",
	"abbb", "application/json", "application/json\n", "application/vnd.x+json", "application/x+json\n\n",
	"text/plain", "application/", "iopub.status.busy", "\u2028", "a\r", "\x00", "\U0001F600",
}

// Every matcher decides as the regexp it was compiled from.
func TestMatcherAgreesWithRegexp(t *testing.T) {
	ms := schemaPatterns(t)
	if len(ms) < 5 {
		t.Fatalf("only %d schema patterns", len(ms))
	}
	for _, p := range extraPatterns {
		for kind, compile := range map[string]func(string) (*matcher, error){"pattern ": compilePattern, "patternProperties ": compilePatternProperty} {
			m, err := compile(p)
			if err != nil {
				t.Fatal(err)
			}
			ms[kind+p] = m
		}
	}
	simple := 0
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "z", "-", "_", "9", ",", "\n", "\r", "/", "+", "é", "json", "application/", "x", "\U0001F600"}
	for name, m := range ms {
		if m.simple {
			simple++
		}
		strs := append([]string(nil), matchStrings...)
		for range 300 {
			var b strings.Builder
			for range rng.IntN(8) {
				b.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
			strs = append(strs, b.String())
		}
		for _, s := range strs {
			if got, want := m.Match([]byte(s)), m.re.Match([]byte(s)); got != want {
				t.Errorf("%s on %q: %v, the regexp says %v", name, s, got, want)
			}
		}
	}
	// The patterns of the v4.5 schema's cell ids, metadata names and tags,
	// execution timestamps and attachments take the quick path.
	for _, name := range []string{"pattern ^[a-zA-Z0-9-_]+$", "pattern ^.+$", "pattern ^[^,]+$", "patternProperties ^.*$", "patternProperties .*"} {
		if m := ms[name]; m == nil || !m.simple {
			t.Errorf("%s: not in the schemas, or not decided in one pass", name)
		}
	}
	if simple < len(ms)/2 {
		t.Errorf("only %d of %d patterns are simple", simple, len(ms))
	}
}

// FuzzMatcher compares matchers with their regexps on any pattern Compile
// accepts and any string.
func FuzzMatcher(f *testing.F) {
	for _, p := range extraPatterns {
		f.Add(p, "abc\n")
	}
	f.Add("^[a-zA-Z0-9-_]+$", "cell-1")
	f.Add("^application/(.*\\+)?json$", "application/x+json\n")
	f.Fuzz(func(t *testing.T, p, s string) {
		for _, compile := range []func(string) (*matcher, error){compilePattern, compilePatternProperty} {
			m, err := compile(p)
			if err != nil {
				continue
			}
			if got, want := m.Match([]byte(s)), m.re.Match([]byte(s)); got != want {
				t.Errorf("pattern %q on %q: %v, the regexp says %v", p, s, got, want)
			}
		}
	})
}

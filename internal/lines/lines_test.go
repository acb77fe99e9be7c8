package lines

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Join and Strings keep a list with a non-string element recognisable
// (ok false), so callers keep it as it is; JoinV3 follows nbformat 3's
// _join_lines (a list of lines ending in "\n" or "\r" joined as it is,
// older lists with "\n"). Split's agreement with Python is tested in
// package nbformat against CPython's output (TestSplitLinesMatchesPython,
// FuzzSplitLines).
func TestJoin(t *testing.T) {
	for _, c := range []struct {
		list []any
		text string
		ok   bool
	}{
		{nil, "", true},
		{[]any{"a\n", "b"}, "a\nb", true},
		{[]any{"a\n", 1, "b"}, "a\nb", false},
		{[]any{nil}, "", false},
	} {
		text, ok := Join(c.list)
		if text != c.text || ok != c.ok {
			t.Errorf("Join(%q) = %q, %v; want %q, %v", c.list, text, ok, c.text, c.ok)
		}
		ls, ok := Strings(c.list)
		if ok != c.ok || ok && len(ls) != len(c.list) {
			t.Errorf("Strings(%q) = %q, %v", c.list, ls, ok)
		}
	}
	for in, want := range map[string]string{"a\n|b": "a\nb", "a\r|b": "a\rb", "a|b": "a\nb", "": ""} {
		var ls []string
		if in != "" {
			ls = splitBar(in)
		}
		if got := JoinV3(ls); got != want {
			t.Errorf("JoinV3(%q) = %q, want %q", ls, got, want)
		}
	}
	if diff := cmp.Diff([]string{"a\r\n", "b\rc\n"}, SplitNewlines("a\r\nb\rc\n")); diff != "" {
		t.Errorf("SplitNewlines (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a\r\n", "b\r", "c\u2028", "d"}, Split("a\r\nb\rc\u2028d")); diff != "" {
		t.Errorf("Split (-want +got):\n%s", diff)
	}
}

func splitBar(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '|' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// Text joins a list of lines (Python nbformat: "".join(lines)), takes a
// string as it is, skips what is not a string in a list, and gives ""
// for any other value.
func TestText(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{[]any{"loss 0.31\n", "loss 0.27\n"}, "loss 0.31\nloss 0.27\n"},
		{"one string", "one string"},
		{[]any{"a", 1, "b"}, "ab"},
		{42, ""},
		{nil, ""},
	} {
		if got := Text(tc.v); got != tc.want {
			t.Errorf("Text(%#v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

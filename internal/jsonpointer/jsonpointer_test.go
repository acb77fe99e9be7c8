package jsonpointer

import (
	"slices"
	"testing"
)

// Tokens are escaped as RFC 6901 section 3 says ("~" first, so that "~1"
// in a name stays two characters).
func TestAppend(t *testing.T) {
	for _, tc := range []struct{ p, tok, want string }{
		{"", "cells", "/cells"},
		{"/m", "a/b", "/m/a~1b"},
		{"/m", "m~n", "/m/m~0n"},
		{"/m", "~1", "/m/~01"},
		{"/m", "", "/m/"},
	} {
		if got := AppendToken(tc.p, tc.tok); got != tc.want {
			t.Errorf("AppendToken(%q, %q) = %q, want %q", tc.p, tc.tok, got, tc.want)
		}
	}
	if got := AppendIndex("/cells", 12); got != "/cells/12" {
		t.Errorf("AppendIndex = %q", got)
	}
}

// Tokens undoes AppendToken and AppendIndex, "~1" and "~0" read as "/"
// and "~" (RFC 6901, section 4); the empty pointer has no tokens.
func TestTokens(t *testing.T) {
	toks := []string{"cells", "3", "a/b", "~x", "", "~1"}
	p := AppendIndex(AppendToken("", "cells"), 3)
	for _, tok := range toks[2:] {
		p = AppendToken(p, tok)
	}
	if want := "/cells/3/a~1b/~0x//~01"; p != want {
		t.Fatalf("pointer %q, want %q", p, want)
	}
	if got := slices.Collect(Tokens(p)); !slices.Equal(got, toks) {
		t.Errorf("Tokens(%q) = %q, want %q", p, got, toks)
	}
	if got := slices.Collect(Tokens("")); len(got) != 0 {
		t.Errorf("Tokens of the empty pointer: %q", got)
	}
}

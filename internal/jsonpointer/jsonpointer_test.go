package jsonpointer

import "testing"

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

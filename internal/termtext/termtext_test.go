package termtext

import "testing"

// The cases nbconvert's strip_ansi and a terminal agree on: what the
// screen shows after the text is written to it.
func TestPlain(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain\n", "plain\n"},
		{"\x1b[31mred\x1b[0m text", "red text"},
		{"\x1b[1;32mbold green\x1b[39;49m", "bold green"},
		{"\x1b]0;title\x07after", "after"},
		{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{" 10%\r 50%\r100%\n", "100%\n"},
		{"a\r\nb\r\n", "a\nb\n"},
		{"line\r", "line"},
		{"x\ty\x01", "x\ty\x01"},
	} {
		if got := Plain(c.in); got != c.want {
			t.Errorf("Plain(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

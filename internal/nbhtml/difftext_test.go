package nbhtml

import (
	"fmt"
	"testing"
)

// The spans marked inside a changed line.
func TestIntraLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ a, b, want string }{
		{"x = 1\n", "x = 2\n", "[{4 5}] [{4 5}]"},
		{"print('red')", "print('blue')", "[{7 10}] [{7 11}]"},
		{"#i nuget:c:\\temp\r\n", "#i nuget:c:\\temp\n", "[{16 17}] []"},
		{"a  ", "a", "[{1 3}] []"},
		{"completely different", "nothing in common here", "[] []"},
	} {
		am, bm := intraLine(c.a, c.b)
		if got := fmt.Sprint(am) + " " + fmt.Sprint(bm); got != c.want {
			t.Errorf("intraLine(%q, %q) = %s, want %s", c.a, c.b, got, c.want)
		}
	}
}

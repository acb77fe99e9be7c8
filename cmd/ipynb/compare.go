package main

import "bytes"

// compareWriter is an io.Writer that compares what is written with want
// as it arrives, so a round trip is checked without holding its output:
// the output of an unedited notebook is its input's own bytes, and a
// second copy of a 100 MB file is what made check's peak memory.
type compareWriter struct {
	want []byte
	n    int  // bytes written so far
	diff int  // offset of the first difference, when differs
	bad  bool // a difference was seen
}

// Write compares p with want at the current offset; it never fails.
func (c *compareWriter) Write(p []byte) (int, error) {
	if !c.bad {
		rest := c.want[min(c.n, len(c.want)):]
		k := min(len(p), len(rest))
		if i := firstDiff(p[:k], rest[:k]); i >= 0 {
			c.bad, c.diff = true, c.n+i
		} else if k < len(p) {
			c.bad, c.diff = true, c.n+k // longer than want
		}
	}
	c.n += len(p)
	return len(p), nil
}

// same reports whether exactly want was written.
func (c *compareWriter) same() bool { return !c.bad && c.n == len(c.want) }

// line returns the first line (1-based) of want where the output differs:
// one more than the newlines before the first differing byte (or before
// the end of the shorter of the two).
func (c *compareWriter) line() int {
	at := c.n // output shorter than want: differs where it ends
	if c.bad {
		at = c.diff
	}
	return 1 + bytes.Count(c.want[:min(at, len(c.want))], []byte{'\n'})
}

// firstDiff returns the first index where a and b (of equal length)
// differ, or -1.
func firstDiff(a, b []byte) int {
	if bytes.Equal(a, b) {
		return -1
	}
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
)

// zeros is an endless input of NUL bytes that counts what was taken.
type zeros struct{ n atomic.Int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n.Add(int64(len(p)))
	return len(p), nil
}

// Input without a size is refused while it is read: an endless stream of
// bytes that can never be JSON on standard input is refused at once
// (before: read to the 1 GiB limit), and so is /dev/zero named as a file.
func TestReadEndlessInput(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"check", "fmt", "strip", "show"} {
		z := &zeros{}
		c := exec.Command(binary, cmd, "-")
		c.Stdin = z
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		err := c.Run()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 2 {
			t.Errorf("%s -: %v, want exit status 2", cmd, err)
		}
		if msg := out.String() + errb.String(); !strings.Contains(msg, "1:1: invalid character U+0000") {
			t.Errorf("%s -: output %q does not name the place and the byte", cmd, msg)
		}
		// What the command read, plus what the pipe buffered.
		if n := z.n.Load(); n > 1<<20 {
			t.Errorf("%s - took %d bytes of an endless input before refusing it", cmd, n)
		}
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skipf("no /dev/zero: %v", err)
	}
	r := ipynb(t, ".", "", "check", "/dev/zero")
	if r.code != 2 || !strings.Contains(r.stderr, "/dev/zero: 1:1: invalid character U+0000") {
		t.Errorf("check /dev/zero: exit %d, stderr %q", r.code, r.stderr)
	}
}

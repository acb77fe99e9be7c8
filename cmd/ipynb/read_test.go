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
// (before: read to the 1 GiB limit), and so is /dev/zero named as a file;
// what it holds is reported as a file's that is not JSON is, at
// PATH:LINE:COLUMN: (a finding of check, fmt and strip; show needs a
// notebook).
func TestReadEndlessInput(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"check", "fmt", "strip", "show"} {
		z := &zeros{}
		c := exec.Command(binary, cmd, "-")
		c.Stdin = z
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		err := c.Run()
		want := 1
		if cmd == "show" {
			want = 2
		}
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != want {
			t.Errorf("%s -: %v, want exit status %d", cmd, err, want)
		}
		if msg := out.String() + errb.String(); !strings.Contains(msg, "<stdin>:1:1: invalid character U+0000") {
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
	if r.code != 1 || !strings.Contains(r.stdout, "/dev/zero:1:1: invalid character U+0000") {
		t.Errorf("check /dev/zero: exit %d, stdout %q", r.code, r.stdout)
	}
}

package main

// Tests that output that could not be written is an error, as cat > /dev/full
// is.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// failingWriter takes n bytes, then fails as a full disk does.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	k := w.n
	w.n = 0
	return k, syscall.ENOSPC
}

// Output that could not be written is an error (exit 2, a message on
// standard error), never a success: as cat > /dev/full fails, so does
// every command whose results, Markdown or stripped notebook were cut
// short — a git clean filter (strip -) above all.
func TestStdoutWriteErrors(t *testing.T) {
	t.Parallel()
	nb, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(shipped, "jupyter.ipynb")
	for _, args := range [][]string{
		{"check", path},
		{"check", "--json", path},
		{"show", path},
		{"md", path},
		{"strip", "-t", path},
		{"strip", "-"},
		{"fmt", "--canonical", "-"},
		{"--help"},
	} {
		for _, room := range []int{0, 10} {
			var errb bytes.Buffer
			e := &env{stdin: bytes.NewReader(nb), stdout: &failingWriter{n: room}, stderr: &errb}
			if code := run(e, args); code != exitError || !strings.Contains(errb.String(), "writing standard output: no space left on device") {
				t.Errorf("ipynb %s with %d bytes of room: exit %d, stderr %q", strings.Join(args, " "), room, code, errb.String())
			}
		}
	}
	// The binary, as a git clean filter writing to a full device.
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	cmd := exec.Command(binary, "strip", "-")
	cmd.Stdin, cmd.Stdout = bytes.NewReader(nb), full
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitError || !strings.Contains(errb.String(), "writing standard output") {
		t.Errorf("strip - > /dev/full: %v, %q", err, errb.String())
	}
}

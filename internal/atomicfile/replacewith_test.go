package atomicfile

// Tests of ReplaceWith: content written in pieces, check given the temporary's
// content, and errors returned as they are.

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// ReplaceWith writes content made in pieces (more than its buffer holds),
// gives check the temporary file's very content, and returns the errors
// of write and check as they are, leaving the file alone and no
// temporary behind; its stamp holds the content's digest.
func TestReplaceWith(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.ipynb")
	write(t, path, nb)
	content := bytes.Repeat([]byte("0123456789abcdef"), 100000) // 1.6 MB
	pieces := func(w io.Writer) error {
		for p := content; len(p) > 0; p = p[min(len(p), 7777):] {
			if _, err := w.Write(p[:min(len(p), 7777)]); err != nil {
				return err
			}
		}
		return nil
	}
	var seen []byte
	check := func(r io.ReaderAt, size int64) error {
		seen = make([]byte, size)
		_, err := r.ReadAt(seen, 0)
		return err
	}
	_, st, err := Read(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := ReplaceWith(path, pieces, check, Options{Expect: st})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, content) {
		t.Fatalf("the file holds %d bytes, not the %d written", len(got), len(content))
	}
	if !bytes.Equal(seen, content) {
		t.Errorf("check saw %d bytes, not the %d written", len(seen), len(content))
	}
	if sum := sha256.Sum256(content); s.Data() != nil || s.sum == nil || *s.sum != sum || s.size != int64(len(content)) {
		t.Errorf("stamp: data %d bytes, digest %v, size %d", len(s.Data()), s.sum != nil, s.size)
	}
	// The stamp returned is what a later Replace expects.
	if _, err := Replace(path, []byte(nb), Options{Expect: s}); err != nil {
		t.Fatalf("Replace over the file ReplaceWith wrote: %v", err)
	}
	errWrite, errCheck := errors.New("write failed"), errors.New("check failed")
	for name, c := range map[string]struct {
		write func(io.Writer) error
		check func(io.ReaderAt, int64) error
		want  error
	}{
		"write fails": {func(w io.Writer) error { w.Write(content[:100]); return errWrite }, nil, errWrite},
		"check fails": {pieces, func(io.ReaderAt, int64) error { return errCheck }, errCheck},
	} {
		if _, err := ReplaceWith(path, c.write, c.check, Options{}); err != c.want {
			t.Errorf("%s: ReplaceWith = %v, want the error as it is", name, err)
		}
		if got, _ := os.ReadFile(path); string(got) != nb {
			t.Errorf("%s: the file was changed: %d bytes", name, len(got))
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			t.Errorf("%s: %d files in the folder (a temporary left)", name, len(entries))
		}
	}
}

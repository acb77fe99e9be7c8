package nbformat

import (
	"bytes"
	"errors"
	"testing"
)

// A regular file that grows while it is read (its size from Stat is then
// too small) is read to its end, and refused once it passes MaxBytes.
func TestReadGrowingFile(t *testing.T) {
	t.Parallel()
	data := bytes.Repeat([]byte("x"), 100<<10)
	for _, size := range []int64{1, 10, 64 << 10, 100<<10 - 1} {
		got, err := UnmarshalOptions{}.readAll(bytes.NewReader(data), size)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("size %d: err %v, %d bytes of %d", size, err, len(got), len(data))
		}
		_, err = UnmarshalOptions{MaxBytes: int64(len(data)) - 1}.readAll(bytes.NewReader(data), size)
		if !errors.Is(err, ErrLimit) {
			t.Errorf("size %d, limit %d: %v, want ErrLimit", size, len(data)-1, err)
		}
	}
	// A file that shrank is read as it is.
	if got, err := (UnmarshalOptions{}).readAll(bytes.NewReader(data[:10]), 100); err != nil || len(got) != 10 {
		t.Errorf("shrunk file: %v, %d bytes", err, len(got))
	}
	// What a file grew by is checked as stdin is.
	grown := append([]byte(`{"nbformat": 4}`), 0)
	if _, err := (UnmarshalOptions{}).readAll(bytes.NewReader(grown), 3); err == nil {
		t.Error("a NUL byte appended to a growing file was accepted")
	}
}

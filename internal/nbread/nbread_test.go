package nbread_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbread"
)

// ReadAll returns the bytes, refuses more than the limit with a
// *LimitError, and calls refuse at the first byte no JSON holds.
// (nbformat's read tests cover it with nbformat's refusal.)
func TestReadAll(t *testing.T) {
	none := func([]byte) error { return nil }
	in := []byte(`{"a": [1, 2]}`)
	if got, err := nbread.ReadAll(bytes.NewReader(in), 0, int64(len(in)), none); err != nil || !bytes.Equal(got, in) {
		t.Errorf("ReadAll: %q, %v", got, err)
	}
	var le *nbread.LimitError
	if _, err := nbread.ReadAll(bytes.NewReader(in), 0, int64(len(in))-1, none); !errors.As(err, &le) || le.Limit != int64(len(in))-1 {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := nbread.ReadAll(bytes.NewReader(in), int64(len(in)), 4, none); !errors.As(err, &le) || !strings.Contains(err.Error(), "file is 13 bytes") {
		t.Errorf("a size over the limit: %v", err)
	}
	errNUL := errors.New("NUL")
	var seen []byte
	_, err := nbread.ReadAll(strings.NewReader("  {\x00"+strings.Repeat("x", 1<<20)), 0, 1<<30, func(prefix []byte) error {
		seen = prefix
		return errNUL
	})
	if err != errNUL || string(seen) != "  {\x00" {
		t.Errorf("refused with %v at %q", err, seen)
	}
}

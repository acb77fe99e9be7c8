package zerocopy_test

import (
	"testing"

	"github.com/nbdialog/ipynb/internal/zerocopy"
)

// The views hold the bytes viewed, in both builds; Raw gives the memory
// of the values (or nil with purego).
func TestViews(t *testing.T) {
	b := []byte("héllo")
	if s := zerocopy.String(b); s != "héllo" {
		t.Errorf("String: %q", s)
	}
	if s := zerocopy.String(nil); s != "" {
		t.Errorf("String(nil): %q", s)
	}
	if got := zerocopy.Bytes("abc"); string(got) != "abc" || len(got) != 3 {
		t.Errorf("Bytes: %q", got)
	}
	if got := zerocopy.Bytes(""); len(got) != 0 {
		t.Errorf("Bytes(\"\"): %q", got)
	}
	vals := []uint32{1, 2}
	raw := zerocopy.Raw(vals)
	switch {
	case !zerocopy.Views:
		if raw != nil {
			t.Errorf("purego Raw: %v, want nil", raw)
		}
	case len(raw) != 8:
		t.Errorf("Raw of two uint32: %d bytes", len(raw))
	default:
		raw[4] ^= 0xff // (little or big endian: the second value changes)
		if vals[1] == 2 || vals[0] != 1 {
			t.Errorf("Raw's bytes are not the values': %v", vals)
		}
	}
}

// In and StringIn tell views from copies.
func TestIn(t *testing.T) {
	whole := []byte("abcdef")
	if !zerocopy.In(whole[2:4], whole) || zerocopy.In([]byte("cd"), whole) || zerocopy.In(whole[:0], whole) {
		t.Error("In")
	}
	if got := zerocopy.StringIn(zerocopy.String(whole[1:3]), whole); got != zerocopy.Views {
		t.Errorf("StringIn of a view: %v", got)
	}
	if zerocopy.StringIn(string(whole[1:3]), whole) {
		t.Error("StringIn of a copy")
	}
}

package nbformat_test

// Tests of ReadAll and ReadFile: the size limit, early refusal of input that
// cannot be JSON, and NoCopy.

import (
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/nbdialog/ipynb/nbformat"
)

// endless repeats body after head forever, counting the bytes it gives.
type endless struct {
	head, body []byte
	pos        int64
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		var src []byte
		if e.pos < int64(len(e.head)) {
			src = e.head[e.pos:]
		} else {
			src = e.body[(e.pos-int64(len(e.head)))%int64(len(e.body)):]
		}
		k := copy(p[n:], src)
		n += k
		e.pos += int64(k)
	}
	return n, nil
}

// An input without a size that never ends, and is JSON so far, is refused
// at MaxBytes+1 bytes, whatever the limit, with buffers of at most the
// limit.
func TestReadAllRefusesEndlessInput(t *testing.T) {
	for _, limit := range []int64{1, 1000, 4096, 65536, 1<<20 + 3, 5 << 20} {
		t.Run(strconv.FormatInt(limit, 10), func(t *testing.T) {
			for _, how := range []string{"ReadAll", "Read"} {
				in := &endless{head: []byte(`{"nbformat": 4, "metadata": {"x": "`), body: []byte("abc ")}
				o := nbformat.UnmarshalOptions{MaxBytes: limit}
				var err error
				alloc := allocated(func() {
					if how == "ReadAll" {
						_, err = nbformat.ReadAll(in, o.MaxBytes)
					} else {
						_, err = o.Read(in)
					}
				})
				var se *nbformat.SyntaxError
				if !errors.Is(err, nbformat.ErrLimit) || !errors.As(err, &se) {
					t.Fatalf("%s: %v, want a *SyntaxError with ErrLimit", how, err)
				}
				if want := "more than the limit of " + strconv.FormatInt(limit, 10) + " bytes"; !strings.Contains(err.Error(), want) {
					t.Errorf("%s: %q does not say %q", how, err, want)
				}
				if in.pos > limit+1 {
					t.Errorf("%s read %d bytes, more than the limit %d + 1", how, in.pos, limit)
				}
				if alloc > uint64(limit)+16<<10 { // large allocations are rounded up to 8 KiB pages
					t.Errorf("%s allocated %d bytes refusing input at a limit of %d", how, alloc, limit)
				}
			}
		})
	}
}

// Input at the limit is read; one byte more is refused; the bytes come
// back exactly, however the reader splits them.
func TestReadAllLimitBoundary(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../testdata/jupyter.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte(" "), 300<<10) // whitespace spanning several chunks
	big = append(append(big, data...), big...)
	for _, in := range [][]byte{data, big} {
		n := int64(len(in))
		readers := map[string]func() io.Reader{
			"whole":    func() io.Reader { return bytes.NewReader(in) },
			"one-byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(in)) },
			"half":     func() io.Reader { return iotest.HalfReader(bytes.NewReader(in)) },
			"data-err": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(in)) },
		}
		for name, r := range readers {
			if name == "one-byte" && n > 64<<10 {
				continue
			}
			got, err := nbformat.ReadAll(r(), n)
			if err != nil || !bytes.Equal(got, in) {
				t.Errorf("%s, %d bytes at a limit of %d: err %v, same bytes %v", name, n, n, err, bytes.Equal(got, in))
			}
			if _, err := nbformat.ReadAll(r(), n-1); !errors.Is(err, nbformat.ErrLimit) {
				t.Errorf("%s, %d bytes at a limit of %d: %v, want ErrLimit", name, n, n-1, err)
			}
		}
		nb, err := nbformat.UnmarshalOptions{}.Read(bytes.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		if out, _ := nbformat.Marshal(nb); !bytes.Equal(out, in) {
			t.Errorf("Read then Marshal changed the bytes")
		}
	}
}

// Input that can never be JSON is refused as soon as the offending byte is
// read, with the parser's error at that byte, not after MaxBytes of it.
func TestReadAllRefusesNonJSONAtOnce(t *testing.T) {
	t.Parallel()
	prefix := `{"nbformat": 4, "metadata": {"x": "` + strings.Repeat("a", 200<<10)
	tests := []struct {
		name       string
		head, body string
		off        int64 // of the offending byte
		line, col  int
		msg        string
	}{
		{"Zeros", "", "\x00", 0, 1, 1, "invalid character"},
		{"Yes", "", "y\n", 0, 1, 1, "invalid character 'y'"},
		{"NonASCII", "", "é", 0, 1, 1, "invalid character U+00E9"},
		{"FourByteChar", " ", "\U0001F600", 1, 1, 2, "invalid character U+1F600"},
		{"SpacesThenGarbage", "  \n ", "@", 4, 2, 2, "invalid character '@'"},
		{"NULInString", prefix, "\x00", int64(len(prefix)), 1, len(prefix) + 1, "control character"},
		{"EscapeCharAfterValue", `{"nbformat": 4}` + "\n", "\x1b[2J", 16, 2, 1, "invalid character"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, how := range []string{"ReadAll", "Read"} {
				in := &endless{head: []byte(tc.head), body: []byte(tc.body)}
				var err error
				if how == "ReadAll" {
					_, err = nbformat.ReadAll(in, 0)
				} else {
					_, err = nbformat.UnmarshalOptions{}.Read(in)
				}
				var se *nbformat.SyntaxError
				if !errors.As(err, &se) || errors.Is(err, nbformat.ErrLimit) {
					t.Fatalf("%s: %v, want a *SyntaxError that is not a limit", how, err)
				}
				if se.Offset != tc.off || se.Line != tc.line || se.Column != tc.col || !strings.Contains(se.Msg, tc.msg) {
					t.Errorf("%s: error at offset %d, line %d, column %d (%v); want %d, %d, %d, %q", how, se.Offset, se.Line, se.Column, err, tc.off, tc.line, tc.col, tc.msg)
				}
				// Read in chunks of at most 64 KiB, doubling up to 16 MiB.
				if max := 2*tc.off + 64<<10; in.pos > max {
					t.Errorf("%s read %d bytes before refusing (offending byte at %d)", how, in.pos, tc.off)
				}
			}
		})
	}
}

// /dev/zero has no size: it is refused at its first byte, by ReadFile and
// ReadAll, instead of being read to the limit.
func TestReadDevZero(t *testing.T) {
	t.Parallel()
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Skipf("no /dev/zero: %v", err)
	}
	defer f.Close()
	count := &countingReader{r: f}
	_, err = nbformat.ReadAll(count, 0)
	var se *nbformat.SyntaxError
	if !errors.As(err, &se) || se.Line != 1 || se.Column != 1 {
		t.Errorf("ReadAll(/dev/zero): %v, want a syntax error at line 1, column 1", err)
	}
	if count.n > 64<<10 {
		t.Errorf("read %d bytes of /dev/zero", count.n)
	}
	_, err = nbformat.ReadFile("/dev/zero")
	if !errors.As(err, &se) || se.Line != 1 || !strings.Contains(err.Error(), "/dev/zero:1:1:") {
		t.Errorf("ReadFile(/dev/zero): %v", err)
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Reading a stream never changes a verdict: ReadAll returns the bytes
// exactly, or refuses early with the very error Unmarshal gives for the
// whole input (same offset, line, column and message), however the reader
// splits the input.
func FuzzReadAll(f *testing.F) {
	f.Add([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}`))
	f.Add([]byte("\x00"))
	f.Add([]byte("  \n y"))
	f.Add([]byte("{\"a\": \"b\x01\"}"))
	f.Add([]byte("\xef\xbb\xbf{}"))
	f.Add([]byte("[1, 2]\x1b"))
	f.Add([]byte("NaN"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, r := range []io.Reader{bytes.NewReader(data), iotest.OneByteReader(bytes.NewReader(data)), iotest.HalfReader(bytes.NewReader(data))} {
			got, err := nbformat.ReadAll(r, 0)
			if err == nil {
				if !bytes.Equal(got, data) {
					t.Fatalf("ReadAll changed the bytes")
				}
				continue
			}
			var early, whole *nbformat.SyntaxError
			if !errors.As(err, &early) {
				t.Fatalf("ReadAll: %v", err)
			}
			_, werr := nbformat.Unmarshal(data)
			if !errors.As(werr, &whole) || *early != *whole {
				t.Fatalf("ReadAll refused with %v; Unmarshal says %v", err, werr)
			}
		}
	})
}

// NoCopy keeps the caller's bytes: an unedited notebook is written from
// them, and reading allocates no copy of them (a text read as one string
// without escapes shares them).
func TestUnmarshalNoCopy(t *testing.T) {
	text := strings.Repeat("x", 1<<16)
	data := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "raw", "id": "a", "metadata": {}, "source": "` + text + `"}]}`)
	nb, err := nbformat.UnmarshalOptions{NoCopy: true}.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := nbformat.Marshal(nb); err != nil || !bytes.Equal(out, data) {
		t.Fatalf("Marshal: %.40q, %v", out, err)
	}
	if nb.Cells[0].(*nbformat.RawCell).Source.String() != text {
		t.Fatal("the source read is not the text")
	}
	if _, err := (nbformat.UnmarshalOptions{NoCopy: true}).Unmarshal([]byte("[]")); err == nil {
		t.Error("a JSON array read as a notebook")
	}
	allocated := func(o nbformat.UnmarshalOptions) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := o.Unmarshal(data); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	if shared, copied := allocated(nbformat.UnmarshalOptions{NoCopy: true}), allocated(nbformat.UnmarshalOptions{}); shared+uint64(len(text)) > copied {
		t.Errorf("NoCopy allocates %d bytes, Unmarshal %d: no copy of the %d bytes spared", shared, copied, len(data))
	}
}

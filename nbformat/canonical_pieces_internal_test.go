package nbformat

// Tests of canonical output written in pieces: the same bytes as
// marshalCanonical, and resumeWriter's passing on of new bytes only.

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
)

// MarshalTo with Canonical writes, in pieces, exactly what marshalCanonical
// builds, and fails where it fails; a writer comparing the pieces with the
// bytes read finds them equal exactly when those are canonical: over the
// module's testdata, the corpus sample (whose "same" entries Python
// nbformat writes back unchanged), and copies of each with a space added
// after a line break at the middle of the file, and with the final newline
// dropped.
func TestCanonicalPiecesAreMarshalCanonical(t *testing.T) {
	t.Parallel()
	inputs := map[string][]byte{}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs[p] = data
	}
	same, recognised := 0, 0
	for e, data := range corpus.Sample(t) {
		inputs[e.Path] = data
		if e.Ref == "same" {
			same++
		}
	}
	for name, data := range inputs {
		variants := map[string][]byte{"": data}
		if i := bytes.IndexByte(data[len(data)/2:], '\n'); i >= 0 {
			at := len(data)/2 + i + 1
			variants[" (space added)"] = append(append(bytes.Clone(data[:at]), ' '), data[at:]...)
		}
		if n := len(data); n > 0 && data[n-1] == '\n' {
			variants[" (no final newline)"] = data[:n-1]
		}
		for v, in := range variants {
			nb, err := Unmarshal(in)
			if err != nil {
				continue
			}
			where := name + v
			built, werr := marshalCanonical(nb)
			var pieces bytes.Buffer
			err = MarshalOptions{Canonical: true}.MarshalTo(&pieces, nb)
			switch {
			case werr != nil:
				if err == nil || err.Error() != werr.Error() {
					t.Errorf("%s: MarshalTo error %v, marshalCanonical's %v", where, err, werr)
				}
				continue
			case err != nil:
				t.Errorf("%s: MarshalTo fails (%v) where marshalCanonical writes", where, err)
				continue
			case !bytes.Equal(pieces.Bytes(), built):
				t.Errorf("%s: MarshalTo writes other bytes than marshalCanonical", where)
			}
			cw := &compareWriter{want: in}
			err = MarshalOptions{Canonical: true}.MarshalTo(cw, nb)
			same := err == nil && cw.off == len(in)
			if err != nil && !errors.Is(err, errCompared) {
				t.Errorf("%s: comparing: %v", where, err)
			}
			if same != bytes.Equal(built, in) {
				t.Errorf("%s: compared as written, same %v; the bytes are canonical: %v", where, same, !same)
			}
			if same {
				recognised++
			}
		}
	}
	t.Logf("%d inputs, %d written back unchanged by Python, %d recognised canonical", len(inputs), same, recognised)
	if same > 0 && recognised == 0 {
		t.Error("no input recognised canonical")
	}
}

// errCompared: a compareWriter was given other bytes than it wants.
var errCompared = errors.New("differs")

// compareWriter takes the bytes of want in order (off of them so far).
type compareWriter struct {
	want []byte
	off  int
}

func (w *compareWriter) Write(p []byte) (int, error) {
	if !bytes.HasPrefix(w.want[w.off:], p) {
		return 0, errCompared
	}
	w.off += len(p)
	return len(p), nil
}

// A resumeWriter given the same bytes again from the start, in other
// pieces, passes on only those past what it passed before.
func TestResumeWriter(t *testing.T) {
	text := "0123456789abcdefghij"
	for cut := 0; cut <= len(text); cut++ {
		var got bytes.Buffer
		r := &resumeWriter{w: &got}
		for _, p := range []string{text[:cut/2], text[cut/2 : cut]} {
			r.Write([]byte(p))
		}
		r.pos = 0 // started again
		for i := 0; i < len(text); i += 3 {
			if n, err := r.Write([]byte(text[i:min(i+3, len(text))])); err != nil || n != min(3, len(text)-i) {
				t.Fatalf("cut %d: Write at %d: %d, %v", cut, i, n, err)
			}
		}
		if got.String() != text {
			t.Errorf("cut %d: passed on %q, want %q", cut, got.String(), text)
		}
	}
}

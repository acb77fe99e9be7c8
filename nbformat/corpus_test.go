package nbformat_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// firstDiff describes where two byte slices first differ.
func firstDiff(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	lo := max(0, i-60)
	return "at byte " + itoa(i) + ":\nwant …" + string(want[lo:min(len(want), i+60)]) + "…\n got …" + string(got[lo:min(len(got), i+60)]) + "…"
}

func itoa(i int) string { return string(bytes.TrimSpace([]byte(fmtInt(i)))) }

// Acceptance 1: every corpus file that parses comes back byte for byte.
func TestCorpusRoundTrip(t *testing.T) {
	dir, entries := corpus.Entries(t)
	n := 0
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Path))
		if err != nil {
			t.Fatal(err)
		}
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			if e.Ref != "error" {
				t.Errorf("%s: %v", e.Path, err)
			}
			continue
		}
		got, err := nbformat.Marshal(nb)
		if err != nil {
			t.Errorf("%s: Marshal: %v", e.Path, err)
			continue
		}
		if !bytes.Equal(got, data) {
			t.Errorf("%s: round trip differs %s", e.Path, firstDiff(data, got))
		}
		n++
	}
	t.Logf("%d files round-tripped", n)
}

// Acceptance 2: canonical bytes equal Python nbformat's, for every v4 file.
func TestCorpusCanonical(t *testing.T) {
	dir, entries := corpus.Entries(t)
	cdir := corpus.CanonicalDir(t)
	n := 0
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Path))
		if err != nil {
			t.Fatal(err)
		}
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat != 4 || e.Ref == "error" {
			continue // Python nbformat cannot write the file: no reference
		}
		want, err := os.ReadFile(filepath.Join(cdir, e.Path))
		if os.IsNotExist(err) {
			want = data // nbformat writes it unchanged
		} else if err != nil {
			t.Fatal(err)
		}
		got, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
		if err != nil {
			t.Errorf("%s: %v", e.Path, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: canonical differs %s", e.Path, firstDiff(want, got))
		}
		n++
	}
	t.Logf("%d v4 files compared", n)
}

// Acceptance 4: editing the middle cell's source changes no byte outside
// that cell's span.
func TestCorpusEditLocality(t *testing.T) {
	dir, entries := corpus.Entries(t)
	n := 0
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Path))
		if err != nil {
			t.Fatal(err)
		}
		nb, err := nbformat.Unmarshal(data)
		if err != nil || len(nb.Cells) < 3 {
			continue
		}
		mid := len(nb.Cells) / 2
		start, end := cellSpan(t, data, mid)
		switch c := nb.Cells[mid].(type) {
		case *nbformat.CodeCell:
			c.Source.Set(c.Source.String() + "\nprint('edited \u00e9')")
		case *nbformat.MarkdownCell:
			c.Source.Set("edited: " + c.Source.String())
		case *nbformat.RawCell:
			c.Source.Set("")
			c.Source.Set("edited")
		default:
			t.Errorf("%s: middle cell is %T", e.Path, c)
			continue
		}
		got, err := nbformat.Marshal(nb)
		if err != nil {
			t.Errorf("%s: %v", e.Path, err)
			continue
		}
		tail := len(data) - end
		if len(got) < start+tail || !bytes.Equal(got[:start], data[:start]) || !bytes.Equal(got[len(got)-tail:], data[end:]) {
			t.Errorf("%s: bytes outside cell %d changed %s", e.Path, mid, firstDiff(data, got))
			continue
		}
		// The edit is really there, and the result is a notebook again.
		back, err := nbformat.Unmarshal(got)
		if err != nil {
			t.Errorf("%s: edited output does not parse: %v", e.Path, err)
			continue
		}
		if g, w := nbformat.SourceOf(back.Cells[mid]).String(), nbformat.SourceOf(nb.Cells[mid]).String(); g != w {
			t.Errorf("%s: edited source reads back as %q, want %q", e.Path, g, w)
		}
		n++
	}
	t.Logf("%d notebooks edited", n)
}

package nbformat_test

// The acceptance tests over the corpus: round trip, canonical bytes, edit
// locality, validation and v3 upgrade, against Python nbformat.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// Acceptance 1: every corpus file that parses comes back byte for byte.
func TestCorpusRoundTrip(t *testing.T) {
	t.Parallel()
	n := 0
	for e, data := range corpus.Sample(t) {
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
	t.Parallel()
	cdir := corpus.CanonicalDir(t)
	n := 0
	for e, data := range corpus.Sample(t) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat != 4 {
			continue
		}
		if e.Ref == "error" {
			// Python nbformat cannot write the file: no canonical form.
			if _, err := (nbformat.MarshalOptions{Canonical: true}).Marshal(nb); !errors.Is(err, nbformat.ErrNotCanonical) {
				t.Errorf("%s: Python cannot write it, yet canonical Marshal gives %v", e.Path, err)
			}
			continue
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
	t.Parallel()
	n := 0
	for e, data := range corpus.Sample(t) {
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

// Acceptance 3: Validate's verdict equals Python's strict isvalid on every
// corpus file, and every problem's pointer resolves in the file.
func TestCorpusValidate(t *testing.T) {
	t.Parallel()
	counts := map[string]int{}
	for e, data := range corpus.Sample(t) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			if e.Schema != "invalid" {
				t.Errorf("%s: %v", e.Path, err)
			}
			continue
		}
		verr := nbformat.Validate(nb)
		got := "valid"
		if verr != nil {
			got = "invalid"
		}
		counts[got]++
		if got != e.Schema {
			t.Errorf("%s: Validate says %s, Python says %s: %v", e.Path, got, e.Schema, verr)
		}
		for _, p := range nbformat.Problems(verr) {
			if !resolves(data, string(p.Pointer)) {
				t.Errorf("%s: pointer %q does not resolve (%v)", e.Path, p.Pointer, p)
			}
		}
	}
	t.Logf("verdicts: %v", counts)
}

// Upgrade of every v3 corpus file gives what Python nbformat gives (ids
// aside: Python's are random), as computed by
// scripts/reference/nbformat_upgrade.py with Debian's python3-nbformat.
// Where Python cannot upgrade a file, ours must fail too or give a valid
// notebook.
func TestCorpusUpgradeV3(t *testing.T) {
	t.Parallel()
	dir, entries := corpus.Entries(t)
	python := pythonNbformat(t)
	var paths []string
	for _, e := range entries {
		if e.Writer == "jupyter-v3" || e.Writer == "jupyter-v2" {
			paths = append(paths, filepath.Join(dir, e.Path))
		}
	}
	tmp := t.TempDir()
	if out, err := exec.Command(python, append([]string{referenceScript(t, "nbformat_upgrade.py"), tmp}, paths...)...).CombinedOutput(); err != nil {
		t.Fatalf("reference: %v\n%s", err, out)
	}
	n := 0
	for i, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if nb.Nbformat != 3 && nb.Nbformat != 2 {
			continue
		}
		want, werr := os.ReadFile(filepath.Join(tmp, strconv.Itoa(i)+".ipynb"))
		uerr := nbformat.Upgrade(nb)
		if werr != nil {
			if uerr == nil {
				if verr := nbformat.Validate(nb); verr != nil {
					t.Errorf("%s: Python cannot upgrade it; our upgrade is invalid: %v", path, verr)
				}
			}
			continue
		}
		if uerr != nil {
			t.Errorf("%s: %v", path, uerr)
			continue
		}
		if nb.Nbformat != 4 || nb.NbformatMinor != 5 {
			t.Errorf("%s: upgraded to %d.%d", path, nb.Nbformat, nb.NbformatMinor)
		}
		ids := map[nbformat.CellID]bool{}
		for _, c := range nb.Cells {
			id := nbformat.CellIDOf(c)
			if len(id) != 8 || ids[id] {
				t.Errorf("%s: bad or repeated id %q", path, id)
			}
			ids[id] = true
			nbformat.SetCellID(c, "ID")
		}
		got, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: upgrade differs from Python's %s", path, firstDiff(want, got))
		}
		n++
	}
	t.Logf("%d v3 notebooks upgraded", n)
}

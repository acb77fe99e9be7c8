// Package corpus gives tests access to the shared corpus of real notebooks
// (../shared/corpus beside the module, or $IPYNB_CORPUS) and to its
// MANIFEST.tsv, which records Python nbformat's verdicts on each file.
// The corpus exists only on the development machine: tests call Dir or
// Entries, which skip the test when it is absent. Files yields every
// file with its bytes; Sample yields the test tier's sample of them (all in
// the long tier, every eighth in the fast one: see internal/testtier).
package corpus

import (
	"bufio"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// Entry is one row of MANIFEST.tsv.
type Entry struct {
	Path   string // relative to the corpus directory
	Writer string // writer_guess
	Ref    string // what Python nbformat's read+write does: same, diff, invalid, error
	Schema string // strict schema verdict: valid, invalid
}

// root returns the directory holding go.mod.
func root() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Shared returns the ../shared directory beside the module ("" if absent).
func Shared() string {
	if r := root(); r != "" {
		d := filepath.Join(r, "..", "shared")
		if _, err := os.Stat(d); err == nil {
			return d
		}
	}
	return ""
}

// Dir returns the corpus directory, skipping t when there is none.
func Dir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("IPYNB_CORPUS")
	if dir == "" {
		if s := Shared(); s != "" {
			dir = filepath.Join(s, "corpus")
		}
	}
	if dir == "" {
		t.Skip("corpus not present (../shared/corpus or $IPYNB_CORPUS)")
	}
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		t.Skipf("corpus not present: %v", err)
	}
	return dir
}

// CanonicalDir returns the directory of Python nbformat's canonical bytes
// for the corpus files it rewrites, skipping t when there is none.
func CanonicalDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(filepath.Dir(Dir(t)), "corpus-canonical")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus-canonical not present: %v", err)
	}
	return dir
}

// Entries reads MANIFEST.tsv, skipping t when the corpus is absent.
func Entries(t testing.TB) (dir string, entries []Entry) {
	t.Helper()
	dir = Dir(t)
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	header := true
	for sc.Scan() {
		if header {
			header = false
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 7 {
			continue
		}
		entries = append(entries, Entry{Path: cols[0], Writer: cols[4], Ref: cols[5], Schema: cols[6]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 {
		t.Fatal("empty MANIFEST.tsv")
	}
	return dir, entries
}

// Files reads MANIFEST.tsv (skipping t when the corpus is absent) and
// yields each entry with the bytes of its file, failing t when a listed
// file cannot be read.
func Files(t testing.TB) iter.Seq2[Entry, []byte] {
	t.Helper()
	return files(t, false)
}

// Sample is Files over the test tier's sample of the corpus: every entry
// in the long tier, every eighth one (the first, the ninth, …) in the
// fast tier (see internal/testtier).
func Sample(t testing.TB) iter.Seq2[Entry, []byte] {
	t.Helper()
	return files(t, true)
}

func files(t testing.TB, sample bool) iter.Seq2[Entry, []byte] {
	t.Helper()
	dir, entries := Entries(t)
	return func(yield func(Entry, []byte) bool) {
		for i, e := range entries {
			if sample && !testtier.Sample(i) {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, e.Path))
			if err != nil {
				t.Fatal(err)
			}
			if !yield(e, data) {
				return
			}
		}
	}
}

package main

// Tests of the folder search on several goroutines: the notebooks, the
// entries skipped and the duplicates left out are those of a search of one
// folder after another.

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// A tree of folders searched at once by up to 1, 2 and 8 goroutines gives
// the notebooks in name order and names what it skipped in the order of
// the search: a pipe, a link to a file found earlier in another folder
// (the first name kept), a link leading out, a link to nothing.
func TestWalkParallelAsInOrder(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	elsewhere := t.TempDir()
	write := func(rel string) {
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"a/1.ipynb", "a/sub/deeper/2.ipynb", "c/3.ipynb", "c/d/e/4.ipynb"}
	for _, rel := range want {
		write(rel)
	}
	for i := range 20 {
		rel := filepath.Join("m"+string(rune('a'+i)), "x.ipynb")
		write(rel)
		want = append(want, rel)
	}
	write("z.ipynb")
	want = append(want, "z.ipynb")
	os.MkdirAll(filepath.Join(base, "b"), 0o755)
	mkfifo(t, filepath.Join(base, "b", "fifo.ipynb"))
	os.Symlink(filepath.Join(base, "a", "1.ipynb"), filepath.Join(base, "b", "link.ipynb"))
	os.WriteFile(filepath.Join(elsewhere, "out.ipynb"), []byte("{}"), 0o644)
	realOut, _ := filepath.EvalSymlinks(filepath.Join(elsewhere, "out.ipynb"))
	os.Symlink(filepath.Join(elsewhere, "out.ipynb"), filepath.Join(base, "b", "out.ipynb"))
	os.Symlink(filepath.Join(base, "nowhere"), filepath.Join(base, "c", "gone.ipynb"))
	q := func(rel string) string { return quoteName(filepath.Join(base, rel)) }
	wantErr := strings.Join([]string{
		q("b/fifo.ipynb") + ": skipped: not a regular file (a named pipe)",
		q("b/link.ipynb") + ": skipped: the same file as " + q("a/1.ipynb"),
		q("b/out.ipynb") + ": skipped: a symbolic link to " + realOut + ", outside the folders given (--follow follows it)",
		q("c/gone.ipynb") + ": skipped: a symbolic link to a missing file",
	}, "\n") + "\n"
	root, _ := filepath.EvalSymlinks(base)
	for _, goroutines := range []int{1, 2, 8} {
		for range 10 {
			var errb bytes.Buffer
			verbose := true
			w := &walker{e: &env{stderr: &errb}, o: &walkOptions{cmd: "check", verbose: &verbose}, ok: true, roots: []string{root}}
			if goroutines > 1 {
				w.sem = make(chan struct{}, goroutines-1)
			}
			w.dir(base, true)
			var got []string
			for _, in := range w.found {
				rel, _ := filepath.Rel(base, in.path)
				got = append(got, rel)
			}
			sort.Strings(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%d goroutines found\n%q\nwant\n%q", goroutines, got, want)
			}
			if errb.String() != wantErr {
				t.Fatalf("%d goroutines said\n%s\nwant\n%s", goroutines, errb.String(), wantErr)
			}
			if !w.ok || w.skipped != 3 || w.foundHere != len(want)+1 {
				t.Fatalf("%d goroutines: ok %v, %d skipped, %d found (want true, 3, %d)", goroutines, w.ok, w.skipped, w.foundHere, len(want)+1)
			}
		}
	}
}

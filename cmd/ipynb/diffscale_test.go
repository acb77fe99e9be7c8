package main

// Tests that the work of merge, diff and fix, counted in the text diff's steps,
// grows linearly with the notebook.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/internal/textdiff"
	"github.com/nbdialog/ipynb/internal/textdiff/textshape"
)

// The work of merge, diff and fix, counted in the text diff's steps
// (textdiff.Work: every comparison of lines, cells and cell contents goes
// through it), grows linearly with the notebook: one cell of each text
// shape, many cells with ids, many without (aligned by content), cells
// of nested repeats without ids. Counts, not time: the machine's load
// does not change them. Work is the whole program's: these tests run
// alone, in a process of their own (isolated) or not in parallel.

// An nbShape makes a base notebook of about n units (lines or cells) and
// two edited versions.
type nbShape struct {
	name  string
	sizes []int
	gen   func(n int) (base, ours, theirs []byte)
}

func nbShapes() []nbShape {
	lines := []int{16000, 32000, 64000} // past them, the line shapes' edits are over maxCost a box
	cells := []int{2000, 4000, 8000}
	if testing.Short() {
		lines, cells = lines[:2], cells[:2]
	}
	var out []nbShape
	for _, sh := range textshape.All {
		out = append(out, nbShape{"cell/" + sh.Name, lines, func(n int) (b, o, t []byte) {
			base, ours, theirs := sh.Gen(n)
			return notebookOf(true, base), notebookOf(true, ours), notebookOf(true, theirs)
		}})
	}
	for _, ids := range []bool{true, false} {
		name := map[bool]string{true: "cells/ids", false: "cells/no-ids"}[ids]
		out = append(out, nbShape{name, cells, func(n int) (b, o, t []byte) {
			base, ours, theirs := manyCells(n)
			return notebookOf(ids, base...), notebookOf(ids, ours...), notebookOf(ids, theirs...)
		}})
	}
	out = append(out, nbShape{"cells/no-ids/nested", cells, func(n int) (b, o, t []byte) {
		base, ours, theirs := textshape.All[2].Gen(n) // nested
		return notebookOf(false, cellsOf(base)...), notebookOf(false, cellsOf(ours)...), notebookOf(false, cellsOf(theirs)...)
	}})
	return out
}

// manyCells: n cells of four lines; ours edits a line of every tenth
// cell, theirs another line of every tenth cell five further, and each
// side inserts a cell every 50.
func manyCells(n int) (base, ours, theirs [][]string) {
	for i := range n {
		base = append(base, []string{fmt.Sprintf("# cell %d\n", i), "x = 1\n", fmt.Sprintf("y = %d\n", i%7), "print(x)"})
	}
	for i, c := range base {
		o, t := slices.Clone(c), slices.Clone(c)
		switch i % 10 {
		case 3:
			o[1] = "x = 2\n"
		case 8:
			t[2] = "y = 0\n"
		}
		ours, theirs = append(ours, o), append(theirs, t)
		if i%50 == 20 {
			ours = append(ours, []string{fmt.Sprintf("ours %d", i)})
		}
		if i%50 == 45 {
			theirs = append(theirs, []string{fmt.Sprintf("theirs %d", i)})
		}
	}
	return base, ours, theirs
}

// cellsOf makes each line a cell.
func cellsOf(lines []string) [][]string {
	out := make([][]string, len(lines))
	for i, l := range lines {
		out[i] = []string{strings.TrimSuffix(l, "\n")}
	}
	return out
}

// notebookOf writes a version 4 notebook of code cells with the given
// sources (lists of lines), as Jupyter lays it out: nbformat 4.5 with
// cell ids, or 4.4 without.
func notebookOf(ids bool, sources ...[]string) []byte {
	type cell struct {
		CellType       string         `json:"cell_type"`
		ExecutionCount *int           `json:"execution_count"`
		ID             string         `json:"id,omitempty"`
		Metadata       map[string]any `json:"metadata"`
		Outputs        []any          `json:"outputs"`
		Source         []string       `json:"source"`
	}
	nb := struct {
		Cells         []cell         `json:"cells"`
		Metadata      map[string]any `json:"metadata"`
		Nbformat      int            `json:"nbformat"`
		NbformatMinor int            `json:"nbformat_minor"`
	}{Metadata: map[string]any{}, Nbformat: 4, NbformatMinor: 4}
	if ids {
		nb.NbformatMinor = 5
	}
	for _, src := range sources {
		c := cell{CellType: "code", Metadata: map[string]any{}, Outputs: []any{}, Source: src}
		switch {
		case ids && len(sources) == 1:
			c.ID = "cell"
		case ids:
			c.ID = idOf(src[0])
		}
		nb.Cells = append(nb.Cells, c)
	}
	data, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		panic(err)
	}
	return append(data, '\n')
}

// idOf makes a cell's id of its first line ("# cell 12" → "cell-12"),
// so that a cell keeps its id in every version.
func idOf(first string) string {
	f := strings.Fields(strings.TrimPrefix(first, "# "))
	if len(f) == 0 || len(f) > 3 {
		return "text"
	}
	return strings.Join(f, "-")
}

// runCounted runs ipynb in process with stdin and returns its exit
// status and the steps textdiff.Work counted meanwhile.
func runCounted(t testing.TB, stdin []byte, args ...string) (status, steps int) {
	t.Helper()
	var stderr bytes.Buffer
	e := &env{stdin: bytes.NewReader(stdin), stdout: io.Discard, stderr: &stderr}
	w := textdiff.Work()
	status = run(e, args)
	if status == exitError {
		t.Fatalf("ipynb %s: exit 2\n%s", strings.Join(args, " "), stderr.Bytes())
	}
	return status, int(textdiff.Work() - w)
}

// writeFiles writes the named texts into a fresh folder.
func writeFiles(t testing.TB, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// conflicted returns what git merge-file --diff3 leaves of the notebooks'
// JSON when both sides also change the first cell's first line, each
// its own way: a file for ipynb fix.
func conflicted(t testing.TB, base, ours, theirs []byte) []byte {
	t.Helper()
	first := func(data []byte, to string) []byte { // the first line's text replaced
		i := bytes.Index(data, []byte(`"source": [`))
		j := i + bytes.IndexByte(data[i:], '\n') + 1
		k := j + bytes.IndexByte(data[j:], '\n')
		q1, q2 := j+bytes.IndexByte(data[j:k], '"'), j+bytes.LastIndexByte(data[j:k], '"')
		return slices.Concat(data[:q1+1], []byte(to), data[q2:])
	}
	dir := writeFiles(t, map[string][]byte{"base": base, "ours": first(ours, "ours' first line"), "theirs": first(theirs, "theirs' first line")})
	cmd := exec.Command("git", "merge-file", "-p", "--diff3", "-L", "ours", "-L", "base", "-L", "theirs", "ours", "base", "theirs")
	cmd.Dir = dir
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() < 1 {
		t.Fatalf("git merge-file: want conflicts, got %v", err)
	}
	return out
}

// TestMergeDiffFixWorkScales: doubling the notebook at most about
// doubles the steps of merge, diff and fix, on every shape.
func TestMergeDiffFixWorkScales(t *testing.T) {
	if isolated(t) {
		return
	}
	_, err := exec.LookPath("git")
	for _, sh := range nbShapes() {
		if !testtier.Full() {
			// One doubling from half the least size; every size in the
			// long tier.
			sh.sizes = []int{sh.sizes[0] / 2, sh.sizes[0]}
		}
		counts := map[string][]int{}
		for _, n := range sh.sizes {
			base, ours, theirs := sh.gen(n)
			dir := writeFiles(t, map[string][]byte{"base.ipynb": base, "ours.ipynb": ours, "theirs.ipynb": theirs})
			in := func(name string) string { return filepath.Join(dir, name) }
			_, s := runCounted(t, nil, "merge", "-o", in("out.ipynb"), in("base.ipynb"), in("ours.ipynb"), in("theirs.ipynb"))
			counts["merge"] = append(counts["merge"], s)
			_, s = runCounted(t, nil, "diff", "--color", "never", in("base.ipynb"), in("ours.ipynb"))
			counts["diff"] = append(counts["diff"], s)
			if err == nil {
				if err := os.WriteFile(in("fix.ipynb"), conflicted(t, base, ours, theirs), 0o644); err != nil {
					t.Fatal(err)
				}
				_, s = runCounted(t, nil, "fix", in("fix.ipynb"))
				counts["fix"] = append(counts["fix"], s)
			}
		}
		for _, cmd := range []string{"merge", "diff", "fix"} {
			c := counts[cmd]
			msg := fmt.Sprintf("%s %s:", cmd, sh.name)
			for i := range c {
				msg += fmt.Sprintf(" %d: %d steps", sh.sizes[i], c[i])
				if i > 0 {
					g := float64(c[i]) / float64(c[i-1])
					msg += fmt.Sprintf(" (×%.2f)", g)
					if g > 2.3 {
						t.Errorf("%s %s: %d → %d: work grows ×%.2f", cmd, sh.name, sh.sizes[i-1], sh.sizes[i], g)
					}
				}
			}
			if len(c) > 0 {
				t.Log(msg)
			}
		}
	}
}

// Benchmarks of merge, diff and fix on each shape and size, in process
// (bytes: the base notebook's).
func BenchmarkMergeShapes(b *testing.B) { benchShapes(b, "merge") }
func BenchmarkDiffShapes(b *testing.B)  { benchShapes(b, "diff") }
func BenchmarkFixShapes(b *testing.B)   { benchShapes(b, "fix") }

func benchShapes(b *testing.B, cmd string) {
	if _, err := exec.LookPath("git"); err != nil && cmd == "fix" {
		b.Skip("git not installed (it makes fix's conflicts)")
	}
	for _, sh := range nbShapes() {
		for _, n := range sh.sizes {
			base, ours, theirs := sh.gen(n)
			dir := writeFiles(b, map[string][]byte{"base.ipynb": base, "ours.ipynb": ours, "theirs.ipynb": theirs})
			var stdin []byte
			if cmd == "fix" {
				stdin = conflicted(b, base, ours, theirs)
			}
			in := func(name string) string { return filepath.Join(dir, name) }
			args := map[string][]string{
				"merge": {"merge", "-o", in("out.ipynb"), in("base.ipynb"), in("ours.ipynb"), in("theirs.ipynb")},
				"diff":  {"diff", "--color", "never", in("base.ipynb"), in("ours.ipynb")},
				"fix":   {"fix", "-"},
			}[cmd]
			b.Run(fmt.Sprintf("%s/%d", sh.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(base)))
				b.ReportAllocs()
				for b.Loop() {
					runCounted(b, stdin, args...)
				}
			})
		}
	}
}

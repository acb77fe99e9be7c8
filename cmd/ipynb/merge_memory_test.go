package main

// Memory of merge and fix (issue 21 item 13): what they allocate per
// byte of input grows linearly (the fast tier), and the peak resident
// memory of the built command, at doubling sizes of output-heavy and
// dense notebooks, stays within a bound (IPYNB_LONG=1).

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// memCase is a merge of an edited notebook: base, ours changing the
// first markdown cell, theirs the last one (clean) or the same line
// (conflict), and the file git's line merge leaves for the conflicting
// pair, in the merge and the diff3 style.
type memCase struct {
	base, ours, theirs, conflicting []byte
	marked, marked3                 []byte
	// conflicts: the merge of base, ours and theirs leaves conflicts.
	conflicts bool
}

// inputs returns the files command k reads (nil ones where the case has
// none, and then the command is not run).
func (c *memCase) inputs(k int) [][]byte {
	switch memoryCommands[k].prepare {
	case "marked.ipynb":
		return [][]byte{c.marked}
	case "marked3.ipynb":
		return [][]byte{c.marked3}
	}
	if memoryCommands[k].args[len(memoryCommands[k].args)-1] == "conflicting.ipynb" {
		return [][]byte{c.base, c.ours, c.conflicting}
	}
	return [][]byte{c.base, c.ours, c.theirs}
}

// stepLine is the first line of markdown cell i of an nbtest.Heavy
// notebook, as written.
func stepLine(i int) string { return fmt.Sprintf(`"## Step %d\n",`, i) }

func newMemCase(t testing.TB, base []byte) *memCase {
	t.Helper()
	last := bytes.Count(base, []byte(`"## Step `)) - 1
	edit := func(line, by string) []byte {
		if !bytes.Contains(base, []byte(line)) {
			t.Fatalf("no %s in the notebook", line)
		}
		return bytes.Replace(base, []byte(line), []byte(by), 1)
	}
	c := &memCase{base: base}
	c.ours = edit(stepLine(1), `"## Step 1, ours\n",`)
	if last < 2 {
		last = 0 // (a notebook of two steps: the other one)
	}
	c.theirs = edit(stepLine(last), fmt.Sprintf(`"## Step %d, theirs\n",`, last))
	c.conflicting = edit(stepLine(1), `"## Step 1, theirs\n",`)
	// The line is alone on its line: git marks it so.
	i := bytes.Index(base, []byte(stepLine(1)))
	start := bytes.LastIndexByte(base[:i], '\n') + 1
	end := i + bytes.IndexByte(base[i:], '\n') + 1
	line := string(base[start:end])
	indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
	ours, theirs := indent+`"## Step 1, ours\n",`+"\n", indent+`"## Step 1, theirs\n",`+"\n"
	mark := func(mid string) []byte {
		return append(append(append([]byte{}, base[:start]...), mid...), base[end:]...)
	}
	c.marked = mark("<<<<<<< ours\n" + ours + "=======\n" + theirs + ">>>>>>> theirs\n")
	c.marked3 = mark("<<<<<<< ours\n" + ours + "||||||| base\n" + line + "=======\n" + theirs + ">>>>>>> theirs\n")
	return c
}

// write writes the case's files into dir.
func (c *memCase) write(t testing.TB, dir string) {
	t.Helper()
	for name, data := range map[string][]byte{"base.ipynb": c.base, "ours.ipynb": c.ours, "theirs.ipynb": c.theirs,
		"conflicting.ipynb": c.conflicting, "marked.ipynb": c.marked, "marked3.ipynb": c.marked3} {
		if data == nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The commands measured, as run in a folder holding a case's files
// (fix repairs a copy, written by prepare).
var memoryCommands = []struct {
	name    string
	args    []string
	prepare string // the file fix repairs is copied from this one
	status  int
}{
	{"merge", []string{"merge", "-o", "out.ipynb", "base.ipynb", "ours.ipynb", "theirs.ipynb"}, "", exitOK},
	{"merge, conflicting", []string{"merge", "-o", "out.ipynb", "base.ipynb", "ours.ipynb", "conflicting.ipynb"}, "", exitFindings},
	{"fix", []string{"fix", "fixed.ipynb"}, "marked.ipynb", exitFindings},
	{"fix, diff3", []string{"fix", "fixed.ipynb"}, "marked3.ipynb", exitFindings},
}

// runMemoryCommand runs command k in dir in this process, failing t when
// it does not do its work.
func runMemoryCommand(t testing.TB, dir string, k int) {
	c := memoryCommands[k]
	if c.prepare != "" {
		data, err := os.ReadFile(filepath.Join(dir, c.prepare))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "fixed.ipynb"), data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	args := make([]string, len(c.args)-1)
	for i, a := range c.args[1:] {
		if strings.HasSuffix(a, ".ipynb") {
			a = filepath.Join(dir, a)
		}
		args[i] = a
	}
	run := runMerge
	if c.args[0] == "fix" {
		run = runFix
	}
	if st := run(e, args); st != c.status {
		t.Fatalf("%s: exit %d, want %d", c.name, st, c.status)
	}
}

// merge and fix of output-heavy notebooks allocate, in all, a bounded
// number of bytes per byte of the input at every size from 100 to 800
// cells (1.4 to 11.5 MB), growing with the size at most as allocScales
// allows (linear). Measured: merge 5.7–6.0 bytes per byte (the three
// inputs are 3 of them, the result read back from the temporary file to
// be checked 1; outputs are compared as read, without copies), fix
// 7.0–7.3 (merge style) and 6.7–7.1 (diff3: ours' side is split out in
// the file's place, theirs and the base made from it).
// The bounds are the largest measured + 30%.
// The fast tier runs merge and fix at 50 to 200 cells; IPYNB_LONG=1 all
// four commands at 100 to 800.
func TestMergeMemoryScales(t *testing.T) {
	long := testtier.Full()
	sizes := []int{100, 200, 400, 800}
	if !long {
		sizes = []int{50, 100, 200, 400} // (the last left out with -short)
	}
	for k, c := range memoryCommands {
		if !long && c.name != "merge" && c.name != "fix" {
			continue
		}
		bound := map[string]float64{"merge": 7.3, "merge, conflicting": 7.3, "fix": 9.2, "fix, diff3": 8.5}[c.name]
		t.Run(c.name, func(t *testing.T) {
			allocScalesOf(t, c.name, bound, func(dir string, n int) (string, int64) {
				base := nbtest.Heavy{Cells: n, Seed: uint64(n), ImageLines: true}.Notebook()
				sub := filepath.Join(dir, fmt.Sprint(n))
				if err := os.MkdirAll(sub, 0o755); err != nil {
					t.Fatal(err)
				}
				newMemCase(t, base).write(t, sub)
				return sub, int64(len(base))
			}, sizes, func(dir string, n int) { runMemoryCommand(t, dir, k) })
		})
	}
}

// peakRSS runs the built command in dir under GNU time and returns its
// peak resident memory in bytes.
func peakRSS(t *testing.T, dir string, want int, args ...string) int64 {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	kb, err := peakKiB(t, cmd)
	if st := exitStatus(err); st != want {
		t.Fatalf("%v: exit %d, want %d: %s", args, st, want, stderr.String())
	}
	return kb << 10
}

// peakKiB runs cmd (not yet started) under GNU time, with cmd's folder
// and streams, and returns its peak resident memory in KiB and the error
// of its run. The kernel's maximum resident set size of a child of the
// test itself would count the test's own memory (Go starts a child with
// vfork, sharing the test's memory until exec, and exec keeps that
// memory's high-water mark); GNU time forks a small process that then
// runs the command.
func peakKiB(t *testing.T, cmd *exec.Cmd) (int64, error) {
	t.Helper()
	const gnuTime = "/usr/bin/time"
	if _, err := os.Stat(gnuTime); err != nil {
		t.Skip("no " + gnuTime)
	}
	out := filepath.Join(t.TempDir(), "rss.txt")
	timed := exec.Command(gnuTime, append([]string{"-o", out, "-f", "%M"}, cmd.Args...)...)
	timed.Dir, timed.Env = cmd.Dir, cmd.Env
	timed.Stdin, timed.Stdout, timed.Stderr = cmd.Stdin, cmd.Stdout, cmd.Stderr
	runErr := timed.Run()
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(data))
	var kb int64
	if len(lines) == 0 {
		t.Fatalf("%s wrote %q", gnuTime, data)
	}
	if _, err := fmt.Sscan(lines[len(lines)-1], &kb); err != nil {
		t.Fatalf("%s wrote %q", gnuTime, data)
	}
	return kb, runErr
}

// exitStatus is the exit status of a command's error.
func exitStatus(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}

// rerunAll is an nbtest.Heavy notebook whose cells were all run again by
// a side (by: a letter): every image and every stream's text changed.
func rerunAll(t testing.TB, data []byte, by string) []byte {
	t.Helper()
	out := bytes.ReplaceAll(data, []byte(`"image/png": "`), []byte(`"image/png": "`+by))
	line := `"run again by ` + by + `\n"`
	out = bytes.ReplaceAll(out, []byte(`"text": [`), []byte(`"text": [`+line+`, `))
	if bytes.Count(out, []byte(line)) < 2 || bytes.Count(out, []byte(`"image/png": "`+by)) < 2 {
		t.Fatal("rerunAll: too few streams and images")
	}
	return out
}

// markedByGit sets the case's marked files to what git's line merge
// (git merge-file) leaves of ours, base and theirs, in the merge and the
// diff3 style; it skips t without git.
func (c *memCase) markedByGit(t testing.TB, dir string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	files := map[string][]byte{"o.ipynb": c.ours, "b.ipynb": c.base, "t.ipynb": c.theirs}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, diff3 := range []bool{false, true} {
		args := []string{"merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", "o.ipynb", "b.ipynb", "t.ipynb"}
		if diff3 {
			args = slices.Insert(args, 2, "--diff3")
		}
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if st := exitStatus(err); st <= 0 || st > 127 || len(out) == 0 {
			t.Fatalf("git %s: exit %d, %d bytes (want conflicts)", strings.Join(args, " "), st, len(out))
		}
		if diff3 {
			c.marked3 = out
		} else {
			c.marked = out
		}
	}
	for name := range files {
		os.Remove(filepath.Join(dir, name))
	}
}

// denseCase is a merge of a notebook of one dense value of n items
// (nbtest.Dense: where is "meta", "cell" or "output"): ours changes its
// cell's source, theirs adds a top-level member (clean) or changes the
// source too (conflict). It has no marked files (the notebook is one
// line).
func denseCase(where string, n int) *memCase {
	base := nbtest.Dense(where, n)
	return &memCase{base: base,
		ours:        bytes.Replace(base, []byte(`"source":"x"`), []byte(`"source":"y"`), 1),
		theirs:      bytes.Replace(base, []byte(`"nbformat_minor":5`), []byte(`"nbformat_minor":5,"extra":1`), 1),
		conflicting: bytes.Replace(base, []byte(`"source":"x"`), []byte(`"source":"z"`), 1)}
}

// The peak resident memory of the built ipynb merge and fix, as a multiple
// of the largest input the command reads (fix: git's file), on benchgen's
// output-heavy notebooks of 4 to 64 MB, on such notebooks whose cells
// ours, theirs or both sides re-ran (4 to 32 MB; both: every output
// conflicts, and fix repairs what git merge-file leaves, in the merge and
// the diff3 style), and on notebooks of one dense value (metadata, output
// data), 4 to 32 MB, and on moreMemShapes (IPYNB_LONG=1: it writes about 3 GB of notebooks; GNU
// time measures). Each command runs three times and the least peak counts
// (the collector's timing only adds). Fails when a multiple at 32 MB or
// more passes its shape's bound (the largest measured at 32 and 64 MB +
// about 10%, at most 3.0× where issue 21 asks for it: output-heavy merge
// and fix 2.6×, dense merge 2.4×; theirs re-ran, merge 2.8×: the outputs
// taken from theirs are written from theirs' cells put over ours', their
// texts compared with ours' in place; both re-ran, merge 2.7×: every
// output conflicts, and what is live is ours and theirs (a heap profile
// at 32 MB: 70 MB, their texts 61 MB): the line merge of outputs both
// sides changed needs base's, which neither side holds, and reads each
// from base's file alone as it compares it (not base whole again), and
// the write decodes theirs' outputs into the conflicted cells of ours'
// notebook a cell at a time as it writes them; the read-back of the
// result, about 2× an input, is not the peak (ours is let go before it);
// fix 2.7× and 2.45× (diff3) of git's file), or when
// a multiple exceeds the smallest size's by more than 15% (not linear;
// the runtime's own memory, about 10 MB, makes small sizes' multiples the
// largest: 3.7× at 8 MB, 4.3× where both sides re-ran every cell, whose
// two inputs and the runtime's own are 3.3× at 8 MB). Two inputs are in memory at once, not three:
// base is read first and reduced to what the merge needs of it (its
// outputs and notebook metadata that ours holds byte for byte are read as
// ours', its other outputs as theirs' where theirs holds them: so where
// ours re-ran every cell) before theirs is read (fix makes theirs' side from ours' text
// then), and the result is written as it is made into the temporary file
// that replaces the file, then read back to be checked while only ours
// is in memory beside it.
func TestMergePeakMemoryLong(t *testing.T) {
	testtier.Long(t)
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	heavy := map[string]float64{"merge": 2.9, "merge, conflicting": 2.9, "fix": 2.9, "fix, diff3": 2.9}
	dense := map[string]float64{"merge": 2.7, "merge, conflicting": 2.7}
	rerunTheirs := map[string]float64{"merge": 3.0, "merge, conflicting": 2.9}
	rerunBoth := map[string]float64{"merge": 3.0, "fix": 2.95, "fix, diff3": 2.7}
	shapes := []memShape{
		{"output-heavy", []int{4, 8, 16, 32, 64}, heavy, func(t *testing.T, mb int) *memCase { return newMemCase(t, heavyNotebook(mb)) }},
		{"output-heavy, ours re-ran every cell", []int{4, 8, 16, 32}, heavy, func(t *testing.T, mb int) *memCase {
			// Its base outputs ours does not hold are theirs' bytes (see
			// convert.MergeTo). (No marked files: fix reads git's
			// file, in which ours' outputs are merged already.)
			c := newMemCase(t, heavyNotebook(mb))
			c.ours, c.marked, c.marked3 = rerunAll(t, c.ours, "Z"), nil, nil
			return c
		}},
		{"output-heavy, theirs re-ran every cell", []int{4, 8, 16, 32}, rerunTheirs, func(t *testing.T, mb int) *memCase {
			c := newMemCase(t, heavyNotebook(mb))
			c.theirs, c.marked, c.marked3 = rerunAll(t, c.theirs, "Y"), nil, nil
			return c
		}},
		{"output-heavy, both re-ran every cell", []int{4, 8, 16, 32}, rerunBoth, func(t *testing.T, mb int) *memCase {
			// Every output conflicts: the result holds both sides'.
			c := newMemCase(t, heavyNotebook(mb))
			c.ours, c.theirs = rerunAll(t, c.ours, "Z"), rerunAll(t, c.theirs, "Y")
			c.conflicting, c.conflicts = nil, true
			c.markedByGit(t, t.TempDir())
			return c
		}},
		{"one stream of many lines, theirs re-ran it", []int{4, 8, 16, 32}, rerunTheirs, func(t *testing.T, mb int) *memCase {
			// Its outputs are compared a line at a time (issue 21's
			// attack: 8× the input when their texts were built whole).
			c := newMemCase(t, streamNotebook(mb))
			c.theirs = bytes.ReplaceAll(c.theirs, []byte(`"B line `), []byte(`"T line `))
			c.marked, c.marked3 = nil, nil
			return c
		}},
		{"dense metadata", []int{4, 8, 16, 32}, dense, func(t *testing.T, mb int) *memCase { return denseCase("meta", mb*1e6/2) }},
		{"dense output data", []int{4, 8, 16, 32}, dense, func(t *testing.T, mb int) *memCase { return denseCase("output", mb*1e6/2) }},
	}
	for _, sh := range append(shapes, moreMemShapes...) {
		t.Run(sh.name, func(t *testing.T) { peakMemoryOf(t, sh.sizes, sh.bounds, sh.make) })
	}
}

// peakMemoryOf measures the commands on the cases newCase makes at sizes
// (MB), failing past bounds (by command) or where not linear.
func peakMemoryOf(t *testing.T, sizes []int, bounds map[string]float64, newCase func(t *testing.T, mb int) *memCase) {
	first := map[string]float64{} // the multiple at the smallest size
	for _, mb := range sizes {
		dir := t.TempDir()
		c := newCase(t, mb)
		c.write(t, dir)
		largest := make([]int, len(memoryCommands)) // of each command's inputs; 0: not run
		status := make([]int, len(memoryCommands))
		for k, mc := range memoryCommands {
			status[k] = mc.status
			if mc.name == "merge" && c.conflicts {
				status[k] = exitFindings
			}
			for _, in := range c.inputs(k) {
				if in == nil {
					largest[k] = 0
					break
				}
				largest[k] = max(largest[k], len(in))
			}
		}
		base := float64(len(c.base))
		c = nil
		for k, mc := range memoryCommands {
			if largest[k] == 0 {
				continue
			}
			// Three runs, judged by their least: one run's peak moves
			// by a few tenths, and jumps by about 1× of the input,
			// with the collector's timing (whether a collection ends
			// before the largest allocation; on a loaded machine the
			// concurrent mark lags): 3.37× or 4.35× for one 32 MB
			// input. The noise only adds to what the command needs.
			// Linearity compares each size with the smallest (a
			// multiple that grows over a 4–8× range of sizes), not
			// with the last, which two modes 1× apart can defeat.
			var runs [3]float64
			for i := range runs {
				if mc.prepare != "" {
					data, _ := os.ReadFile(filepath.Join(dir, mc.prepare))
					os.WriteFile(filepath.Join(dir, "fixed.ipynb"), data, 0o644)
				}
				runs[i] = float64(peakRSS(t, dir, status[k], mc.args...)) / float64(largest[k])
			}
			slices.Sort(runs[:])
			x := runs[0]
			t.Logf("%d MB: %s peaks at %.2f× its largest input, %.2f× base (runs %.2f, %.2f, %.2f)", mb, mc.name, x, x*float64(largest[k])/base, runs[0], runs[1], runs[2])
			if bound, ok := bounds[mc.name]; ok && mb >= 32 && x > bound {
				t.Errorf("%d MB: %s peaks at %.2f× its largest input (at most %.2f×)", mb, mc.name, x, bounds[mc.name])
			}
			if p, ok := first[mc.name]; ok && x > 1.15*p {
				t.Errorf("%d MB: %s peaks at %.2f×, %.2f× at %d MB: not linear", mb, mc.name, x, p, sizes[0])
			} else if !ok {
				first[mc.name] = x
			}
		}
	}
}

// streamNotebook is a notebook of about mb MB whose one code cell has
// one stream output of as many lines as that takes, between three
// markdown steps (as newMemCase edits them).
func streamNotebook(mb int) []byte {
	var b strings.Builder
	b.WriteString(`{"cells": [`)
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&b, "{\"cell_type\": \"markdown\", \"id\": \"m%d\", \"metadata\": {}, \"source\": [\n   %s\n   \"text\"]},\n", i, stepLine(i))
	}
	b.WriteString(`{"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {}, "source": ["print(lines)"], "outputs": [{"name": "stdout", "output_type": "stream", "text": [`)
	for i := 0; b.Len() < mb<<20; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `"B line %d %s\n"`, i, strings.Repeat("y", 60))
	}
	b.WriteString("]}]}\n], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}\n")
	return []byte(b.String())
}

// heavyNotebook is an output-heavy notebook of mb MB (benchgen's shape).
func heavyNotebook(mb int) []byte {
	return nbtest.Heavy{Bytes: mb * 1e6, Seed: 1, Kinds: []nbtest.OutputKind{nbtest.Stream, nbtest.Image, nbtest.Table},
		StreamLines: 20, TableRows: 15, ImageBytes: 30000, ImageJitter: 40000}.Notebook()
}

// BenchmarkMergeCommand and BenchmarkFixCommand: merge and fix of a
// 400-cell output-heavy notebook (5.7 MB), allocations reported; the
// Small ones of 40 cells (0.6 MB: below the size from which merge reduces
// the base before reading theirs).
func BenchmarkMergeCommand(b *testing.B) { benchmarkMemoryCommand(b, 0, 400) }

func BenchmarkMergeCommandConflicting(b *testing.B) { benchmarkMemoryCommand(b, 1, 400) }

func BenchmarkFixCommand(b *testing.B) { benchmarkMemoryCommand(b, 2, 400) }

func BenchmarkFixCommandDiff3(b *testing.B) { benchmarkMemoryCommand(b, 3, 400) }

func BenchmarkMergeCommandSmall(b *testing.B) { benchmarkMemoryCommand(b, 0, 40) }

func BenchmarkFixCommandSmall(b *testing.B) { benchmarkMemoryCommand(b, 2, 40) }

func benchmarkMemoryCommand(b *testing.B, k, cells int) {
	dir := b.TempDir()
	base := nbtest.Heavy{Cells: cells, Seed: uint64(cells), ImageLines: true}.Notebook()
	newMemCase(b, base).write(b, dir)
	b.SetBytes(int64(len(base)))
	b.ReportAllocs()
	for b.Loop() {
		runMemoryCommand(b, dir, k)
	}
}

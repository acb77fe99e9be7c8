package main

// Tests of files the commands read and rewrite: pipes, links, folders, files
// changed or swapped while processed, races and kills.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// ipynbWithin runs the binary like ipynb, failing the test (not hanging)
// if it does not finish within limit.
func ipynbWithin(t *testing.T, limit time.Duration, dir string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	cmd.Env = testEnv(t)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("ipynb %s: still running after %v (it hangs)\n%s", strings.Join(args, " "), limit, errb.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

// mkfifo makes a named pipe, skipping the test where it cannot.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// Folder walks take regular files only: a named pipe or socket called
// *.ipynb is skipped (named under -v, counted otherwise), and every other
// notebook is processed. On the old code check, fmt and strip blocked
// forever opening the pipe.
func TestWalkSkipsPipesAndSockets(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"check"}, {"fmt", "--check"}, {"fmt"}, {"strip"}} {
		t.Run(args[0]+strings.Join(args[1:], ""), func(t *testing.T) {
			dir := work(t, "jupyter.ipynb", "invalid.ipynb")
			mkfifo(t, filepath.Join(dir, "p.ipynb"))
			if l, err := net.Listen("unix", filepath.Join(dir, "s.ipynb")); err == nil {
				defer l.Close()
			}
			r := ipynbWithin(t, 20*time.Second, dir, append(args, ".")...)
			if r.code == exitError || !strings.Contains(r.stderr, "ipynb "+args[0]+": skipped") {
				t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if strings.Contains(r.stdout, "p.ipynb") || strings.Contains(r.stdout, "s.ipynb") {
				t.Errorf("a special file was processed:\n%s", r.stdout)
			}
			if args[0] == "check" && !strings.Contains(r.stdout, "same jupyter.ipynb") {
				t.Errorf("regular files not checked:\n%s", r.stdout)
			}
			r = ipynbWithin(t, 20*time.Second, dir, append(args, "-v", ".")...)
			if !strings.Contains(r.stderr, "p.ipynb: skipped: not a regular file (a named pipe)") {
				t.Errorf("-v does not name the pipe:\n%s", r.stderr)
			}
			if fi, err := os.Lstat(filepath.Join(dir, "p.ipynb")); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
				t.Error("the pipe was replaced")
			}
		})
	}
}

// A pipe named on the command line is read: a named pipe with a writer,
// bash's <(...), /dev/stdin. fmt and strip write their result to standard
// output then, as for "-".
func TestExplicitPipes(t *testing.T) {
	dir := work(t, "jupyter.ipynb")
	src, _ := os.ReadFile(filepath.Join(dir, "jupyter.ipynb"))
	want, _ := os.ReadFile(filepath.Join("testdata", "strip", "jupyter.ipynb"))

	// A named pipe whose writer came first (the test holds a read end
	// open, so the writer's data waits in the pipe), then one with no
	// writer, which must not block.
	p := filepath.Join(dir, "in.ipynb")
	mkfifo(t, p)
	holder, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	small, _ := os.ReadFile(filepath.Join(shipped, "dialog.ipynb"))
	wf, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	wf.Write(small)
	wf.Close()
	r := ipynbWithin(t, 20*time.Second, dir, "check", "in.ipynb")
	if r.code != 0 || r.stdout != "same in.ipynb\n1 same, 0 diff, 0 invalid, 0 error\n" {
		t.Errorf("check of a named pipe: %+v", r)
	}
	r = ipynbWithin(t, 20*time.Second, dir, "strip", "in.ipynb")
	if r.code != exitError || !strings.Contains(r.stderr, "in.ipynb: nothing to read: a named pipe with no writer") {
		t.Errorf("strip of a named pipe without a writer: %+v", r)
	}

	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, tc := range []struct{ script, want string }{
		{`"$0" check <(cat jupyter.ipynb)`, "same /dev/fd/"},
		{`"$0" strip <(cat jupyter.ipynb)`, string(want)},
		{`"$0" strip /dev/stdin < jupyter.ipynb`, string(want)},
	} {
		cmd := exec.Command(bash, "-c", tc.script, binary)
		cmd.Dir = dir
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil || !strings.HasPrefix(out.String(), tc.want) {
			t.Errorf("%s: %v\n%s%s", tc.script, err, out.String(), errb.String())
		}
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "jupyter.ipynb")); !bytes.Equal(now, src) {
		t.Error("the file behind /dev/stdin was rewritten")
	}
}

// runIn runs the command in process (so that beforeReplace applies).
func runIn(t *testing.T, dir string, args ...string) result {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}
	code := run(e, args)
	return result{out.String(), errb.String(), code}
}

// A file edited between the transform and the rename is left alone and
// reported, exit 1 — also when the edit keeps its size and modification
// time (the content is compared then).
func TestRewriteChangedWhileProcessing(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, path string) []byte
	}{
		{"appended", func(t *testing.T, path string) []byte {
			data, _ := os.ReadFile(path)
			data = append(data, "\n"...)
			os.WriteFile(path, data, 0o644)
			return data
		}},
		{"same size and time", func(t *testing.T, path string) []byte {
			fi, _ := os.Stat(path)
			data, _ := os.ReadFile(path)
			data = bytes.Replace(data, []byte("Café"), []byte("Cafe!"), 1) // same length
			data = bytes.Replace(data, []byte("# "), []byte("#\t"), 1)
			f, _ := os.OpenFile(path, os.O_WRONLY, 0)
			f.WriteAt(data, 0)
			f.Close()
			os.Chtimes(path, fi.ModTime(), fi.ModTime())
			if now, _ := os.Stat(path); now.Size() != fi.Size() || !now.ModTime().Equal(fi.ModTime()) {
				t.Fatal("the edit changed the size or time")
			}
			return data
		}},
		{"replaced", func(t *testing.T, path string) []byte {
			data := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}` + "\n")
			os.WriteFile(path+".new", data, 0o644)
			os.Rename(path+".new", path)
			return data
		}},
	} {
		for _, cmd := range [][]string{{"fmt"}, {"strip"}} {
			t.Run(tc.name+"/"+cmd[0], func(t *testing.T) {
				dir := work(t, "invalid.ipynb", "jupyter.ipynb")
				var edited []byte
				beforeReplace = func(p string) {
					if filepath.Base(p) == "invalid.ipynb" {
						edited = tc.edit(t, p)
					}
				}
				defer func() { beforeReplace = nil }()
				r := runIn(t, dir, append(cmd, ".")...)
				if r.code != exitFindings || !strings.Contains(r.stderr, "invalid.ipynb: changed while processing") {
					t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
				}
				if now, _ := os.ReadFile(filepath.Join(dir, "invalid.ipynb")); !bytes.Equal(now, edited) {
					t.Error("the edit was overwritten")
				}
				if cmd[0] == "strip" && !strings.Contains(r.stdout, "jupyter.ipynb") {
					t.Errorf("the other file was not processed:\n%s", r.stdout)
				}
			})
		}
	}
}

// A file swapped for a symbolic link to a file outside the folder between
// the read and the write is not followed: the outside file is untouched,
// the link stays, and the swap is reported (exit 1).
func TestRewriteSymlinkSwappedIn(t *testing.T) {
	for _, cmd := range []string{"fmt", "strip"} {
		t.Run(cmd, func(t *testing.T) {
			proj := work(t, "invalid.ipynb")
			outside := filepath.Join(t.TempDir(), "precious.txt")
			os.WriteFile(outside, []byte("not a notebook\n"), 0o644)
			beforeReplace = func(p string) {
				os.Remove(p)
				if err := os.Symlink(outside, p); err != nil {
					t.Fatal(err)
				}
			}
			defer func() { beforeReplace = nil }()
			r := runIn(t, proj, cmd, ".")
			if r.code != exitFindings || !strings.Contains(r.stderr, "invalid.ipynb: changed while processing (it was replaced by a symbolic link)") {
				t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if b, _ := os.ReadFile(outside); string(b) != "not a notebook\n" {
				t.Errorf("the outside file was written: %.60q", b)
			}
			if fi, err := os.Lstat(filepath.Join(proj, "invalid.ipynb")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Error("the link was replaced")
			}
		})
	}
}

// Folder runs do not follow *.ipynb links to files outside the folders
// given (unless --follow), and say so; a link to a file inside is
// processed once.
func TestWalkLinks(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	proj, outside := filepath.Join(base, "proj"), filepath.Join(base, "outside")
	os.MkdirAll(filepath.Join(proj, "sub"), 0o755)
	os.Mkdir(outside, 0o755)
	src, _ := os.ReadFile(filepath.Join(shipped, "invalid.ipynb"))
	os.WriteFile(filepath.Join(proj, "sub", "a.ipynb"), src, 0o644)
	os.WriteFile(filepath.Join(outside, "o.ipynb"), src, 0o644)
	os.Symlink(filepath.Join("sub", "a.ipynb"), filepath.Join(proj, "in.ipynb"))
	os.Symlink(filepath.Join("..", "outside", "o.ipynb"), filepath.Join(proj, "out.ipynb"))
	os.Symlink("nowhere.ipynb", filepath.Join(proj, "dangling.ipynb"))

	r := ipynbWithin(t, 20*time.Second, base, "fmt", "proj")
	if r.code != 0 || r.stdout != "proj/in.ipynb\n" {
		t.Errorf("fmt proj: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "ipynb fmt: skipped 2 *.ipynb entries") {
		t.Errorf("no summary of what was skipped:\n%s", r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "o.ipynb")); !bytes.Equal(b, src) {
		t.Error("the file outside the folder was changed")
	}
	if fi, _ := os.Lstat(filepath.Join(proj, "in.ipynb")); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link inside was replaced by a file")
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "sub", "a.ipynb")); bytes.Equal(b, src) {
		t.Error("the file inside, reached through its link, was not healed")
	}
	r = ipynbWithin(t, 20*time.Second, base, "check", "-v", "proj")
	for _, want := range []string{
		"proj/out.ipynb: skipped: a symbolic link to outside/o.ipynb, outside the folders given (--follow follows it)",
		"proj/dangling.ipynb: skipped: a symbolic link to a missing file",
		"proj/sub/a.ipynb: skipped: the same file as proj/in.ipynb",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("check -v: no %q in\n%s", want, r.stderr)
		}
	}
	// Both folders given: the link leads inside them.
	r = ipynbWithin(t, 20*time.Second, base, "fmt", "proj", "outside")
	if !strings.Contains(r.stdout, "proj/out.ipynb") && !strings.Contains(r.stdout, "outside/o.ipynb") {
		t.Errorf("fmt proj outside: %s%s", r.stdout, r.stderr)
	}
	os.WriteFile(filepath.Join(outside, "o.ipynb"), src, 0o644)
	r = ipynbWithin(t, 20*time.Second, base, "fmt", "--follow", "proj")
	if !strings.Contains(r.stdout, "proj/out.ipynb") {
		t.Errorf("fmt --follow: %s%s", r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "o.ipynb")); bytes.Equal(b, src) {
		t.Error("--follow did not follow the link")
	}
	// A link named on the command line is followed: its target is
	// replaced, the link stays.
	os.WriteFile(filepath.Join(outside, "o.ipynb"), src, 0o644)
	r = ipynbWithin(t, 20*time.Second, base, "fmt", "proj/out.ipynb")
	if r.code != 0 || r.stdout != "proj/out.ipynb\n" {
		t.Errorf("fmt proj/out.ipynb: %+v", r)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "o.ipynb")); bytes.Equal(b, src) {
		t.Error("the link named was not followed")
	}
	if fi, _ := os.Lstat(filepath.Join(proj, "out.ipynb")); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link named was replaced by a file")
	}
}

// A folder named on the command line is followed even when it is a
// symbolic link; a folder without notebooks, and a missing path, are
// errors (exit 2).
func TestFolderArguments(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	nbs := work(t, "jupyter.ipynb", "dialog.ipynb")
	os.Symlink(nbs, filepath.Join(base, "linked"))
	os.Mkdir(filepath.Join(base, "empty"), 0o755)
	os.WriteFile(filepath.Join(base, "empty", "notes.txt"), []byte("x"), 0o644)

	a := ipynbWithin(t, 20*time.Second, base, "check", "linked")
	b := ipynbWithin(t, 20*time.Second, base, "check", "linked/")
	if a.code != 0 || a.stdout != "same linked/dialog.ipynb\nsame linked/jupyter.ipynb\n2 same, 0 diff, 0 invalid, 0 error\n" {
		t.Errorf("check linked: exit %d\n%s%s", a.code, a.stdout, a.stderr)
	}
	if a != b {
		t.Errorf("linked and linked/ differ:\n%+v\n%+v", a, b)
	}
	for _, cmd := range []string{"check", "fmt", "strip"} {
		r := ipynbWithin(t, 20*time.Second, base, cmd, "empty")
		if r.code != exitError || !strings.Contains(r.stderr, "ipynb "+cmd+": no notebooks found under empty") {
			t.Errorf("%s empty: exit %d %q", cmd, r.code, r.stderr)
		}
		r = ipynbWithin(t, 20*time.Second, base, cmd, "typo")
		if r.code != exitError || r.stderr == "" || !strings.Contains(r.stderr, "typo: no such file or directory") {
			t.Errorf("%s typo: exit %d %q", cmd, r.code, r.stderr)
		}
	}
	// A folder given twice is searched twice, its files taken once.
	r := ipynbWithin(t, 20*time.Second, base, "check", "linked", "linked/")
	if r.code != 0 || r.stdout != a.stdout {
		t.Errorf("check linked linked/: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A folder whose only notebook is a pipe: nothing found, and why.
	os.Mkdir(filepath.Join(base, "pipes"), 0o755)
	mkfifo(t, filepath.Join(base, "pipes", "p.ipynb"))
	r = ipynbWithin(t, 20*time.Second, base, "check", "pipes")
	if r.code != exitError || !strings.Contains(r.stderr, "no notebooks found under pipes (1 skipped; -v names them)") {
		t.Errorf("check pipes: exit %d %q", r.code, r.stderr)
	}
}

// fmt DIR and strip DIR racing over 100 files lose no change: every file
// ends up with both changes, or the side that did not apply its change
// said it left the file alone. (On the old code, 1 or 2 of 120 files per
// run lost a change.) Both run with -v, so that what each said of a file
// it did not change — read, repaired, skipped by the walk — is shown.
func TestFmtStripRace(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow")
	}
	src, _ := os.ReadFile(filepath.Join(shipped, "invalid.ipynb"))
	const files = 100
	skipped := 0
	for round := range 3 {
		dir := t.TempDir()
		for i := range files {
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("nb%03d.ipynb", i)), src, 0o644)
		}
		var wg sync.WaitGroup
		results := make([]result, 2)
		for i, cmd := range []string{"fmt", "strip"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i] = ipynbWithin(t, 60*time.Second, dir, cmd, "-v", ".")
			}()
		}
		wg.Wait()
		fmtR, stripR := results[0], results[1]
		for i := range files {
			name := fmt.Sprintf("nb%03d.ipynb", i)
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			healed, stripped := changes(t, data)
			if !healed && !leftAloneSaid(fmtR, name) {
				t.Errorf("round %d: %s lost fmt's change, and fmt did not say it left it alone\nfmt (exit %d) said of it: %q\nstrip (exit %d) said of it: %q",
					round, name, fmtR.code, linesNaming(fmtR, name), stripR.code, linesNaming(stripR, name))
			}
			if !stripped && !leftAloneSaid(stripR, name) {
				t.Errorf("round %d: %s lost strip's change, and strip did not say it left it alone\nfmt (exit %d) said of it: %q\nstrip (exit %d) said of it: %q",
					round, name, fmtR.code, linesNaming(fmtR, name), stripR.code, linesNaming(stripR, name))
			}
			if !healed || !stripped {
				skipped++
			}
		}
		for _, r := range results {
			if r.code == exitError {
				t.Errorf("round %d: exit %d\n%s", round, r.code, r.stderr)
			}
		}
	}
	t.Logf("%d of %d files left alone by one side, and reported", skipped, 3*files)
}

// leftAloneSaid reports whether r's error output says the file was left
// alone (changed while processing, or locked by another process).
func leftAloneSaid(r result, name string) bool {
	for _, l := range strings.Split(r.stderr, "\n") {
		if strings.HasPrefix(l, name+": ") && strings.HasSuffix(l, "; left alone") {
			return true
		}
	}
	return false
}

// linesNaming is every line of r's output and error output that names
// the file.
func linesNaming(r result, name string) []string {
	var out []string
	for _, l := range strings.Split(r.stdout+r.stderr, "\n") {
		if strings.Contains(l, name) {
			out = append(out, l)
		}
	}
	return out
}

// changes tells whether fmt's heal (no outputs on the markdown cell) and
// strip (no outputs or counts on code cells) reached a notebook.
func changes(t *testing.T, data []byte) (healed, stripped bool) {
	var nb struct {
		Cells []map[string]json.RawMessage
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	healed, stripped = true, true
	for _, c := range nb.Cells {
		switch string(c["cell_type"]) {
		case `"markdown"`:
			if _, has := c["outputs"]; has {
				healed = false
			}
		case `"code"`:
			if o := string(c["outputs"]); o != "[]" || string(c["execution_count"]) != "null" {
				stripped = false
			}
		}
	}
	return healed, stripped
}

// kill -9 during fmt of a 120-file folder never tears a file, leaves
// (almost) no temporary file — they have no name while written — and the
// next fmt that writes into the folder sweeps any a kill left, whatever
// notebook it was for.
func TestFmtKilled(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow")
	}
	src, _ := os.ReadFile(filepath.Join(shipped, "invalid.ipynb"))
	dir := t.TempDir()
	const files = 120
	leftovers, kills := 0, 0
	// Kills 5 to 77 ms after the start; the fast tier kills at every
	// third of those times, first and last included.
	step := 3
	if testtier.Full() {
		step = 1
	}
	for round := 0; round < 25; round += step {
		kills++
		for i := range files {
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("nb%03d.ipynb", i)), src, 0o644)
		}
		cmd := exec.Command(binary, "fmt", ".")
		cmd.Dir = dir
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(5+round*3) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".ipynb") || strings.HasPrefix(e.Name(), ".") {
				leftovers++
				continue
			}
			// The old version, or a whole healed one (fresh ids differ
			// from run to run).
			b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			if healed, _ := changes(t, b); !bytes.Equal(b, src) && !healed {
				t.Fatalf("round %d: %s is neither the old nor a new version", round, e.Name())
			}
		}
	}
	t.Logf("%d kills: %d temporary files left", kills, leftovers)
	// A stale temporary of another notebook, from a process that is gone.
	gone := exec.Command("true")
	gone.Run()
	stale := fmt.Sprintf(".other.ipynb.save-%d-0123456789ab.tmp", gone.Process.Pid)
	os.WriteFile(filepath.Join(dir, stale), src, 0o600)
	os.WriteFile(filepath.Join(dir, "nb000.ipynb"), src, 0o644)
	if r := ipynbWithin(t, 60*time.Second, dir, "fmt", "nb000.ipynb"); r.code != 0 || r.stdout != "nb000.ipynb\n" {
		t.Fatalf("fmt: %+v", r)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left after a write into the folder: %s", e.Name())
		}
	}
}

// A folder swapped for a symbolic link (to a folder elsewhere holding a
// notebook of the same name) after the search and before the read is not
// read or written: the notebook elsewhere is untouched.
func TestFolderSwappedAfterSearch(t *testing.T) {
	base := t.TempDir()
	proj, elsewhere := filepath.Join(base, "proj"), filepath.Join(base, "elsewhere")
	os.MkdirAll(filepath.Join(proj, "sub"), 0o755)
	os.Mkdir(elsewhere, 0o755)
	src, _ := os.ReadFile(filepath.Join(shipped, "invalid.ipynb"))
	os.WriteFile(filepath.Join(proj, "sub", "a.ipynb"), src, 0o644)
	os.WriteFile(filepath.Join(elsewhere, "a.ipynb"), src, 0o644)
	beforeRead = func(p string) {
		if filepath.Base(p) == "a.ipynb" {
			os.Rename(filepath.Join(proj, "sub"), filepath.Join(base, "sub.moved"))
			os.Symlink(elsewhere, filepath.Join(proj, "sub"))
		}
	}
	defer func() { beforeRead = nil }()
	r := runIn(t, base, "fmt", "proj")
	if r.code != exitFindings || !strings.Contains(r.stderr, "proj/sub/a.ipynb: changed while processing (its folder was replaced since it was searched); left alone") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(elsewhere, "a.ipynb")); !bytes.Equal(b, src) {
		t.Error("the notebook in the folder swapped in was written")
	}
}

// A folder met in a search that is (or became) a symbolic link is not
// searched.
func TestWalkDoesNotEnterLinkedFolders(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	elsewhere := filepath.Join(base, "elsewhere")
	os.Mkdir(elsewhere, 0o755)
	os.WriteFile(filepath.Join(elsewhere, "a.ipynb"), []byte("{}"), 0o644)
	link := filepath.Join(base, "sub")
	os.Symlink(elsewhere, link)
	var errb bytes.Buffer
	w := &walker{e: &env{stderr: &errb}, o: &walkOptions{cmd: "check", verbose: new(bool)}, ok: true}
	*w.o.verbose = true
	w.dir(link, false)
	if len(w.found) != 0 || !strings.Contains(errb.String(), "sub: skipped: it stopped being a folder while the search ran") {
		t.Errorf("found %v\n%s", w.found, errb.String())
	}
	w.dir(link, true) // a folder given is followed
	if len(w.found) != 1 {
		t.Errorf("a folder given: found %v", w.found)
	}
}

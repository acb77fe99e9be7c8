package convert_test

// Tests of saving files: only the edited cell changes, changed files refused,
// mode and links kept, and no torn file on crashes or races.

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"

	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/testtier"
)

func copyTestdata(t *testing.T, name, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSaveEditsOnlyTheEditedCell(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := copyTestdata(t, "dialog.ipynb", dir)
	before, _ := os.ReadFile(path)
	d, err := convert.ReadFile(path, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Messages[2].SetReply("A better answer.")
	if err := d.Save(convert.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	s, e := cellSpan(t, before, 2)
	s2, e2 := cellSpan(t, after, 2)
	if !bytes.Equal(before[:s], after[:s2]) || !bytes.Equal(before[e:], after[e2:]) {
		t.Errorf("bytes outside the edited cell changed %s", firstDiff(before, after))
	}
	if !bytes.Contains(after[s2:e2], []byte("A better answer.")) {
		t.Error("edit missing")
	}
	// A second save of the now unedited dialog changes nothing; a second
	// edit is saved too (the dialog follows its file).
	fi1, _ := os.Stat(path)
	if err := d.Save(convert.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	fi2, _ := os.Stat(path)
	if !fi1.ModTime().Equal(fi2.ModTime()) {
		t.Error("unedited save rewrote the file")
	}
	d.Messages[0].Content = "Second edit"
	if err := d.Save(convert.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	back, _ := convert.ReadFile(path, convert.ReadOptions{})
	if back.Messages[0].Content != "Second edit" || back.Messages[2].Reply() != "A better answer." {
		t.Errorf("second save: %s", back.Summary(120, 20))
	}
}

func TestSaveRefusesChangedFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := copyTestdata(t, "dialog.ipynb", dir)
	d, err := convert.ReadFile(path, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Messages[0].Content = "mine"
	// Someone else replaces the file, keeping its size and time: only its
	// identity tells.
	orig, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, bytes.Replace(orig, []byte("Hello?"), []byte("Howdy?"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(other, fi.ModTime(), fi.ModTime())
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	err = d.Save(convert.SaveOptions{})
	if !errors.Is(err, convert.ErrChanged) {
		t.Fatalf("Save = %v, want ErrChanged", err)
	}
	theirs, _ := os.ReadFile(path)
	if !bytes.Contains(theirs, []byte("Howdy?")) {
		t.Error("the other writer's file was overwritten")
	}
	if err := d.Save(convert.SaveOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	forced, _ := os.ReadFile(path)
	if !bytes.Contains(forced, []byte("mine")) {
		t.Error("forced save did not write")
	}
	// A plain rewrite in place is noticed too.
	d.Messages[0].Content = "mine again"
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(path, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(convert.SaveOptions{}); !errors.Is(err, convert.ErrChanged) {
		t.Errorf("Save after an in-place rewrite = %v", err)
	}
	// So is a removal.
	os.Remove(path)
	if err := d.Save(convert.SaveOptions{}); !errors.Is(err, convert.ErrChanged) {
		t.Errorf("Save after removal = %v", err)
	}
}

func TestSaveKeepsModeAndFollowsLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := copyTestdata(t, "dialog.ipynb", dir)
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.ipynb")
	if err := os.Symlink("dialog.ipynb", link); err != nil {
		t.Fatal(err)
	}
	d, err := convert.ReadFile(link, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Messages[0].Content = "through the link"
	if err := d.Save(convert.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	data, _ := os.ReadFile(path)
	if !bytes.Contains(data, []byte("through the link")) {
		t.Error("the target was not updated")
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("left in the folder: %v", entries)
	}
}

// WriteOptions.Messages writes a subset, in the order given, with the
// dialog's metadata (the seed's msgs=): through Marshal, ToNotebook and
// WriteFile; nil is every message, empty none. A file written so is not
// made the dialog's file (SaveOptions has no Messages: Save cannot drop
// the other messages).
func TestOptionsMessages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d, _, code, prompt, _ := seedDialog()
	d.Meta = map[string]any{"kernelspec": map[string]any{"name": "python3", "display_name": "Python 3"}}
	ids := func(d *dialog.Dialog) (out []string) {
		for _, m := range d.Messages {
			out = append(out, m.ID)
		}
		return out
	}
	subset := convert.WriteOptions{Messages: []*dialog.Message{prompt, code}}
	path := filepath.Join(dir, "sub", "subset.ipynb")
	if err := convert.WriteFile(d, path, subset); err != nil {
		t.Fatal(err)
	}
	if d.Path != "" {
		t.Errorf("the subset's file became the dialog's file: Path %q", d.Path)
	}
	back, err := convert.ReadFile(path, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(back.Dialog), []string{prompt.ID, code.ID}; !slices.Equal(got, want) {
		t.Errorf("WriteFile subset: ids %v, want %v", got, want)
	}
	if diff := cmp.Diff(d.Meta, back.Meta); diff != "" {
		t.Errorf("subset metadata (-want +got):\n%s", diff)
	}
	data, _ := os.ReadFile(path)
	if out, err := convert.Marshal(d, subset); err != nil || !bytes.Equal(out, data) {
		t.Errorf("Marshal differs from the file WriteFile wrote (%v)", err)
	}
	if nb, err := convert.ToNotebook(d, subset); err != nil || len(nb.Cells) != 2 {
		t.Errorf("ToNotebook: %v", err)
	}
	d.Name = "named"
	if err := convert.WriteFile(d, filepath.Join(dir, "named.ipynb"), subset); err != nil {
		t.Fatal(err)
	}
	if w, _ := os.ReadFile(filepath.Join(dir, "named.ipynb")); !bytes.Equal(w, data) {
		t.Error("Write of the subset differs from WriteFile's")
	}
	none := convert.WriteOptions{Messages: []*dialog.Message{}}
	if nb, err := convert.ToNotebook(d, none); err != nil || len(nb.Cells) != 0 {
		t.Errorf("empty Messages: %v", err)
	}
	if nb, err := convert.ToNotebook(d, convert.WriteOptions{}); err != nil || len(nb.Cells) != len(d.Messages) {
		t.Errorf("nil Messages: %v", err)
	}
	full := filepath.Join(dir, "full.ipynb")
	if err := convert.WriteFile(d, full, convert.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	d.Messages[0].Content += " (edited)"
	if err := d.Save(convert.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
}

// Permission errors leave the original intact and say what happened. As
// root, permissions do not apply, so the check runs as user nobody.
func TestSavePermissionDenied(t *testing.T) {
	t.Parallel()
	if os.Getenv("IPYNB_PERM_CHILD") != "" {
		permChild(t, os.Getenv("IPYNB_PERM_CHILD"))
		return
	}
	base, err := os.MkdirTemp("", "ipynb-perm-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	os.Chmod(base, 0o755)
	dir := filepath.Join(base, "ro")
	os.Mkdir(dir, 0o755)
	path := copyTestdata(t, "dialog.ipynb", dir)
	os.Chmod(path, 0o666)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	before, _ := os.ReadFile(path)
	if os.Geteuid() != 0 {
		permChild(t, path)
	} else {
		// The test binary sits in a folder only root can enter: run a copy.
		bin := filepath.Join(base, "convert.test")
		exe, _ := os.ReadFile(os.Args[0])
		nbtest.WriteExecutable(t, bin, exe)
		cmd := exec.Command(bin, "-test.run=^TestSavePermissionDenied$", "-test.v")
		cmd.Dir = base
		cmd.Env = append(os.Environ(), "IPYNB_PERM_CHILD="+path)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("as nobody: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), "PASS") {
			t.Fatalf("child did not run:\n%s", out)
		}
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("the original was changed")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left in the folder: %v", entries)
	}
}

func permChild(t *testing.T, path string) {
	d, err := convert.ReadFile(path, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Messages[0].Content = "cannot save this"
	err = d.Save(convert.SaveOptions{})
	if err == nil || !errors.Is(err, os.ErrPermission) || !strings.Contains(err.Error(), "permission denied") || !strings.Contains(err.Error(), "unchanged") {
		t.Fatalf("Save in a read-only folder = %v", err)
	}
}

// Concurrent saves never leave a torn file: the result is one of the
// versions written, whole.
func TestConcurrentSaves(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := copyTestdata(t, "jupyter.ipynb", dir)
	var wg sync.WaitGroup
	const writers = 8
	errs := make(chan error, writers)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := convert.ReadFile(path, convert.ReadOptions{})
			if err != nil {
				errs <- err
				return
			}
			for i := 0; i < 10; i++ {
				d.Messages[0].Content = fmt.Sprintf("writer %d save %d", w, i)
				if err := d.Save(convert.SaveOptions{Force: true}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	d, err := convert.ReadFile(path, convert.ReadOptions{})
	if err != nil {
		t.Fatalf("torn file: %v", err)
	}
	if !strings.HasPrefix(d.Messages[0].Content, "writer ") {
		t.Errorf("content %q", d.Messages[0].Content)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left in the folder: %v", entries)
	}
}

// Crash safety: a child process saving a large dialog again and again is
// killed (SIGKILL) at random moments; the file is always a whole notebook,
// the old version or a new one.
func TestCrashDuringSave(t *testing.T) {
	t.Parallel()
	if p := os.Getenv("IPYNB_CRASH_CHILD"); p != "" {
		crashChild(p)
		return
	}
	if testing.Short() {
		t.Skip("slow")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "big.ipynb")
	d := &convert.File{Dialog: &dialog.Dialog{Name: "big"}}
	d.Random = rand.NewChaCha8([32]byte{1})
	for i := 0; i < 200; i++ {
		m := d.Add(dialog.Code, "version 0")
		m.Outputs = []dialog.Output{streamOutput("stdout", strings.Repeat(fmt.Sprintf("line %d of output\n", i), 400))}
	}
	if err := convert.WriteFile(d, path, convert.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	t.Logf("dialog file of %d bytes", fi.Size())
	rng := rand.New(rand.NewPCG(1, 2))
	kills := 0
	versions := map[string]bool{}
	rounds := 10
	if testtier.Full() {
		rounds = 25
	}
	for round := 0; round < rounds; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashDuringSave$")
		cmd.Env = append(os.Environ(), "IPYNB_CRASH_CHILD="+path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(50+rng.IntN(550)) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		kills++
		back, err := convert.ReadFile(path, convert.ReadOptions{})
		if err != nil {
			t.Fatalf("after kill %d: file is not a notebook: %v", kills, err)
		}
		v := back.Messages[0].Content
		versions[v] = true
		for _, m := range back.Messages {
			if m.Content != v {
				t.Fatalf("after kill %d: a mix of versions (%q and %q)", kills, v, m.Content)
			}
		}
	}
	back, _ := convert.ReadFile(path, convert.ReadOptions{})
	t.Logf("%d kills, %d versions seen on disk, the last %q", kills, len(versions), back.Messages[0].Content)
	if len(versions) < 3 {
		t.Errorf("only %d versions seen: the children did not get to save", len(versions))
	}
	// Temporary files: none while saving (unnamed until the instant of
	// the rename); any a kill caught in that instant is swept by the next
	// save.
	entries, _ := os.ReadDir(dir)
	t.Logf("%d files in the folder after the kills", len(entries))
	back.Messages[0].Content = "final"
	if err := back.Save(convert.SaveOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left in the folder: %v", entries)
	}
}

// Two processes saving the same file at once never tear it, and leave no
// temporary file.
func TestTwoProcessesSave(t *testing.T) {
	t.Parallel()
	if os.Getenv("IPYNB_SAVE_CHILD") != "" {
		return // the work is done by crashChild-like loops below
	}
	dir := t.TempDir()
	path := copyTestdata(t, "jupyter.ipynb", dir)
	var cmds []*exec.Cmd
	for i := 0; i < 2; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSaveLoopChild$")
		cmd.Env = append(os.Environ(), "IPYNB_SAVE_LOOP="+path, "IPYNB_SAVE_TAG="+strconv.Itoa(i))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		t.Cleanup(func() {
			if t.Failed() {
				t.Log(out.String())
			}
		})
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("child: %v", err)
		}
	}
	d, err := convert.ReadFile(path, convert.ReadOptions{})
	if err != nil {
		t.Fatalf("torn file: %v", err)
	}
	if !strings.HasPrefix(d.Messages[0].Content, "process ") {
		t.Errorf("content %q", d.Messages[0].Content)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left in the folder: %v", entries)
	}
}

// TestSaveLoopChild is run by TestTwoProcessesSave in child processes.
func TestSaveLoopChild(t *testing.T) {
	t.Parallel()
	path := os.Getenv("IPYNB_SAVE_LOOP")
	if path == "" {
		t.Skip("run by TestTwoProcessesSave")
	}
	d, err := convert.ReadFile(path, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 30; i++ {
		d.Messages[0].Content = fmt.Sprintf("process %s save %d", os.Getenv("IPYNB_SAVE_TAG"), i)
		if err := d.Save(convert.SaveOptions{Force: true}); err != nil {
			t.Fatal(err)
		}
	}
}

// crashChild saves new versions of the dialog at path until killed.
func crashChild(path string) {
	d, err := convert.ReadFile(path, convert.ReadOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	v, _ := strconv.Atoi(strings.TrimPrefix(d.Messages[0].Content, "version "))
	for {
		v++
		for _, m := range d.Messages {
			m.Content = fmt.Sprintf("version %d", v)
		}
		if err := d.Save(convert.SaveOptions{Force: true}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
	}
}

var _ = nbformat.Validate

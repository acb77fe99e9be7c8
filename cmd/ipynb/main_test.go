package main

// The tests run the built binary on real files. Golden outputs live in
// testdata/golden/NAME.txt (stdout, then stderr, then the exit status);
// go test -run TestGolden -update rewrites them after a deliberate change
// (review the diff). Files ipynb writes are compared with what Python
// nbformat writes (testdata/strip, ../../testdata/canonical).

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/internal/browsertest"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

var update = flag.Bool("update", false, "rewrite golden files")

var binary string

func TestMain(m *testing.M) {
	flag.Parse()
	removeTemp := testtier.MemTempDir() // the binaries and every TempDir
	dir, err := os.MkdirTemp("", "ipynb-cli")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "ipynb")
	if runtime.GOOS == "windows" {
		binary += ".exe"
	}
	if isolatedChild() { // one test, with the parent's binary (isolate_test.go)
		binary = os.Getenv(isolatedBinaryEnv)
		webBuiltErr = errIsolatedWeb
		close(webBuilt)
	} else if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building ipynb: %v\n%s", err, out)
		os.RemoveAll(dir)
		removeTemp()
		os.Exit(2)
	}
	toolEnv = toolchainEnv()
	gitTestEnv(filepath.Join(dir, "home"))
	if !isolatedChild() {
		startWebBuild()
	}
	code := browsertest.Main(m) // one chromium for the browser tests, a tab each
	os.RemoveAll(dir)
	removeTemp()
	os.Exit(code)
}

type result struct {
	stdout, stderr string
	code           int
}

// ipynb runs the binary in dir with stdin.
func ipynb(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = testEnv(t)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

const shipped = "../../testdata"

// work copies testdata notebooks into a fresh folder.
func work(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(shipped, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestGolden(t *testing.T) {
	t.Parallel()
	dialogNB, _ := os.ReadFile(filepath.Join(shipped, "dialog.ipynb"))
	tests := []struct {
		name  string
		stdin string
		args  []string
	}{
		{"check", "", []string{"check", "jupyter.ipynb", "v3.ipynb", "future.ipynb", "invalid.ipynb"}},
		{"check-json", "", []string{"check", "--json", "invalid.ipynb", "dialog.ipynb"}},
		{"check-stdin", string(dialogNB), []string{"check", "-"}},
		{"check-missing", "", []string{"check", "missing.ipynb", "jupyter.ipynb"}},
		{"check-not-json", "{\"nbformat\": 4,\n \"cells\": [oops]}", []string{"check", "-"}},
		{"check-usage", "", []string{"check"}},
		{"check-help", "", []string{"check", "--help"}},
		{"show", "", []string{"show", "dialog.ipynb"}},
		{"show-narrow", "", []string{"show", "--width", "24", "--rows", "3", "dialog.ipynb"}},
		{"show-json", "", []string{"show", "--json", "dialog.ipynb"}},
		{"show-stdin", string(dialogNB), []string{"show", "-"}},
		{"md", "", []string{"md", "dialog.ipynb"}},
		{"md-jupyter", "", []string{"md", "jupyter.ipynb"}},
		{"md-two-files", "", []string{"md", "dialog.ipynb", "jupyter.ipynb"}},
		{"md-no-file", "", []string{"md"}},
		{"show-folder", "", []string{"show", "."}},
		{"show-missing", "", []string{"show", "missing.ipynb"}},
		{"fmt-help", "", []string{"fmt", "--help"}},
		{"strip-help", "", []string{"strip", "-h"}},
		{"strip-bad-keep", "", []string{"strip", "--keep", "metadata.kernelspec", "jupyter.ipynb"}},
		{"merge-help", "", []string{"merge", "--help"}},
		{"diff-help", "", []string{"diff", "--help"}},
		{"fix-help", "", []string{"fix", "--help"}},
		{"git-help", "", []string{"git", "--help"}},
		{"help", "", []string{"--help"}},
		{"no-command", "", nil},
		{"unknown-command", "", []string{"frobnicate"}},
		{"unknown-command-typo", "", []string{"chek", "jupyter.ipynb"}},
		{"unknown-flag", "", []string{"fmt", "--dry-run", "jupyter.ipynb"}},
		{"unknown-flag-typo", "", []string{"check", "jupyter.ipynb", "--jsno"}},
		{"flag-bad-value", "", []string{"show", "--width", "wide", "dialog.ipynb"}},
		{"flag-no-value", "", []string{"show", "dialog.ipynb", "--rows"}},
		{"show-negative-width", "", []string{"show", "--width", "-1", "dialog.ipynb"}},
		{"show-negative-rows", "", []string{"show", "--rows=-3", "dialog.ipynb"}},
		{"help-fmt", "", []string{"help", "fmt"}},
		{"help-unknown", "", []string{"help", "frob"}},
		{"help-help", "", []string{"help", "help"}},
		{"flag-before-command", "", []string{"--jobs", "2", "check", "jupyter.ipynb"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := ipynb(t, shipped, tc.stdin, tc.args...)
			got := fmt.Sprintf("== stdout\n%s== stderr\n%s== exit %d\n", r.stdout, r.stderr, r.code)
			path := filepath.Join("testdata", "golden", tc.name+".txt")
			if *update {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("ipynb %s (-want +got):\n%s", strings.Join(tc.args, " "), diff)
			}
		})
	}
}

// Exit statuses: 0 fine, 1 findings, 2 usage or I/O error.
func TestExitStatus(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"check", "jupyter.ipynb", "dialog.ipynb"}, 0},
		{[]string{"check", "invalid.ipynb"}, 1},
		{[]string{"check", "missing.ipynb"}, 2},
		{[]string{"check", "--no-such-flag", "jupyter.ipynb"}, 2},
		{[]string{"show", "missing.ipynb"}, 2},
		{[]string{"show"}, 2},
		{[]string{"check"}, 2},
		{[]string{"fmt", "--check"}, 2},
		{[]string{"strip"}, 2},
		{[]string{"md", "jupyter.ipynb"}, 0},
		{[]string{"fmt", "--keep-style", "--check", "jupyter.ipynb", "kaggle.ipynb"}, 0},
		{[]string{"fmt", "--check", "jupyter.ipynb"}, 0},
		{[]string{"fmt", "--check", "kaggle.ipynb"}, 1},
		{[]string{"fmt", "--keep-style", "--canonical", "jupyter.ipynb"}, 2},
		{[]string{"fmt", "--check", "invalid.ipynb"}, 1},
		{[]string{"fmt", "--canonical", "--check", "kaggle.ipynb"}, 1},
		{[]string{"fmt", "--canonical", "--check", "jupyter.ipynb"}, 0},
	} {
		if r := ipynb(t, shipped, "", tc.args...); r.code != tc.want {
			t.Errorf("ipynb %s: exit %d, want %d\n%s%s", strings.Join(tc.args, " "), r.code, tc.want, r.stdout, r.stderr)
		}
	}
}

// fmt --canonical writes exactly Python nbformat's bytes; fmt heals in the
// file's own style; fmt --upgrade adds ids; a read-only file is left alone.
func TestFmt(t *testing.T) {
	t.Parallel()
	dir := work(t, "kaggle.ipynb", "invalid.ipynb", "v4.4.ipynb", "jupyter.ipynb", "v3.ipynb")
	r := ipynb(t, dir, "", "fmt", "--canonical", "kaggle.ipynb", "jupyter.ipynb")
	if r.code != 0 || r.stdout != "kaggle.ipynb\n" {
		t.Errorf("fmt --canonical: %+v", r)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "kaggle.ipynb"))
	want, _ := os.ReadFile(filepath.Join(shipped, "canonical", "kaggle.ipynb"))
	if !bytes.Equal(got, want) {
		t.Error("fmt --canonical output differs from Python nbformat's")
	}

	before, _ := os.ReadFile(filepath.Join(dir, "invalid.ipynb"))
	r = ipynb(t, dir, "", "fmt", "--keep-style", "-v", "invalid.ipynb")
	if r.code != 0 || r.stdout != "invalid.ipynb\n" || !strings.Contains(r.stderr, "invalid.ipynb: /cells/0/outputs: removed outputs from a markdown cell") {
		t.Errorf("fmt invalid: %+v", r)
	}
	if r := ipynb(t, dir, "", "check", "invalid.ipynb"); r.code != 0 {
		t.Errorf("healed notebook does not check: %s", r.stdout)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "invalid.ipynb"))
	// Healing kept the file's layout: untouched cells are byte for byte.
	if !bytes.Contains(after, cellBytes(t, before, 3)) || !bytes.Contains(after, cellBytes(t, before, 5)) {
		t.Error("healing changed untouched cells")
	}

	r = ipynb(t, dir, "", "fmt", "--upgrade", "v4.4.ipynb", "v3.ipynb")
	if r.code != 0 {
		t.Fatalf("fmt --upgrade: %+v", r)
	}
	for _, n := range []string{"v4.4.ipynb", "v3.ipynb"} {
		nb, err := nbformat.ReadFile(filepath.Join(dir, n))
		if err != nil || nb.Nbformat != 4 || nb.NbformatMinor != 5 || nbformat.Validate(nb) != nil {
			t.Errorf("%s after --upgrade: %v", n, err)
		}
	}

	ro := work(t, "invalid.ipynb")
	path := filepath.Join(ro, "invalid.ipynb")
	os.Chmod(path, 0o444)
	r = ipynb(t, ro, "", "fmt", "invalid.ipynb")
	if r.code != 2 || !strings.Contains(r.stderr, "invalid.ipynb: the file is read-only") {
		t.Errorf("fmt of a read-only file: %+v", r)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, before) {
		t.Error("read-only file changed")
	}

	// Older notebooks are left alone without --upgrade; stdin goes to stdout.
	old := work(t, "v3.ipynb")
	r = ipynb(t, old, "", "fmt", ".")
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "v3.ipynb: nbformat 3: not changed") {
		t.Errorf("fmt v3: %+v", r)
	}
	kaggle, _ := os.ReadFile(filepath.Join(shipped, "kaggle.ipynb"))
	r = ipynb(t, old, string(kaggle), "fmt", "--canonical", "-")
	if r.code != 0 || r.stdout != string(want) {
		t.Errorf("fmt --canonical -: %d %q", r.code, r.stderr)
	}
}

func cellBytes(t *testing.T, data []byte, i int) []byte {
	var nb struct{ Cells []json.RawMessage }
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatal(err)
	}
	// json.RawMessage keeps the cell's own bytes (indentation included).
	return nb.Cells[i]
}

// strip gives what nbstripout's rules give, written by Python nbformat
// (testdata/strip, from scripts/reference/strip_reference.py).
func TestStrip(t *testing.T) {
	t.Parallel()
	want, _ := os.ReadFile(filepath.Join("testdata", "strip", "jupyter.ipynb"))
	wantCount, _ := os.ReadFile(filepath.Join("testdata", "strip", "jupyter-keep-count.ipynb"))
	dir := work(t, "jupyter.ipynb")
	r := ipynb(t, dir, "", "strip", ".")
	if r.code != 0 || r.stdout != "jupyter.ipynb\n" {
		t.Errorf("strip: %+v", r)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "jupyter.ipynb"))
	if !bytes.Equal(got, want) {
		t.Errorf("strip output differs from the reference:\n%s", cmp.Diff(string(want), string(got)))
	}
	// Stripping a stripped notebook changes nothing.
	if r := ipynb(t, dir, "", "strip", "jupyter.ipynb"); r.code != 0 || r.stdout != "" {
		t.Errorf("second strip: %+v", r)
	}
	src, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if r := ipynb(t, dir, string(src), "strip", "--keep-count", "-"); r.code != 0 || r.stdout != string(wantCount) {
		t.Errorf("strip --keep-count -: %s", cmp.Diff(string(wantCount), r.stdout))
	}
	// --keep keeps a key.
	r = ipynb(t, dir, string(src), "strip", "--keep", "cell.metadata.scrolled", "-")
	if !strings.Contains(r.stdout, `"scrolled": "auto"`) || strings.Contains(r.stdout, `"collapsed": false`) {
		t.Errorf("--keep: %s", r.stdout)
	}
}

// A progress line appears on a terminal when there are many files.
func TestProgress(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, _ := os.ReadFile(filepath.Join(shipped, "dialog.ipynb"))
	for i := 0; i < screenful+5; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("nb%02d.ipynb", i)), data, 0o644)
	}
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, stderrTTY: true}
	if code := run(e, []string{"check", dir}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), fmt.Sprintf("[%d/%d]", screenful+5, screenful+5)) {
		t.Errorf("no progress on a terminal: %q", errb.String())
	}
	errb.Reset()
	e.stderrTTY = false
	run(e, []string{"check", dir})
	if errb.Len() != 0 {
		t.Errorf("progress without a terminal: %q", errb.String())
	}
}

// check on the corpus agrees with MANIFEST: exactly the schema-invalid
// files are reported invalid, every other one same.
func TestCheckCorpus(t *testing.T) {
	t.Parallel()
	dir, entries := corpus.Entries(t)
	r := ipynb(t, dir, "", "check", "--json", ".")
	files, _ := checkLines(t, r.stdout)
	got := map[string]string{}
	for _, f := range files {
		got[f.Path] = f.Status
	}
	n := 0
	for _, e := range entries {
		st, ok := got[e.Path]
		if !ok {
			if !strings.Contains(e.Path, ".ipynb_checkpoints/") {
				t.Errorf("%s: not checked", e.Path)
			}
			continue
		}
		n++
		want := "same"
		if e.Schema == "invalid" {
			want = "invalid"
		}
		if st != want {
			t.Errorf("%s: %s, want %s", e.Path, st, want)
		}
	}
	if len(got) != n {
		t.Errorf("%d files checked, %d in MANIFEST", len(got), n)
	}
	t.Logf("%d corpus files checked", n)
}

// fmt --canonical --check reports exactly the files Python nbformat
// rewrites (those corpus-canonical holds).
func TestFmtCanonicalCorpus(t *testing.T) {
	t.Parallel()
	dir := corpus.Dir(t)
	cdir := corpus.CanonicalDir(t)
	want := map[string]bool{}
	filepath.WalkDir(cdir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(cdir, p)
			want[quoteName(rel)] = true // as fmt prints it
		}
		return nil
	})
	r := ipynb(t, dir, "", "fmt", "--canonical", "--check", ".")
	got := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		got[l] = true
	}
	for f := range want {
		if !got[f] && !strings.Contains(f, ".ipynb_checkpoints/") {
			t.Errorf("%s: Python rewrites it, fmt --canonical --check does not list it", f)
		}
	}
	for f := range got {
		if !want[f] {
			t.Errorf("%s: listed, but Python writes it unchanged", f)
		}
	}
	if r.code != 1 {
		t.Errorf("exit %d, want 1", r.code)
	}
}

// toolEnv is the environment for go commands run by tests: the process's,
// with the build and module caches named as they were before any test
// moved HOME (the git tests give git a HOME of their own, and a go build
// under it would start from an empty cache).
var toolEnv []string

func toolchainEnv() []string {
	env := os.Environ()
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		return env
	}
	vals := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	for i, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if i < len(vals) && vals[i] != "" {
			env = append(env, name+"="+vals[i])
		}
	}
	return env
}

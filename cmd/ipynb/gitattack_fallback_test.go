package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// A file git gives the merge driver that ipynb cannot merge as a
// notebook — not JSON (a notebook committed half-merged, cut short), an
// empty file, nbformat 3, or any file a committed .gitattributes sends
// to merge=ipynb — is merged exactly as git merges it without the
// driver: the same file (markers in the text where git puts them, both
// sides' lines everywhere else), the same exit status and index. The
// driver used to refuse them (exit 2): git then reported a conflict
// whose work tree file held ours alone, without a marker, theirs' edit
// only in the index, a commit away from being lost. A side git merge-file
// finds binary leaves ours in the file, as git does (the long tier; its
// message: TestMergeTextFallbackBinaryNamesSides).
func TestGitDriverMergesNonNotebooksAsGitDoes(t *testing.T) {
	needGitParallel(t)
	nb := []byte(mknbText(t, "a = 1", "b = 2", "c = 3", "d = 4", "e = 5", "f = 6"))
	v3, err := os.ReadFile(filepath.Join(shipped, "v3.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	text := []byte("one\ntwo\nthree\nfour\nfive\nsix\nseven\n")
	type version struct{ base, ours, theirs []byte } // nil: absent
	cases := []struct {
		name, file string
		attrs      string // a committed .gitattributes
		v          version
	}{
		{"ours not JSON, theirs edits elsewhere", "nb.ipynb", "", version{
			nb, replaceOnce(t, nb, "\"a = 1\"", "\"a = 1\"BROKEN"), replaceOnce(t, nb, "\"f = 6\"", "\"f = 66\""),
		}},
		{"theirs not JSON, same line as ours", "nb.ipynb", "", version{
			nb, replaceOnce(t, nb, "\"c = 3\"", "\"c = 33\""), replaceOnce(t, nb, "\"c = 3\"", "\"c = 3\"BROKEN"),
		}},
		{"nbformat 3, edits in two places", "old.ipynb", "", version{
			v3, replaceOnce(t, v3, `"Old notebook"`, `"Old notebook!"`), replaceOnce(t, v3, `"over lines"`, `"over more lines"`),
		}},
		{"empty ours, add/add", "empty.ipynb", "", version{nil, []byte{}, nb}},
		{"theirs binary, add/add", "bin.ipynb", "", version{nil, nb, []byte("\x00bin\xff\n")}},
		{"a text file committed as merge=ipynb", "notes.txt", "*.txt merge=ipynb\n", version{
			text, []byte(strings.Replace(string(text), "two", "TWO", 1)), []byte(strings.Replace(string(text), "six", "SIX", 1)),
		}},
		{"a text file committed as merge=ipynb, conflicting", "notes.txt", "*.txt merge=ipynb\n", version{
			text, []byte(strings.Replace(string(text), "four", "FOUR", 1)), []byte(strings.Replace(string(text), "four", "4", 1)),
		}},
	}
	long := map[string]bool{"theirs binary, add/add": true}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if long[c.name] {
				testtier.Long(t)
			}
			src := newRepoIn(t, filepath.Join(t.TempDir(), "src"))
			if c.attrs != "" {
				commitFile(t, src, ".gitattributes", []byte(c.attrs), "attributes")
			} else {
				commitFile(t, src, "README", []byte("x\n"), "start")
			}
			if c.v.base != nil {
				commitFile(t, src, c.file, c.v.base, "base")
			}
			gitIn(t, src, "branch", "topic")
			commitFile(t, src, c.file, c.v.ours, "ours")
			gitIn(t, src, "checkout", "-q", "topic")
			commitFile(t, src, c.file, c.v.theirs, "theirs")
			gitIn(t, src, "checkout", "-q", "main")

			// The same merge in two clones: git alone, and with the driver.
			merge := func(driver bool) (file string, status int, unmerged string) {
				dir := filepath.Join(t.TempDir(), "clone")
				gitIn(t, filepath.Dir(dir), "clone", "-q", src, dir)
				gitIn(t, dir, "branch", "topic", "origin/topic")
				if driver {
					if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
						t.Fatalf("install: %+v", r)
					}
				}
				out, st := gitStatusIn(t, dir, "merge", "--no-edit", "topic")
				if driver {
					t.Logf("git merge with the driver: exit %d\n%s", st, out)
				}
				unmerged, _ = gitStatusIn(t, dir, "ls-files", "-u")
				return readFile(t, filepath.Join(dir, c.file)), st, unmerged
			}
			gitFile, gitSt, gitU := merge(false)
			ourFile, ourSt, ourU := merge(true)
			if ourFile != gitFile {
				t.Errorf("the work tree file differs from git's own merge:\ngit:\n%s\nwith the driver:\n%s", gitFile, ourFile)
			}
			if ourSt != gitSt || (ourU == "") != (gitU == "") {
				t.Errorf("git merge exits %d with the driver (unmerged: %q), %d without (unmerged: %q)", ourSt, ourU, gitSt, gitU)
			}
		})
	}
}

// A side git merge-file finds binary: nothing is written, exit 2 (git
// keeps its stages), and the message names the file and the side, and
// how to take theirs, never the temporary files git merge-file was given
// (gone when it is read).
func TestMergeTextFallbackBinaryNamesSides(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	ours := mknbText(t, "a = 1")
	for name, text := range map[string]string{"base": "", "ours": ours, "theirs": "\x00bin\xff\n"} {
		writeFileT(t, dir, name, text)
	}
	p := func(n string) string { return filepath.Join(dir, n) }
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}
	code := run(e, []string{"merge", "--text-fallback", "--path", "-x y.ipynb", "--", p("base"), p("ours"), p("theirs")})
	const want = "-x y.ipynb: git merge-file: error: Cannot merge binary files: theirs; nothing merged, the file is ours as it was (git keeps each side: git checkout --theirs -- '-x y.ipynb' writes theirs)\n"
	if code != exitError || !strings.Contains(errb.String(), want) || strings.Contains(errb.String(), dir) {
		t.Errorf("exit %d, want 2 and %q without temporary names:\n%s", code, want, errb.String())
	}
	if got := readFile(t, p("ours")); got != ours {
		t.Errorf("ours was rewritten:\n%s", got)
	}
}

// mknbText is a version 4.5 notebook of code cells c0, c1, … with the
// given sources, written as Jupyter writes it (one member a line).
func mknbText(t *testing.T, sources ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("{\n \"cells\": [\n")
	for i, s := range sources {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("  {\n   \"cell_type\": \"code\",\n   \"execution_count\": null,\n")
		b.WriteString("   \"id\": \"c" + string(rune('0'+i)) + "\",\n   \"metadata\": {},\n   \"outputs\": [],\n")
		b.WriteString("   \"source\": \"" + s + "\"\n  }")
	}
	b.WriteString("\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n")
	validNotebook(t, []byte(b.String()))
	return b.String()
}

// The merge driver an older install wrote (without --text-fallback, for
// every strategy) is found by ipynb git status, which says why and how
// to update it, and ipynb git install updates it keeping its strategy.
func TestGitStatusFindsDriverWithoutTextFallback(t *testing.T) {
	needGitParallel(t)
	for _, outputs := range []string{"", " --outputs theirs"} {
		dir := newRepo(t)
		exe, _ := filepath.EvalSymlinks(binary)
		if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
			t.Fatalf("install: %+v", r)
		}
		gitIn(t, dir, "config", "merge.ipynb.driver", exe+" merge"+outputs+" --marker-size %L --path %P --ours-label %X --theirs-label %Y -- %O %A %B")
		r := ipynb(t, dir, "", "git", "status")
		if r.code != 1 || !strings.Contains(r.stdout, "merge.ipynb.driver was written by an older ipynb git install (it refuses files that are not notebooks") {
			t.Errorf("status of an older driver%s: %+v", outputs, r)
		}
		if r := ipynb(t, dir, "", "git", "install"); r.code != 0 {
			t.Fatalf("install: %+v", r)
		}
		want := exe + " merge" + outputs + " --text-fallback --marker-size %L --path %P --ours-label %X --theirs-label %Y -- %O %A %B" + driverRescue
		if got := strings.TrimSpace(gitIn(t, dir, "config", "merge.ipynb.driver")); got != want {
			t.Errorf("after install: %q, want %q", got, want)
		}
		if r := ipynb(t, dir, "", "git", "status"); r.code != 0 {
			t.Errorf("status after install: %+v", r)
		}
	}
}

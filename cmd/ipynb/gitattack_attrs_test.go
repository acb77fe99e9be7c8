package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A repository may commit .gitattributes as a symbolic link, to any file
// (git itself reads no attributes from it: it opens .gitattributes
// without following links). install --attributes and uninstall
// --attributes refuse it, before changing anything, and never write
// through it: they used to append ipynb's line to the file it leads to,
// outside the repository, and report the drivers installed while git
// applied none of them.
func TestGitAttributesLinkNeverFollowed(t *testing.T) {
	t.Parallel()
	dir := newRepoIn(t, filepath.Join(t.TempDir(), "repo"))
	victim := filepath.Join(t.TempDir(), "victim")
	const content = "someone's file\n*.ipynb merge=ipynb diff=ipynb\n"
	if err := os.WriteFile(victim, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, ".gitattributes")); err != nil {
		t.Skip(err)
	}
	gitIn(t, dir, "add", ".gitattributes")
	gitIn(t, dir, "commit", "-q", "-m", "a link")
	// Git applies nothing from the link's target.
	if out := gitIn(t, dir, "check-attr", "merge", "--", "nb.ipynb"); !strings.Contains(out, "merge: unspecified") {
		t.Fatalf("git reads the linked .gitattributes: %s", out)
	}
	config := readFile(t, filepath.Join(dir, ".git", "config"))
	for _, args := range [][]string{{"install", "--attributes"}, {"install", "--attributes", "--strip"}, {"uninstall", "--attributes"}} {
		r := ipynb(t, dir, "", append([]string{"git"}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "symbolic link") {
			t.Errorf("git %s: %+v", strings.Join(args, " "), r)
		}
		if got := readFile(t, victim); got != content {
			t.Errorf("git %s wrote through the link:\n%s", strings.Join(args, " "), got)
		}
		if got := readFile(t, filepath.Join(dir, ".git", "config")); got != config {
			t.Errorf("git %s changed the configuration:\n%s", strings.Join(args, " "), got)
		}
	}
	if fi, err := os.Lstat(filepath.Join(dir, ".gitattributes")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf(".gitattributes is no longer the link: %v %v", fi, err)
	}
	// Status does not show the target's lines as the work tree's.
	if r := ipynb(t, dir, "", "git", "status"); !strings.Contains(r.stdout, ".gitattributes: is a symbolic link") {
		t.Errorf("status: %+v", r)
	}
	// The local install does not touch it.
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 || readFile(t, victim) != content {
		t.Errorf("install: %+v", r)
	}
}

// A setting of the drivers' names that is not ipynb's — nbstripout's
// install writes diff.ipynb.textconv, a user may have a merge driver of
// that name — is never replaced: install refuses before changing
// anything (local and --global), naming the value and how to remove it,
// and installs once it is removed. It used to be overwritten without a
// word, and uninstall then removed it: the user's setting was gone.
func TestGitInstallKeepsSettingsNotIpynbs(t *testing.T) {
	t.Parallel()
	for _, scope := range []string{"--local", "--global"} {
		t.Run(scope[2:], func(t *testing.T) {
			dir := newRepo(t)
			const textconv = `"python3" -m nbstripout -t`
			for _, kv := range [][2]string{{"diff.ipynb.textconv", textconv}, {"filter.ipynb.clean", "jq ."}} {
				gitIn(t, dir, "config", scope, kv[0], kv[1])
			}
			files := []string{filepath.Join(dir, ".git", "config"), filepath.Join(testHome(t), ".gitconfig"),
				filepath.Join(dir, ".git", "info", "attributes"), filepath.Join(testHome(t), ".config", "git", "attributes")}
			before := make([]string, len(files))
			for i, f := range files {
				before[i] = readFile(t, f)
			}
			args := []string{"git", "install", "--strip"}
			if scope == "--global" {
				args = append(args, "--global")
			}
			r := ipynb(t, dir, "", args...)
			if r.code != 2 || !strings.Contains(r.stderr, "diff.ipynb.textconv = "+textconv) ||
				!strings.Contains(r.stderr, "git config "+scope+" --unset diff.ipynb.textconv") || !strings.Contains(r.stderr, "filter.ipynb.clean = jq .") {
				t.Errorf("install over settings not ipynb's: %+v", r)
			}
			for i, f := range files {
				if got := readFile(t, f); got != before[i] {
					t.Errorf("install changed %s:\n%s", f, got)
				}
			}
			gitIn(t, dir, "config", scope, "--unset", "diff.ipynb.textconv")
			gitIn(t, dir, "config", scope, "--unset", "filter.ipynb.clean")
			if r := ipynb(t, dir, "", args...); r.code != 0 {
				t.Errorf("install once they are removed: %+v", r)
			}
		})
	}
}

// install --global writes its line into the attributes file git reads:
// core.attributesFile wherever git finds it — in a file ~/.gitconfig
// includes, or in the system configuration — not only in ~/.gitconfig
// itself. It used to write ~/.config/git/attributes, which git then
// never read: the drivers were reported installed and applied to nothing.
func TestGitInstallGlobalAttributesFileGitReads(t *testing.T) {
	t.Parallel()
	for _, where := range []string{"include", "system"} {
		t.Run(where, func(t *testing.T) {
			dir := newRepo(t)
			home := testHome(t)
			attrs := filepath.Join(home, "dot", "attributes")
			os.MkdirAll(filepath.Dir(attrs), 0o755)
			os.WriteFile(attrs, []byte("*.py diff=python\n"), 0o644)
			setting := "[core]\n\tattributesFile = ~/dot/attributes\n"
			switch where {
			case "include":
				os.WriteFile(filepath.Join(home, "dot", "gitconfig"), []byte(setting), 0o644)
				os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[include]\n\tpath = dot/gitconfig\n"), 0o644)
			case "system":
				system := filepath.Join(t.TempDir(), "gitconfig")
				os.WriteFile(system, []byte(setting), 0o644)
				setTestEnv(t, "GIT_CONFIG_NOSYSTEM", "0")
				setTestEnv(t, "GIT_CONFIG_SYSTEM", system)
			}
			if r := ipynb(t, dir, "", "git", "install", "--global"); r.code != 0 {
				t.Fatalf("install --global: %+v", r)
			}
			if out := gitIn(t, dir, "check-attr", "merge", "diff", "--", "nb.ipynb"); out != "nb.ipynb: merge: ipynb\nnb.ipynb: diff: ipynb\n" {
				t.Errorf("git applies after install --global:\n%s", out)
			}
			if got := readFile(t, attrs); got != "*.py diff=python\n*.ipynb merge=ipynb diff=ipynb\n" {
				t.Errorf("%s:\n%s", attrs, got)
			}
			if _, err := os.Stat(filepath.Join(home, ".config", "git", "attributes")); err == nil {
				t.Error("install --global wrote ~/.config/git/attributes, which git does not read here")
			}
			if r := ipynb(t, dir, "", "git", "uninstall", "--global"); r.code != 0 || readFile(t, attrs) != "*.py diff=python\n" {
				t.Errorf("uninstall --global: %+v\n%s", r, readFile(t, attrs))
			}
		})
	}
}

package main

// Tests of git install, uninstall and their scopes, read back through git
// itself, of shell quoting, and of git missing.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// newRepo makes an empty git repository in a temporary folder.
func newRepo(t *testing.T) string {
	t.Helper()
	needGit(t)
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q", "-b", "main", ".")
	return dir
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(data)
}

// install writes what git needs, read back through git itself; a second
// install changes nothing; uninstall gives back the configuration and
// the attributes as they were, keeping what is not ipynb's.
func TestGitInstall(t *testing.T) {
	needGitParallel(t)
	dir := newRepo(t)
	config := filepath.Join(dir, ".git", "config")
	attrs := filepath.Join(dir, ".git", "info", "attributes")
	// The user's own settings, which must survive.
	gitIn(t, dir, "config", "diff.ipynb.xfuncname", "^def")
	os.MkdirAll(filepath.Dir(attrs), 0o755)
	os.WriteFile(attrs, []byte("*.py diff=python\n*.ipynb filter=nbstripout\n"), 0o644)
	configBefore, attrsBefore := readFile(t, config), readFile(t, attrs)

	if r := ipynb(t, dir, "", "git", "status"); r.code != 1 || !strings.Contains(r.stdout, "merge.ipynb.driver is not set") {
		t.Errorf("status before install: %+v", r)
	}
	r := ipynb(t, dir, "", "git", "install")
	if r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	exe, _ := filepath.EvalSymlinks(binary)
	for key, want := range map[string]string{
		"merge.ipynb.driver":   exe + " merge --text-fallback --marker-size %L --path %P --ours-label %X --theirs-label %Y -- %O %A %B || { s=$?; [ $s -lt 126 ] && exit $s; m=%L; [ $m -gt 1024 ] && m=1024; git merge-file -L ours -L base -L theirs --marker-size=$m -- %A %O %B; }",
		"diff.ipynb.command":   exe + " diff --",
		"diff.ipynb.textconv":  exe + " diff --textconv --",
		"diff.ipynb.xfuncname": "^def",
	} {
		if got := strings.TrimSpace(gitIn(t, dir, "config", "--get", key)); got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	if out, st := gitStatusIn(t, dir, "config", "--get", "filter.ipynb.clean"); st != 1 {
		t.Errorf("filter installed without --strip: %s", out)
	}
	// Git applies our drivers; the user's filter line stays in effect.
	if got := gitIn(t, dir, "check-attr", "merge", "diff", "filter", "--", "a/b.ipynb"); got != "a/b.ipynb: merge: ipynb\na/b.ipynb: diff: ipynb\na/b.ipynb: filter: nbstripout\n" {
		t.Errorf("check-attr: %q", got)
	}
	if got := readFile(t, attrs); got != attrsBefore+"*.ipynb merge=ipynb diff=ipynb\n" {
		t.Errorf("attributes: %q", got)
	}
	if r := ipynb(t, dir, "", "git", "status"); r.code != 0 || !strings.Contains(r.stdout, "in effect for *.ipynb: merge=ipynb diff=ipynb filter=nbstripout") {
		t.Errorf("status after install: %+v", r)
	}

	// Idempotent.
	configOnce, attrsOnce := readFile(t, config), readFile(t, attrs)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 || r.stdout != "" {
		t.Errorf("second install: %+v", r)
	}
	if readFile(t, config) != configOnce || readFile(t, attrs) != attrsOnce {
		t.Error("a second install changed the files")
	}

	// --strip adds the filter; a later plain install keeps it.
	if r := ipynb(t, dir, "", "git", "install", "--strip"); r.code != 0 {
		t.Fatalf("install --strip: %+v", r)
	}
	if got := strings.TrimSpace(gitIn(t, dir, "config", "--get", "filter.ipynb.clean")); got != exe+" strip --filter -" {
		t.Errorf("filter.ipynb.clean = %q", got)
	}
	if got := gitIn(t, dir, "check-attr", "filter", "--", "x.ipynb"); got != "x.ipynb: filter: ipynb\n" {
		t.Errorf("check-attr filter after --strip: %q", got)
	}
	stripped := readFile(t, attrs)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 || r.stdout != "" || readFile(t, attrs) != stripped {
		t.Errorf("install after --strip dropped the filter: %+v", r)
	}

	// Uninstall: back to the user's files, byte for byte.
	if r := ipynb(t, dir, "", "git", "uninstall"); r.code != 0 {
		t.Fatalf("uninstall: %+v", r)
	}
	if got := readFile(t, config); got != configBefore {
		t.Errorf("config after uninstall:\n%s\nwant:\n%s", got, configBefore)
	}
	if got := readFile(t, attrs); got != attrsBefore {
		t.Errorf("attributes after uninstall: %q, want %q", got, attrsBefore)
	}
	if r := ipynb(t, dir, "", "git", "uninstall"); r.code != 0 || r.stdout != "" {
		t.Errorf("second uninstall: %+v", r)
	}
}

// A driver value the user changed is not removed; --attributes writes
// the shared .gitattributes; --global writes the user's configuration
// and global attributes file; status notices a command that is gone.
func TestGitInstallScopes(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	if r := ipynb(t, dir, "", "git", "install", "--attributes", "--command", "ipynb"); r.code != 0 {
		t.Fatalf("install --attributes: %+v", r)
	}
	if got := readFile(t, filepath.Join(dir, ".gitattributes")); got != "*.ipynb merge=ipynb diff=ipynb\n" {
		t.Errorf(".gitattributes: %q", got)
	}
	if got := strings.TrimSpace(gitIn(t, dir, "config", "--get", "diff.ipynb.command")); got != "ipynb diff --" {
		t.Errorf("--command: diff.ipynb.command = %q", got)
	}
	gitIn(t, dir, "config", "merge.ipynb.driver", "my-merge %O %A %B")
	r := ipynb(t, dir, "", "git", "uninstall")
	if r.code != 0 || !strings.Contains(r.stderr, "kept local merge.ipynb.driver = my-merge %O %A %B") || !strings.Contains(r.stderr, ".gitattributes still has") {
		t.Errorf("uninstall: %+v", r)
	}
	if got := strings.TrimSpace(gitIn(t, dir, "config", "--get", "merge.ipynb.driver")); got != "my-merge %O %A %B" {
		t.Errorf("the user's driver was removed: %q", got)
	}
	if r := ipynb(t, dir, "", "git", "uninstall", "--attributes"); r.code != 0 || readFile(t, filepath.Join(dir, ".gitattributes")) != "" {
		t.Errorf("uninstall --attributes: %+v", r)
	}

	// --global, from outside any repository.
	out := t.TempDir()
	home := testHome(t)
	if r := ipynb(t, out, "", "git", "install"); r.code != 2 || !strings.Contains(r.stderr, "not inside a git work tree") {
		t.Errorf("install outside a repository: %+v", r)
	}
	if r := ipynb(t, out, "", "git", "install", "--global"); r.code != 0 {
		t.Fatalf("install --global: %+v", r)
	}
	exe, _ := filepath.EvalSymlinks(binary)
	if got := strings.TrimSpace(gitIn(t, out, "config", "--global", "--get", "merge.ipynb.driver")); got != exe+" merge --text-fallback --marker-size %L --path %P --ours-label %X --theirs-label %Y -- %O %A %B || { s=$?; [ $s -lt 126 ] && exit $s; m=%L; [ $m -gt 1024 ] && m=1024; git merge-file -L ours -L base -L theirs --marker-size=$m -- %A %O %B; }" {
		t.Errorf("global driver: %q", got)
	}
	if got := readFile(t, filepath.Join(home, ".config", "git", "attributes")); got != "*.ipynb merge=ipynb diff=ipynb\n" {
		t.Errorf("global attributes: %q", got)
	}
	// A new repository uses them.
	other := newRepoIn(t, filepath.Join(out, "r"))
	if got := gitIn(t, other, "check-attr", "merge", "--", "n.ipynb"); got != "n.ipynb: merge: ipynb\n" {
		t.Errorf("global attributes not in effect: %q", got)
	}
	if r := ipynb(t, other, "", "git", "status"); r.code != 0 {
		t.Errorf("status with a global install: %+v", r)
	}

	// A command that no longer exists (a removed build).
	gone := filepath.Join(t.TempDir(), "ipynb")
	copyFile(t, binary, gone)
	cmd := exec.Command(gone, "git", "install", "--global")
	cmd.Dir = out
	cmd.Env = testEnv(t)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	os.Remove(gone)
	if r := ipynb(t, other, "", "git", "status"); r.code != 1 || !strings.Contains(r.stdout, gone+" does not exist or cannot run") {
		t.Errorf("status with a missing command: %+v", r)
	}
	if r := ipynb(t, out, "", "git", "uninstall", "--global"); r.code != 0 || readFile(t, filepath.Join(home, ".gitconfig")) != "" {
		t.Errorf("uninstall --global: %+v\n%s", r, readFile(t, filepath.Join(home, ".gitconfig")))
	}
}

func newRepoIn(t *testing.T, dir string) string {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	gitIn(t, dir, "init", "-q", "-b", "main", ".")
	return dir
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	nbtest.WriteExecutable(t, to, data)
}

// Quoting as sh reads it (the shell git runs drivers with).
func TestShellQuote(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"/usr/bin/ipynb", "/a b/it's", `/x"y`, "/$HOME/`x`/a\\b", "/tmp/ü"} {
		out, err := exec.Command("sh", "-c", "printf %s "+shellQuote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("sh reads shellQuote(%q) as %q (%v)", s, out, err)
		}
		if got := commandWord(shellQuote(s) + " merge %O"); got != s {
			t.Errorf("commandWord(shellQuote(%q)) = %q", s, got)
		}
	}
}

// Without git on the PATH, the git commands say so.
func TestGitNotInstalled(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, sub := range []string{"install", "uninstall", "status"} {
		r := ipynb(t, t.TempDir(), "", "git", sub)
		if r.code != 2 || !strings.Contains(r.stderr, "ipynb git "+sub+": the git program is not found") {
			t.Errorf("git %s: %+v", sub, r)
		}
	}
}

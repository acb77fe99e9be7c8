package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// install --command writes a shell command git runs: one git could not
// run is refused before anything changes — a path that does not exist or
// cannot run (a path with spaces not quoted reads as "/opt/my"), or a
// command that starts with no word (an unclosed quote, blanks; install
// itself would then not recognise its own settings, and neither
// reinstall nor uninstall could replace them) — and one looked up on the
// PATH that is not there now is installed with a warning. Such commands
// used to be written as given: every git diff then stopped with
// "external diff died".
func TestGitInstallCommandGitCanRun(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	spaced := filepath.Join(t.TempDir(), "my tools", "ipynb")
	os.MkdirAll(filepath.Dir(spaced), 0o755)
	copyFile(t, binary, spaced)
	config := readFile(t, filepath.Join(dir, ".git", "config"))
	for _, cmd := range []string{spaced, "'" + filepath.Dir(spaced) + "/nope'", "'unclosed", "  ", `"` + spaced} {
		r := ipynb(t, dir, "", "git", "install", "--command", cmd)
		if r.code != 2 || !strings.Contains(r.stderr, "--command") {
			t.Errorf("install --command %q: %+v", cmd, r)
		}
		if got := readFile(t, filepath.Join(dir, ".git", "config")); got != config {
			t.Errorf("install --command %q changed the configuration:\n%s", cmd, got)
		}
	}
	if r := ipynb(t, dir, "", "git", "install", "--command", "ipynb-not-on-the-path"); r.code != 0 || !strings.Contains(r.stderr, "warning") || !strings.Contains(r.stderr, "PATH") {
		t.Errorf("install --command ipynb-not-on-the-path: %+v", r)
	}
	// Quoted, it runs: git diff goes through the driver.
	if r := ipynb(t, dir, "", "git", "install", "--command", shellQuote(spaced)); r.code != 0 || r.stderr != "" {
		t.Fatalf("install --command %s: %+v", shellQuote(spaced), r)
	}
	commitFile(t, dir, "nb.ipynb", []byte(mknbText(t, "a")), "nb")
	writeFileT(t, dir, "nb.ipynb", mknbText(t, "b"))
	if out := gitIn(t, dir, "diff"); !strings.Contains(out, "## code c0") {
		t.Errorf("git diff with the quoted command:\n%s", out)
	}
	if r := ipynb(t, dir, "", "git", "uninstall"); r.code != 0 || strings.Contains(r.stderr, "kept") {
		t.Errorf("uninstall: %+v", r)
	}
}

// install writes the path the user ran ipynb by — a package manager's
// link (Homebrew's bin/ipynb → Cellar/ipynb/1.0/bin/ipynb, a Nix
// profile), given as a path or found on the PATH — when it leads to this
// very program, so that the drivers keep working when an upgrade
// replaces the versioned folder. It used to write the link's target:
// after the upgrade every git diff stopped ("external diff died").
func TestGitInstallWritesThePathRun(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"path", "PATH"} {
		t.Run(how, func(t *testing.T) {
			dir := newRepo(t)
			root := t.TempDir()
			v1 := filepath.Join(root, "Cellar", "1.0", "ipynb")
			link := filepath.Join(root, "bin", "ipynb")
			os.MkdirAll(filepath.Dir(v1), 0o755)
			os.MkdirAll(filepath.Dir(link), 0o755)
			copyFile(t, binary, v1)
			if err := os.Symlink(v1, link); err != nil {
				t.Skip(err)
			}
			cmd := exec.Command(link, "git", "install")
			if how == "PATH" {
				// Run as a shell runs "ipynb" found on the PATH.
				setTestEnv(t, "PATH", filepath.Dir(link)+string(os.PathListSeparator)+os.Getenv("PATH"))
				cmd.Args[0] = "ipynb"
			}
			cmd.Dir = dir
			cmd.Env = testEnv(t)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("install: %v\n%s", err, out)
			}
			if got := strings.TrimSpace(gitIn(t, dir, "config", "diff.ipynb.command")); got != link+" diff --" {
				t.Errorf("diff.ipynb.command = %q, want %q", got, link+" diff --")
			}
			// The upgrade: a new versioned folder, the link moved to it.
			v2 := filepath.Join(root, "Cellar", "1.1", "ipynb")
			os.MkdirAll(filepath.Dir(v2), 0o755)
			copyFile(t, binary, v2)
			os.RemoveAll(filepath.Dir(v1))
			os.Remove(link)
			os.Symlink(v2, link)
			commitFile(t, dir, "nb.ipynb", []byte(mknbText(t, "a")), "nb")
			writeFileT(t, dir, "nb.ipynb", mknbText(t, "b"))
			if out, st := gitStatusIn(t, dir, "diff"); st != 0 || !strings.Contains(out, "## code c0") {
				t.Errorf("git diff after the upgrade: exit %d\n%s", st, out)
			}
		})
	}
}

// ipynb git's help shows each value install writes, as it writes it
// (the driver's with its optional --outputs), but for the driver's name.
func TestGitHelpShowsEveryValueWritten(t *testing.T) {
	help := strings.Join(strings.Fields(gitCmd.doc), " ")
	help = strings.ReplaceAll(help, "merge [--outputs STRATEGY] ", "merge ")
	for _, s := range settings[1:] { // not merge.ipynb.name
		want := s.value
		if s.suffix != "" {
			want = "CMD " + s.suffix
		}
		if !strings.Contains(help, s.key+" "+want) {
			t.Errorf("the help does not show %s as install writes it: %s", s.key, want)
		}
	}
}

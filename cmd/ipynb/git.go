package main

// ipynb git: its subcommands (install, uninstall, status) dispatched, and the
// git binary run.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
)

var gitCmd = &command{
	name:    "git",
	summary: "set up git to merge and diff notebooks: install, uninstall, status",
	doc: `Configures git to merge, diff and (with --strip) clean notebooks with
ipynb, through git itself ("git config"):

  ipynb git install [--global] [--strip] [--outputs STRATEGY] [--attributes] [--command CMD]
  ipynb git uninstall [--global] [--attributes]
  ipynb git status [PATH...]

install sets, in the repository's .git/config (--global: ~/.gitconfig):
  merge.ipynb.driver    CMD merge [--outputs STRATEGY] --text-fallback
                            --marker-size %L --path %P --ours-label %X
                            --theirs-label %Y -- %O %A %B || { s=$?;
                            [ $s -lt 126 ] && exit $s; m=%L; [ $m -gt
                            1024 ] && m=1024; git merge-file -L ours -L
                            base -L theirs --marker-size=$m -- %A %O %B; }
  merge.ipynb.recursive binary  (a criss-cross merge's bases are merged as
                            git merges binary files: their own common
                            ancestor, so two branches' resolutions of one
                            conflict meet as a conflict again)
  diff.ipynb.command    CMD diff --              (git adds its 7 arguments)
  diff.ipynb.textconv   CMD diff --textconv --   (git log -p, git show, blame)
  difftool.ipynb.cmd    CMD web --open -- "$LOCAL" "$REMOTE"
                            (git difftool -t ipynb: the diff page)
  mergetool.ipynb.cmd   CMD web --open --merge -o "$MERGED" -- "$BASE"
                            "$LOCAL" "$REMOTE"   (git mergetool -t ipynb:
                            the merge page, saved into the file)
  mergetool.ipynb.trustExitCode true  (resolved when the page saved every
                            conflict resolved; closed unsaved, unmerged)
and with --strip:
  filter.ipynb.clean    CMD strip --filter -     (what git stores: no outputs)
  filter.ipynb.smudge   cat                      (checked out as stored)
  filter.ipynb.required true                     (a notebook strip refuses is
                                                  not added unstripped)
and the line "*.ipynb merge=ipynb diff=ipynb" (with --strip, also
filter=ipynb) in .git/info/attributes (--attributes: the .gitattributes
at the top of the work tree, to commit and share; --global: git's global
attributes file, core.attributesFile wherever git finds it, or
~/.config/git/attributes). --strip is refused where git passes notebooks
through another filter (an encryption filter such as git-crypt's, Git
LFS'; nbstripout's is replaced): the line would replace it, and git
would store them as the work tree has them.
Every file name git passes comes after "--", so a notebook named
"-x.ipynb" is a file, not a flag. %X and %Y are git's names for the two
sides (HEAD and the branch merged), which the conflict markers carry:
git 2.44 and later pass them; older git passes "%X" and "%Y" as they
are, and the merge then labels theirs with the branch "git merge" names
(ours: HEAD), else "ours" and "theirs". A file the driver cannot merge
as a notebook (not JSON, empty, nbformat 2, or any file an attributes
file gives merge=ipynb) is merged as git merges text without the driver
(--text-fallback: git merge-file, markers in the file), and so is
every file when the shell cannot run CMD (removed or moved since
install: the part after "||"), so that a conflict is always marked in
the file.

--outputs writes the merge driver's strategy for outputs and execution
counts both sides changed (conflict, ours, theirs or clear; default
conflict); installing again with another replaces it, and without
--outputs keeps the one installed.

With --strip, the work tree keeps its outputs and git stores notebooks
without them; files are checked out as stored (smudge = cat, which needs
no ipynb where the repository is cloned). So every command that writes a
notebook from git — git stash (which then restores the stored file),
git stash pop, git restore, git checkout of another branch or of a file,
git reset --hard — writes it without outputs: the sources and every
edit are kept, the outputs only where they were in the work tree and
not replaced. Re-run the notebook to get them back.

A setting of these names that is not ipynb's (nbstripout's install
writes diff.ipynb.textconv) is never replaced: install refuses, changing
nothing, and says how to remove it. Installing twice is installing
once; a filter installed before stays until uninstall, and install
completes one an older version installed without a smudge filter.
uninstall removes exactly what install adds,
the smudge filter included (settings whose value is not ipynb's, and
other attribute lines, are kept).

status prints what is configured and where, and which attributes git
applies to a notebook (to each PATH given, else to any *.ipynb, and
to every tracked notebook, naming those an attributes file deeper in the
tree gives other drivers); it
finds a set-up that breaks git (a clean filter required without a
smudge filter, as older versions of install wrote: git checkout,
restore, stash and clone then fail) and says how to repair it. It exits
0 when the drivers are in effect and nothing is broken, 1 otherwise, 2
when git cannot be asked.

CMD is the absolute path of this ipynb program, quoted for the shell git
runs it with; when it was run by a symbolic link to it (a package
manager's bin/ipynb, which an upgrade points at the new version), the
link's path. A program "go run" built lives in a temporary folder
removed when it exits, or in Go's build cache, which Go trims: install
refuses both. Install ipynb from your clone of the module (there:
"go install ./cmd/ipynb") and run that one, or give the command to write with
--command (for example --command ipynb, to find it on the PATH at merge
time; a path holding spaces quoted for sh). A --command git could not
run (an absolute path that does not exist, an unclosed quote) is
refused; one not on the PATH now is installed with a warning.`,
	usage: "install|uninstall|status [flags]",
}

func init() { gitCmd.run = runGit }

func runGit(e *env, args []string) int {
	if len(args) == 0 {
		gitCmd.flags(e).Usage()
		return exitError
	}
	switch args[0] {
	case "install":
		return runGitInstall(e, args[1:])
	case "uninstall":
		return runGitUninstall(e, args[1:])
	case "status":
		return runGitStatus(e, args[1:])
	case "-h", "-help", "--help", "help":
		fs := gitCmd.flags(e)
		fs.SetOutput(e.stdout)
		fs.Usage()
		return exitOK
	}
	fmt.Fprintf(e.stderr, "ipynb git: unknown subcommand %q (install, uninstall, status)\n", args[0])
	return exitError
}

// needGitProgram says so when the git program is not found, returning
// the exit status to stop with, or -1.
func needGitProgram(e *env, sub string) int {
	if _, err := exec.LookPath("git"); err != nil {
		fmt.Fprintf(e.stderr, "ipynb git %s: the git program is not found (%v)\n", sub, err)
		return exitError
	}
	return -1
}

// gitError is a git command that failed.
type gitError struct {
	args   []string
	status int // exit status, -1 if git did not run
	stderr string
	err    error
}

func (g *gitError) Error() string {
	msg := g.stderr
	if msg == "" && g.err != nil {
		msg = g.err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(g.args, " "), msg)
}

func (g *gitError) Unwrap() error { return g.err }

// git runs the git binary with args in the current folder and returns
// its standard output.
func git(args ...string) (string, error) { return gitWithInput(nil, args...) }

// gitConfigGet returns the value of key in scope ("--local", "--global",
// or "" for the value in effect); ok is false when it is not set.
func gitConfigGet(scope, key string) (value string, ok bool, err error) {
	args := []string{"config"}
	if scope != "" {
		args = append(args, scope)
	}
	out, err := git(append(args, "--get", key)...)
	var ge *gitError
	if errors.As(err, &ge) && ge.status == 1 {
		return "", false, nil // not set
	}
	if err != nil {
		return "", false, err
	}
	return strings.TrimSuffix(out, "\n"), true, nil
}

// scopeFlag is git config's scope option.
func scopeFlag(global bool) string {
	if global {
		return "--global"
	}
	return "--local"
}

// inRepo reports whether the current folder is inside a git work tree.
// git is asked once per folder: no ipynb command makes or removes a
// repository between two questions.
func inRepo() bool {
	wd, wdErr := os.Getwd()
	if wdErr == nil {
		if v, ok := inRepoByFolder.Load(wd); ok {
			return v.(bool)
		}
	}
	out, err := git("rev-parse", "--is-inside-work-tree")
	in := err == nil && strings.TrimSpace(out) == "true"
	if wdErr == nil {
		inRepoByFolder.Store(wd, in)
	}
	return in
}

// inRepoByFolder holds inRepo's answers by working folder.
var inRepoByFolder sync.Map

// shellQuote quotes s for sh, which git runs drivers and filters with.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./+-=:,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// commandWord returns the program a shell command line starts with,
// unquoting a single- or double-quoted word ("" if there is none).
func commandWord(cmd string) string {
	cmd = strings.TrimLeft(cmd, " \t")
	var b strings.Builder
	for i := 0; i < len(cmd); i++ {
		switch c := cmd[i]; c {
		case ' ', '\t':
			return b.String()
		case '\'':
			j := strings.IndexByte(cmd[i+1:], '\'')
			if j < 0 {
				return ""
			}
			b.WriteString(cmd[i+1 : i+1+j])
			i += j + 1
		case '"':
			j := strings.IndexByte(cmd[i+1:], '"')
			if j < 0 {
				return ""
			}
			b.WriteString(cmd[i+1 : i+1+j])
			i += j + 1
		case '\\':
			if i+1 < len(cmd) {
				i++
				b.WriteByte(cmd[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

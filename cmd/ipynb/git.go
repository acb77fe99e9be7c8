package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

var gitCmd = &command{
	name:    "git",
	summary: "set up git to merge and diff notebooks: install, uninstall, status",
	doc: `Configures git to merge, diff and (with --strip) clean notebooks with
ipynb, through git itself ("git config"):

  ipynb git install [--global] [--strip] [--attributes] [--command CMD]
  ipynb git uninstall [--global] [--attributes]
  ipynb git status

install sets, in the repository's .git/config (--global: ~/.gitconfig):
  merge.ipynb.driver    CMD merge --marker-size %L --path %P %O %A %B
  diff.ipynb.command    CMD diff               (git adds its 7 arguments)
  diff.ipynb.textconv   CMD diff --textconv    (git log -p, git show, blame)
  filter.ipynb.clean    CMD strip -            (--strip; filter.ipynb.required)
and the line "*.ipynb merge=ipynb diff=ipynb" (with --strip, also
filter=ipynb) in .git/info/attributes (--attributes: the .gitattributes
at the top of the work tree, to commit and share; --global: git's global
attributes file, core.attributesFile or ~/.config/git/attributes).
Installing twice is installing once; a filter installed before stays
until uninstall. uninstall removes exactly what install adds (settings
whose value is not ipynb's, and other attribute lines, are kept).
status prints what is configured and where, and which attributes git
applies to a notebook; it exits 0 when the drivers are in effect, 1 when
they are not.

CMD is the absolute path of this ipynb program, quoted for the shell git
runs it with. A program built by "go run" lives in a temporary folder
that is removed when it exits, so install refuses it: install ipynb ("go
install") and run that one, or give the command to write with --command
(for example --command ipynb, to find it on the PATH at merge time).`,
	usage: "install|uninstall|status [flags]",
}

func init() { gitCmd.run = runGit }

// driver is the name of the merge and diff drivers and of the filter.
const driver = "ipynb"

// A setting is one git configuration variable install sets.
type setting struct {
	key    string
	suffix string // the value after "CMD " ("" for a value without CMD)
	value  string // the whole value, for settings without CMD
	strip  bool   // only with --strip
}

var settings = []setting{
	{key: "merge.ipynb.name", value: "notebooks merged cell by cell (ipynb)"},
	{key: "merge.ipynb.driver", suffix: "merge --marker-size %L --path %P %O %A %B"},
	{key: "diff.ipynb.command", suffix: "diff"},
	{key: "diff.ipynb.textconv", suffix: "diff --textconv"},
	{key: "filter.ipynb.clean", suffix: "strip -", strip: true},
	{key: "filter.ipynb.required", value: "true", strip: true},
}

// settingFor returns the setting of key.
func settingFor(key string) setting {
	for _, s := range settings {
		if s.key == key {
			return s
		}
	}
	panic("ipynb: no setting " + key)
}

// valueFor is the value install writes for s with the command cmd.
func (s setting) valueFor(cmd string) string {
	if s.suffix == "" {
		return s.value
	}
	return cmd + " " + s.suffix
}

// ours reports whether v is a value install writes for s, with any
// command.
func (s setting) ours(v string) bool {
	if s.suffix == "" {
		return v == s.value
	}
	cmd, ok := strings.CutSuffix(v, " "+s.suffix)
	return ok && cmd != "" && commandWord(cmd) != ""
}

func runGit(e *env, args []string) int {
	if len(args) == 0 {
		gitCmd.flags(e).Usage()
		return exitError
	}
	switch args[0] {
	case "install", "uninstall", "status":
		if _, err := exec.LookPath("git"); err != nil {
			fmt.Fprintf(e.stderr, "ipynb git %s: the git program is not found (%v)\n", args[0], err)
			return exitError
		}
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
func git(args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		ge := &gitError{args: args, status: -1, stderr: strings.TrimSpace(errb.String()), err: err}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			ge.status = ee.ExitCode()
		}
		return out.String(), ge
	}
	return out.String(), nil
}

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
func inRepo() bool {
	out, err := git("rev-parse", "--is-inside-work-tree")
	return err == nil && strings.TrimSpace(out) == "true"
}

// selfCommand is the command written into git's configuration: override
// if given, else this program's absolute path, quoted for the shell.
func selfCommand(override string) (string, error) {
	if override != "" {
		return override, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find this program's path (%v): give the command with --command", err)
	}
	if p, err := filepath.EvalSymlinks(exe); err == nil {
		exe = p
	}
	if goRunBuild(exe) {
		return "", fmt.Errorf("this ipynb is a temporary \"go run\" build (%s), removed when it exits: install it (go install github.com/nbdialog/ipynb/cmd/ipynb@latest) and run that one, or give the command with --command", exe)
	}
	return shellQuote(exe), nil
}

// goRunBuild reports whether exe is a program built by "go run", which
// lives in $GOTMPDIR/go-buildNNN/bNNN/exe/NAME and is removed when it
// exits.
func goRunBuild(exe string) bool {
	dir := filepath.Dir(exe)
	if filepath.Base(dir) != "exe" {
		return false
	}
	return strings.HasPrefix(filepath.Base(filepath.Dir(filepath.Dir(dir))), "go-build")
}

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

func runGitInstall(e *env, args []string) int {
	fs := gitCmd.flags(e)
	global := fs.Bool("global", false, "configure the user's git (~/.gitconfig and the global attributes file), not the repository")
	strip := fs.Bool("strip", false, "also install \"ipynb strip -\" as a clean filter: outputs and counts are not committed")
	shared := fs.Bool("attributes", false, "write the attributes into the work tree's .gitattributes (to commit) instead of .git/info/attributes")
	override := fs.String("command", "", "the command git runs, instead of this program's absolute path")
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	if st := gitScopeArgs(e, "install", fs, *global, *shared); st >= 0 {
		return st
	}
	cmd, err := selfCommand(*override)
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb git install: %v\n", err)
		return exitError
	}
	scope := scopeFlag(*global)
	withFilter := *strip
	if !withFilter {
		// A filter installed before stays (install without --strip is
		// not an uninstall of it).
		v, ok, err := gitConfigGet(scope, "filter.ipynb.clean")
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb git install: %v\n", err)
			return exitError
		}
		withFilter = ok && settingFor("filter.ipynb.clean").ours(v)
	}
	for _, s := range settings {
		if s.strip && !withFilter {
			continue
		}
		want := s.valueFor(cmd)
		have, ok, err := gitConfigGet(scope, s.key)
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb git install: %v\n", err)
			return exitError
		}
		if ok && have == want {
			continue
		}
		if _, err := git("config", scope, s.key, want); err != nil {
			fmt.Fprintf(e.stderr, "ipynb git install: %v\n", err)
			return exitError
		}
		fmt.Fprintf(e.stdout, "set %s %s = %s\n", scope[2:], s.key, want)
	}
	file, err := attributesFile(*global, *shared)
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb git install: %v\n", err)
		return exitError
	}
	changed, err := editAttributes(file, attributeLine(withFilter))
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", file, err)
		return exitError
	}
	if changed {
		fmt.Fprintf(e.stdout, "wrote %q to %s\n", attributeLine(withFilter), file)
	}
	return exitOK
}

func runGitUninstall(e *env, args []string) int {
	fs := gitCmd.flags(e)
	global := fs.Bool("global", false, "remove from the user's git (~/.gitconfig and the global attributes file)")
	shared := fs.Bool("attributes", false, "also remove ipynb's line from the work tree's .gitattributes")
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	if st := gitScopeArgs(e, "uninstall", fs, *global, *shared); st >= 0 {
		return st
	}
	scope := scopeFlag(*global)
	status := exitOK
	sections := map[string]bool{}
	for _, s := range settings {
		have, ok, err := gitConfigGet(scope, s.key)
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb git uninstall: %v\n", err)
			return exitError
		}
		if !ok {
			continue
		}
		if !s.ours(have) {
			fmt.Fprintf(e.stderr, "ipynb git uninstall: kept %s %s = %s (not set by ipynb git install)\n", scope[2:], s.key, have)
			continue
		}
		if _, err := git("config", scope, "--unset-all", s.key); err != nil {
			fmt.Fprintf(e.stderr, "ipynb git uninstall: %v\n", err)
			status = exitError
			continue
		}
		fmt.Fprintf(e.stdout, "unset %s %s\n", scope[2:], s.key)
		sections[s.key[:strings.LastIndexByte(s.key, '.')]] = true
	}
	// Remove sections left empty (git config --unset keeps the header).
	for _, sec := range []string{"merge.ipynb", "diff.ipynb", "filter.ipynb"} {
		if !sections[sec] {
			continue
		}
		out, err := git("config", scope, "--get-regexp", `^`+strings.ReplaceAll(sec, ".", `\.`)+`\.`)
		var ge *gitError
		if errors.As(err, &ge) && ge.status == 1 && out == "" {
			git("config", scope, "--remove-section", sec)
		}
	}
	files := []bool{false}
	if *shared {
		files = append(files, true)
	}
	for _, sh := range files {
		file, err := attributesFile(*global, sh)
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb git uninstall: %v\n", err)
			return exitError
		}
		changed, err := editAttributes(file, "")
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", file, err)
			status = exitError
			continue
		}
		if changed {
			fmt.Fprintf(e.stdout, "removed ipynb's attributes from %s\n", file)
		}
	}
	if !*global && !*shared {
		if file, err := attributesFile(false, true); err == nil {
			if lines, _ := ourAttributeLines(file); len(lines) > 0 {
				fmt.Fprintf(e.stderr, "ipynb git uninstall: %s still has %q (committed; remove it with --attributes)\n", file, lines[0])
			}
		}
	}
	return status
}

// gitScopeArgs checks what install and uninstall share: no arguments, one
// scope (--global or --attributes), and a work tree unless --global. It
// returns the exit status to stop with, or -1.
func gitScopeArgs(e *env, sub string, fs *flag.FlagSet, global, shared bool) int {
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(e.stderr, "ipynb git %s: unexpected argument %q\n", sub, fs.Arg(0))
	case global && shared:
		fmt.Fprintf(e.stderr, "ipynb git %s: --global and --attributes exclude each other\n", sub)
	case !global && !inRepo():
		fmt.Fprintf(e.stderr, "ipynb git %s: not inside a git work tree (use --global to configure your user's git)\n", sub)
	default:
		return -1
	}
	return exitError
}

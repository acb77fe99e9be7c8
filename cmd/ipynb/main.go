// Command ipynb checks, formats, shows, strips, exports, merges and
// diffs Jupyter notebooks and AI dialogs, keeping files byte for byte
// where nothing changes.
//
// Usage:
//
//	ipynb COMMAND [flags] PATH...
//
// Commands:
//
//	check  report whether each notebook is valid and round-trips exactly
//	fmt    rewrite notebooks: heal invalid ones, optionally upgrade to 4.5
//	       or write Python nbformat's canonical bytes
//	show   print a dialog, one row per message
//	strip  remove outputs, execution counts and volatile metadata
//	md     print a dialog as Markdown
//	html   export a notebook as one self-contained, safe HTML page
//	web    show a notebook, a diff or a merge as a page served on this
//	       machine (the program ipynb-web)
//	merge  merge two notebooks' changes to a base, cell by cell: git's
//	       merge driver
//	diff   show the changes between two notebooks, cell by cell: git's
//	       diff driver and textconv
//	fix    repair a notebook into which git wrote conflict markers
//	git    install, uninstall or show ipynb's git drivers
//
// A PATH may be a folder (searched for *.ipynb files, skipping .git, .hg,
// .svn and .ipynb_checkpoints; only regular files are taken, and *.ipynb
// links to files outside the folders given only with --follow) or - for
// standard input (results then go to standard output, as they do for a
// pipe named on the command line). Every command takes --help.
//
// fmt and strip replace a file only if, right before the rename, it is
// still the file they read, unchanged; otherwise they leave it alone and
// report it.
//
// Exit status, the same for every command: 0 when all is well, 1 for
// findings (a file is invalid or would change, conflicts, differences, a
// file changed while processing and left alone), 2 for usage errors (a
// numeric flag out of its bounds included) and files that cannot be read
// (a missing path, a folder without notebooks, a file that may not be
// written); a file that is not a notebook is a finding of check, fmt and
// strip, and exit 2 for the commands that cannot work without it (show,
// md, merge, diff, fix). Errors go to standard error as "path: message",
// "path:line:column: message" where there is a place; names are quoted
// as git quotes paths, and standard input is <stdin>.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// Exit statuses.
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

type command struct {
	name    string
	summary string // one line, for the command list
	doc     string // the command's help text
	usage   string // arguments, after the command name
	run     func(env *env, args []string) int
}

var commands = []*command{checkCmd, fmtCmd, showCmd, stripCmd, mdCmd, htmlCmd, webCmd, mergeCmd, diffCmd, fixCmd, gitCmd}

// env is the command's world: its streams, so tests can run commands in
// process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	stdoutTTY      bool // show and md make control characters visible (terminal.go)
	stderrTTY      bool
	termWidth      int       // columns of standard error's terminal (0: unknown)
	rawStderr      io.Writer // standard error without termWriter, for the progress line
}

func main() {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, stdoutTTY: isTerminal(os.Stdout), stderrTTY: isTerminal(os.Stderr)}
	if e.stderrTTY {
		e.termWidth = terminalWidth(os.Stderr)
	}
	os.Exit(run(e, os.Args[1:]))
}

// run runs the command line args. A failed write to standard output
// (a full disk, a closed pipe that raised no SIGPIPE) is an error, exit
// status 2, as in cat and the other Unix tools: results that were not
// written are never reported as success (a git clean filter whose output
// was cut short must fail).
func run(e *env, args []string) (status int) {
	out := &checkedWriter{w: e.stdout}
	e.stdout = out
	defer func() {
		if out.err != nil {
			fmt.Fprintf(e.stderr, "ipynb: writing standard output: %v\n", pathError(out.err))
			status = exitError
		}
	}()
	defer e.guardTerminals(printsText(args))()
	return runCommand(e, args)
}

func runCommand(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitError
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(e.stdout)
		return exitOK
	case "help":
		// "ipynb help CMD" is "ipynb CMD --help".
		if len(args) == 1 || args[1] == "help" {
			usage(e.stdout)
			return exitOK
		}
		if c := lookup(args[1]); c != nil {
			return c.run(e, []string{"--help"})
		}
		return unknownCommand(e, args[1])
	case "-version", "--version", "version":
		fmt.Fprintln(e.stdout, version())
		return exitOK
	}
	if c := lookup(args[0]); c != nil {
		return c.run(e, args[1:])
	}
	return unknownCommand(e, args[0])
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// unknownCommand names the command as typed and the closest one, without
// the whole usage.
func unknownCommand(e *env, name string) int {
	if strings.HasPrefix(name, "-") && len(name) > 1 {
		// A flag before the command: say where flags go.
		fmt.Fprintf(e.stderr, "ipynb: %s before the command: flags go after it (ipynb COMMAND [flags] PATH...)\n", name)
		fmt.Fprintln(e.stderr, "Run 'ipynb --help' for the list of commands.")
		return exitError
	}
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	msg := fmt.Sprintf("ipynb: unknown command %q", name)
	if s := closest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	fmt.Fprintln(e.stderr, msg)
	fmt.Fprintln(e.stderr, "Run 'ipynb --help' for the list of commands.")
	return exitError
}

// version is the module version the binary was built from ("(devel)" in a
// clone), with the commit when the build recorded one.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "ipynb (unknown version)"
	}
	v := "ipynb " + bi.Main.Version
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v += " (" + rev + modified + ")"
	}
	return v + " " + bi.GoVersion
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: ipynb COMMAND [flags] PATH...")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Checks, formats, strips and shows Jupyter notebooks (.ipynb) and AI dialogs.")
	fmt.Fprintln(w, "A dialog is a notebook read as messages: notes, prompts with the AI's reply, code with outputs.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-6s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "A PATH may be a folder (searched for *.ipynb) or - for standard input.")
	fmt.Fprintln(w, "Run 'ipynb help COMMAND' (or 'ipynb COMMAND --help') for a command's flags;")
	fmt.Fprintln(w, "'ipynb --version' prints the version.")
	fmt.Fprintln(w, "Exit status: 0 fine, 1 findings, 2 usage or I/O error.")
}

// checkedWriter remembers the first error writing to w, and writes
// nothing after it.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
	return n, err
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Command ipynb checks, formats, shows, strips and exports Jupyter
// notebooks and AI dialogs, keeping files byte for byte where nothing
// changes.
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
//
// A PATH may be a folder (searched for *.ipynb files, skipping .git, .hg,
// .svn and .ipynb_checkpoints) or - for standard input (results then go to
// standard output). Every command takes --help.
//
// Exit status: 0 when all is well, 1 for findings (a file is invalid or
// would change), 2 for usage and I/O errors. Errors go to standard error
// as "path: message", with line:column or a JSON Pointer where there is
// one.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
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

var commands = []*command{checkCmd, fmtCmd, showCmd, stripCmd, mdCmd}

// env is the command's world: its streams, so tests can run commands in
// process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	stderrTTY      bool
}

func main() {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, stderrTTY: isTerminal(os.Stderr)}
	os.Exit(run(e, os.Args[1:]))
}

func run(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitError
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(e.stdout)
		return exitOK
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	fmt.Fprintf(e.stderr, "ipynb: unknown command %q\n", args[0])
	usage(e.stderr)
	return exitError
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: ipynb COMMAND [flags] PATH...")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-6s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "A PATH may be a folder (searched for *.ipynb) or - for standard input.")
	fmt.Fprintln(w, "Run 'ipynb COMMAND --help' for a command's flags.")
	fmt.Fprintln(w, "Exit status: 0 fine, 1 findings, 2 usage or I/O error.")
}

// flags returns a flag set for c that prints its usage on --help.
func (c *command) flags(e *env) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "usage: ipynb %s %s\n\n%s\n", c.name, c.usage, c.doc)
		var b strings.Builder
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(out)
		if b.Len() > 0 {
			fmt.Fprintf(out, "\nFlags:\n%s", b.String())
		}
	}
	return fs
}

// parse parses args, returning the exit status to stop with, or -1. Help
// goes to standard output; usage errors to standard error.
func parse(e *env, fs *flag.FlagSet, args []string) int {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			fs.SetOutput(e.stdout)
			fs.Usage()
			return exitOK
		}
	}
	err := fs.Parse(reorder(fs, args))
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case err != nil:
		return exitError
	}
	return -1
}

// parseFiles is parse for commands that need at least one file: with
// none it prints the usage and returns exitError.
func parseFiles(e *env, fs *flag.FlagSet, args []string) int {
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitError
	}
	return -1
}

// reorder moves flags after positional arguments to the front, so that
// "ipynb check nb.ipynb --json" works; "--" ends flags.
func reorder(fs *flag.FlagSet, args []string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if strings.Contains(name, "=") {
				continue
			}
			if f := fs.Lookup(name); f != nil {
				if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
					continue
				}
				if i+1 < len(args) {
					flags = append(flags, args[i+1])
					i++
				}
			}
			continue
		}
		rest = append(rest, a)
	}
	return append(flags, rest...)
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

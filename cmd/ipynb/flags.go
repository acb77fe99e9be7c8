package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// flags returns a flag set for c that prints its usage on --help.
func (c *command) flags(e *env) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "usage: ipynb %s %s\n\n%s\n", c.name, c.usage, c.doc)
		printFlags(out, fs)
	}
	return fs
}

// flagName is a flag as users type it: -v for one letter, --name for
// longer names.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// printFlags lists fs's flags as flagName spells them.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprint(w, "\nFlags:\n")
			first = false
		}
		arg, usage := flag.UnquoteUsage(f)
		if _, ok := f.Value.(intRange); ok {
			arg = "N"
		} else if _, ok := f.Value.(*strategyValue); ok {
			arg = "STRATEGY"
		}
		line := "  " + flagName(f.Name)
		if arg != "" {
			line += " " + arg
		}
		fmt.Fprintf(w, "%s\n    \t%s", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}

// parse parses args, returning the exit status to stop with, or -1. Help
// goes to standard output. A usage error names the flag as typed, suggests
// the closest one, and points to --help instead of printing it all.
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
	args, err := reorder(fs, args)
	if err == nil {
		// The flag package's own messages spell flags with one dash and
		// print the whole usage; ours are written below instead.
		fs.SetOutput(io.Discard)
		usage := fs.Usage
		fs.Usage = func() {}
		err = fs.Parse(args)
		fs.SetOutput(e.stderr)
		fs.Usage = usage
		if err != nil {
			err = flagError(err)
		}
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb %s: %v\nRun 'ipynb %s --help' for usage.\n", fs.Name(), err, fs.Name())
		return exitError
	}
	return -1
}

// flagError rewrites the flag package's "-name" spellings as flagName's.
func flagError(err error) error {
	msg := err.Error()
	for _, pre := range []string{"invalid value ", "invalid boolean value "} {
		if strings.HasPrefix(msg, pre) {
			// invalid value "x" for flag -width: parse error
			if i := strings.Index(msg, " for flag -"); i >= 0 {
				rest := msg[i+len(" for flag -"):]
				name, tail, _ := strings.Cut(rest, ":")
				return fmt.Errorf("%s for %s:%s", msg[:i], flagName(name), tail)
			}
		}
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return fmt.Errorf("%s needs a value", flagName(name))
	}
	return errors.New(msg)
}

// stdinOnce refuses "-" named more than once (standard input can be read
// only once: the second would be empty), returning the exit status to
// stop with, or -1.
func stdinOnce(e *env, cmd string, paths []string) int {
	n := 0
	for _, p := range paths {
		if p == "-" {
			n++
		}
	}
	if n > 1 {
		fmt.Fprintf(e.stderr, "ipynb %s: - (standard input) is named %d times; it can be read once\n", cmd, n)
		return exitError
	}
	return -1
}

// reorder moves flags after positional arguments to the front, so that
// "ipynb check nb.ipynb --json" works; "--" ends flags. It refuses a flag
// fs does not define, naming it as typed with the closest defined one.
func reorder(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			a = attachedValue(fs, a)
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			name, _, hasValue := strings.Cut(name, "=")
			f := fs.Lookup(name)
			if f == nil {
				return nil, unknownFlag(fs, a)
			}
			if hasValue {
				continue
			}
			if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
				continue
			}
			if i+1 == len(args) {
				return nil, fmt.Errorf("%s needs a value", flagName(name))
			}
			flags = append(flags, args[i+1])
			i++
			continue
		}
		rest = append(rest, a)
	}
	// The "--" stays between the flags and the rest, so that a path
	// beginning with a dash ("--" then "-x.ipynb") is not read as a flag.
	return append(append(flags, "--"), rest...), nil
}

// attachedValue returns a, a flag as typed, with a one-letter numeric
// flag's attached value made -N=VALUE ("-U3" is "-U=3", as git reads
// -U3); any other flag as it is.
func attachedValue(fs *flag.FlagSet, a string) string {
	if len(a) < 3 || a[1] == '-' || strings.Contains(a, "=") || fs.Lookup(a[1:]) != nil {
		return a
	}
	if f := fs.Lookup(a[1:2]); f != nil {
		if _, ok := f.Value.(intRange); ok {
			return a[:2] + "=" + a[2:]
		}
	}
	return a
}

func unknownFlag(fs *flag.FlagSet, typed string) error {
	typed, _, _ = strings.Cut(typed, "=")
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	msg := "unknown flag " + typed
	if s := closest(strings.TrimLeft(typed, "-"), names); s != "" {
		msg += " (did you mean " + flagName(s) + "?)"
	}
	return errors.New(msg)
}

// closest returns the candidate nearest to s in edit distance, if it is
// near enough to be a likely typo ("" otherwise).
func closest(s string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		d := editDistance(s, c)
		if len(s) >= 2 && strings.HasPrefix(c, s) {
			d = 1 // an abbreviation
		}
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if bestD < 0 || bestD > max(1, len(s)/3) {
		return ""
	}
	return best
}

// editDistance is the optimal-string-alignment distance between a and b
// (insertions, deletions, substitutions and swaps of neighbours, in bytes).
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// intRange is an integer flag bounded to [min, max]: a value outside,
// or one that is not an integer, is a usage error naming the flag and
// the bounds when the flag is parsed, before anything is done.
type intRange struct {
	v        *int
	min, max int
}

func (r intRange) String() string {
	if r.v == nil {
		return ""
	}
	return strconv.Itoa(*r.v)
}

func (r intRange) Set(s string) error {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < int64(r.min) || n > int64(r.max) {
		return fmt.Errorf("want an integer from %d to %d", r.min, r.max)
	}
	*r.v = int(n)
	return nil
}

// boundedInt defines an integer flag holding def, bounded to [min, max];
// the usage says the bounds.
func boundedInt(fs *flag.FlagSet, name string, def, min, max int, usage string) *int {
	v := new(int)
	*v = def
	fs.Var(intRange{v, min, max}, name, boundsUsage(usage, min, max))
	return v
}

// boundsUsage is a bounded flag's usage: what it is, then its bounds.
func boundsUsage(usage string, min, max int) string {
	return fmt.Sprintf("%s, from %d to %d", usage, min, max)
}

// Bounds of the numeric flags: large enough for any real use, small
// enough that no value makes a command allocate or loop in proportion to
// it. Git passes --marker-size from a repository's own attributes
// (conflict-marker-size, from 1 to 2147483647): merge takes every value
// git can pass, so that a conflict is always marked, and writes markers
// at most maxMarkerSize long.
const (
	maxMarkerSize = 1024        // merge --marker-size: the longest marker line written
	maxContext    = 100_000_000 // diff -U: lines of context (more than any cell has)
	maxWidth      = 1 << 20     // show --width: characters per row
	maxRows       = 100_000_000 // show --rows: messages shown
	maxJobs       = 1024        // --jobs: files processed at once
)

package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// batchOptions are the flags of commands that run over many files:
// --jobs and --files-from.
type batchOptions struct {
	jobs      int
	filesFrom string
}

// batchFlags adds --jobs and --files-from to fs.
func batchFlags(fs *flag.FlagSet) *batchOptions {
	b := &batchOptions{}
	fs.Var(intRange{&b.jobs, 0, maxJobs}, "jobs", boundsUsage("files processed at once (0: one per core)", 0, maxJobs))
	fs.StringVar(&b.filesFrom, "files-from", "", "also process the paths listed in this file, one per line or NUL-separated as git ls-files -z writes them (- for standard input)")
	return b
}

// batchInputs checks the batch flags and gathers the inputs (see inputs),
// returning the exit status to stop with, or -1.
func batchInputs(e *env, fs *flag.FlagSet, b *batchOptions, walk *walkOptions) (ins []input, ok bool, status int) {
	if b.jobs == 0 {
		b.jobs = defaultJobs()
	}
	return inputs(e, fs, b.filesFrom, walk)
}

// inputs gathers the notebooks a command runs on: its PATH arguments and,
// with --files-from, the paths listed in that file (one per line, or
// NUL-separated; "-" reads the list from standard input), so that the
// command can be the map step of xargs, GNU parallel or a batch engine
// over millions of files.
// Folders are searched as walk says (see expand). It returns the exit
// status to stop with, or -1.
func inputs(e *env, fs *flag.FlagSet, filesFrom string, walk *walkOptions) (ins []input, ok bool, status int) {
	paths := fs.Args()
	if filesFrom != "" {
		listed, err := readFileList(e, filesFrom)
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb %s: --files-from %s: %v\n", fs.Name(), quoteName(filesFrom), pathError(err))
			return nil, false, exitError
		}
		if filesFrom == "-" {
			for _, p := range paths {
				if p == "-" {
					fmt.Fprintf(e.stderr, "ipynb %s: standard input cannot be both the file list and a notebook\n", fs.Name())
					return nil, false, exitError
				}
			}
		}
		paths = append(paths, listed...)
		if len(paths) == 0 {
			// An empty list is a run over nothing, as with xargs.
			return nil, true, -1
		}
	}
	if len(paths) == 0 {
		fmt.Fprintf(e.stderr, "ipynb %s: no PATH given (a notebook, a folder, or - for standard input)\nRun 'ipynb %s --help' for usage.\n", fs.Name(), fs.Name())
		return nil, false, exitError
	}
	if st := stdinOnce(e, fs.Name(), paths); st >= 0 {
		return nil, false, st
	}
	ins, ok = expand(e, paths, walk)
	return ins, ok, -1
}

// readFileList reads the paths of a list: separated by NUL bytes when the
// list holds one (git ls-files -z, find -print0: a path never holds a
// NUL, and may hold a newline), else one per line (a final "\r" is
// dropped). Empty entries are skipped.
func readFileList(e *env, name string) ([]string, error) {
	var r io.Reader = e.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	sep, crlf := "\n", true
	if bytes.IndexByte(data, 0) >= 0 {
		sep, crlf = "\x00", false
	}
	var out []string
	for p := range strings.SplitSeq(string(data), sep) {
		if crlf {
			p = strings.TrimSuffix(p, "\r")
		}
		if p != "" {
			out = append(out, p)
		}
	}
	return out, nil
}

package main

import (
	"bufio"
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
	fs.IntVar(&b.jobs, "jobs", 0, "files processed at once (0: one per core)")
	fs.StringVar(&b.filesFrom, "files-from", "", "also process the paths listed in this file, one per line (- for standard input)")
	return b
}

// batchInputs checks the batch flags and gathers the inputs (see inputs),
// returning the exit status to stop with, or -1.
func batchInputs(e *env, fs *flag.FlagSet, b *batchOptions, walk *walkOptions) (ins []input, ok bool, status int) {
	if st := nonNegative(e, fs, "jobs", b.jobs); st >= 0 {
		return nil, false, st
	}
	if b.jobs == 0 {
		b.jobs = defaultJobs()
	}
	return inputs(e, fs, b.filesFrom, walk)
}

// inputs gathers the notebooks a command runs on: its PATH arguments and,
// with --files-from, the paths listed in that file (one per line; "-"
// reads the list from standard input), so that the command can be the map
// step of xargs, GNU parallel or a batch engine over millions of files.
// Folders are searched as walk says (see expand). It returns the exit
// status to stop with, or -1.
func inputs(e *env, fs *flag.FlagSet, filesFrom string, walk *walkOptions) (ins []input, ok bool, status int) {
	paths := fs.Args()
	if filesFrom != "" {
		listed, err := readFileList(e, filesFrom)
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb %s: --files-from %s: %v\n", fs.Name(), filesFrom, pathError(err))
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
	ins, ok = expand(e, paths, walk)
	return ins, ok, -1
}

// readFileList reads newline-separated paths (a final "\r" is dropped, as
// are empty lines).
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
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if p := strings.TrimSuffix(sc.Text(), "\r"); p != "" {
			out = append(out, p)
		}
	}
	return out, sc.Err()
}

package main

// ipynb web: the page of a notebook, a diff or a merge, served by the ipynb-web
// program.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
)

var webCmd = &command{
	name:    "web",
	summary: "show a notebook, a diff or a merge as a page served on this machine",
	doc: `Serves one page on this machine and prints its address:

  ipynb web NOTEBOOK                     the notebook (as ipynb html shows it)
  ipynb web A B                          the changes from A to B (as diff --html)
  ipynb web --merge BASE OURS THEIRS     resolve a merge's conflicts, save into OURS
  ipynb web --merge -o FILE BASE OURS THEIRS    … save into FILE (git mergetool's $MERGED)

The server listens on the loopback address only, on a free port, and
answers only requests that carry the random token of its address (and
name it as their host), so nobody else on the machine gets in. It stops
when the page is closed (the page tells it, and says every 2 s that it is
open) or on Ctrl-C. --open also opens the page in the browser: $BROWSER
(a program given a file:// URL), else the desktop's (xdg-open, open). The
browser is given a page of its own (readable by you only, removed when
the server stops) that leads to the address: a program's arguments are
visible to every user of the machine, the token must not be.

The merge page shows each conflict with its base, ours and theirs; choose
ours, theirs or both, or edit the text; how many conflicts are left, and
whether the notebook is valid, is shown as you go. Save writes OURS (or
-o FILE) atomically, unless it changed on disk since it was read (then
nothing is written). Exit status, as git's mergetool wants it: 0 all conflicts
resolved and saved, 1 not (the page closed without saving, conflicts
left, OURS changed meanwhile), 2 an input is not a notebook.

The server is the program ipynb-web (go install ./cmd/ipynb-web), run
from beside ipynb or from the PATH, so that ipynb itself links no network
code.`,
	usage: "[--open] NOTEBOOK | A B | --merge [-o FILE] BASE OURS THEIRS",
}

func init() { webCmd.run = runWeb }

// webProgram is the server ipynb web runs: ipynb-web beside this
// executable, else on the PATH.
func webProgram() (string, error) {
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), "ipynb-web")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return exec.LookPath("ipynb-web")
}

func runWeb(e *env, args []string) int {
	fs := webCmd.flags(e)
	merge := fs.Bool("merge", false, "resolve a merge: BASE OURS THEIRS, saved into OURS")
	open := fs.Bool("open", false, "open the page in the browser ($BROWSER, else the desktop's)")
	out := fs.String("o", "", "with --merge: save the resolution into FILE instead of OURS")
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	if n := fs.NArg(); *merge && n != 3 || !*merge && (n < 1 || n > 2 || *out != "") {
		fs.Usage()
		return exitError
	}
	args = nil
	if *merge {
		args = append(args, "--merge")
	}
	if *out != "" {
		args = append(args, "-o", *out)
	}
	if *open {
		args = append(args, "--open")
	}
	args = append(append(args, "--"), fs.Args()...)
	prog, err := webProgram()
	if err != nil {
		fmt.Fprintln(e.stderr, "ipynb web: the server program ipynb-web is not installed beside ipynb or on the PATH (go install ./cmd/ipynb-web)")
		return exitError
	}
	cmd := exec.Command(prog, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	cmd.SysProcAttr = serverAttr()
	// The parent-death signal is tied to the thread that starts the
	// server: this goroutine keeps that thread until the server exits.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// Ctrl-C stops the server (which then exits with its status), not
	// this process before it.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	if err = cmd.Start(); err == nil {
		go func() {
			for s := range sig {
				cmd.Process.Signal(s)
			}
		}()
		err = cmd.Wait()
	}
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		if ee.ExitCode() < 0 {
			return exitError // killed by a signal
		}
		return ee.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb web: %v\n", err)
		return exitError
	}
	return exitOK
}

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Git runs a path's diff driver (diff.ipynb.command) in place of any
// other external diff, git difftool's included: git difftool runs git
// diff with GIT_EXTERNAL_DIFF=git-difftool--helper, the program that
// starts the tool, and for notebooks git would run the driver instead,
// printing the text diff where a tool was asked for. So the driver,
// run so, hands the files to that helper, with git's arguments as they
// are: git difftool then opens notebooks with the tool it was told (-t
// ipynb: ipynb web's diff page, or any other).

// difftoolHelper is the program git difftool runs diffs with, when the
// driver runs under git difftool.
func difftoolHelper() (string, bool) {
	h := os.Getenv("GIT_EXTERNAL_DIFF")
	if filepath.Base(h) != "git-difftool--helper" {
		return "", false
	}
	if !filepath.IsAbs(h) {
		if dir := os.Getenv("GIT_EXEC_PATH"); dir != "" {
			h = filepath.Join(dir, h)
		}
	}
	return h, true
}

// runDifftoolHelper runs git difftool's helper with the driver's
// arguments and returns its exit status.
func runDifftoolHelper(e *env, helper string, args []string) int {
	cmd := exec.Command(helper, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	err := cmd.Run()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		return max(ee.ExitCode(), exitError)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb diff: git difftool's helper: %v\n", err)
		return exitError
	}
	return exitOK
}

package main

// The merge driver's fallback: files that do not merge as notebooks merged as
// text by git merge-file.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// The merge driver's fallback (merge --text-fallback, which ipynb git
// install writes): files ipynb cannot merge as notebooks are merged as
// git merges text without the driver, by git merge-file, so that a
// conflict is marked in the file (where git marks it) and theirs' lines
// are in it. Refusing them would leave a conflict whose work tree file
// is ours alone, without a marker: theirs only in the index.

// mergeAsText merges the texts base, ours and theirs line by line with
// git merge-file (run in the current folder, so that the repository's
// merge.conflictStyle applies, on copies of the texts in a temporary
// folder), with markers of size markers labelled oursLabel, "base" and
// theirsLabel. It returns the result and the number of conflicts left in
// it (git counts at most 127). An error of git merge-file (a side it
// finds binary) names the sides by their roles, never by the temporary
// files, which are gone when it is read.
func mergeAsText(base, ours, theirs []byte, markers int, oursLabel, theirsLabel string) ([]byte, int, error) {
	dir, err := os.MkdirTemp("", "ipynb-merge-")
	if err != nil {
		return nil, 0, err
	}
	defer os.RemoveAll(dir)
	names := []string{"ours", "base", "theirs"}
	for i, text := range [][]byte{ours, base, theirs} {
		names[i] = filepath.Join(dir, names[i])
		if err := os.WriteFile(names[i], text, 0o600); err != nil {
			return nil, 0, err
		}
	}
	cmd := exec.Command("git", "merge-file", "-p", "--marker-size="+strconv.Itoa(markers),
		"-L", oursLabel, "-L", "base", "-L", theirsLabel, "--", names[0], names[1], names[2])
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.Bytes(), 0, nil
	case errors.As(err, &ee) && ee.ExitCode() > 0 && ee.ExitCode() < 128:
		// The exit status is the number of conflicts.
		return out.Bytes(), ee.ExitCode(), nil
	}
	msg := bytes.TrimSpace(errb.Bytes())
	if len(msg) == 0 {
		msg = []byte(err.Error())
	}
	for i, role := range []string{"ours", "base", "theirs"} {
		msg = bytes.ReplaceAll(msg, []byte(names[i]), []byte(role))
	}
	return nil, 0, fmt.Errorf("git merge-file: %s", msg)
}

// textConflictSummary is the line naming a text merge's conflicts.
func textConflictSummary(n int) string {
	if n == 1 {
		return "1 conflict left (marked in the text, as git marks it)"
	}
	if n >= 127 {
		return "127 or more conflicts left (marked in the text, as git marks them)"
	}
	return fmt.Sprintf("%d conflicts left (marked in the text, as git marks them)", n)
}

// keptSidesHint follows the message of a merge that wrote nothing under
// git (path is the driver's --path): git keeps each side as a stage of
// the unmerged file, and says how to take theirs.
func keptSidesHint(path string) string {
	if path == "" {
		return ""
	}
	return " (git keeps each side: git checkout --theirs -- " + shellQuote(path) + " writes theirs)"
}

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strings"
)

// runGitStatus prints each setting install makes with its scope and
// file, ipynb's lines in the attributes files, and the attributes git
// applies to a notebook; exit 0 when the merge and diff drivers are in
// effect, 1 otherwise.
func runGitStatus(e *env, args []string) int {
	flags := gitCmd.flags(e)
	if st := parse(e, flags, args); st >= 0 {
		return st
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(e.stderr, "ipynb git status: unexpected argument %q\n", flags.Arg(0))
		return exitError
	}
	repo := inRepo()
	var problems []string
	for _, section := range []func(e *env, repo bool) ([]string, error){statusConfig, statusAttributes, statusInEffect} {
		p, err := section(e, repo)
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb git status: %v\n", err)
			return exitError
		}
		problems = append(problems, p...)
	}
	if len(problems) > 0 {
		fmt.Fprintln(e.stdout, "not in effect:")
		for _, p := range problems {
			fmt.Fprintf(e.stdout, "  %s\n", p)
		}
		return exitFindings
	}
	fmt.Fprintln(e.stdout, "ipynb merges and diffs notebooks here")
	return exitOK
}

// statusConfig prints each setting install makes, with its scope and
// file (outside a repository, the global ones), and returns what keeps
// the drivers from working.
func statusConfig(e *env, repo bool) ([]string, error) {
	var problems []string
	fmt.Fprintln(e.stdout, "config:")
	for _, s := range settings {
		line, p, err := settingStatus(s, repo)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(e.stdout, "  %s\n", line)
		problems = append(problems, p...)
	}
	return problems, nil
}

// settingStatus is the status line of setting s and its problems: not
// set, not ipynb's, or naming a command that cannot run.
func settingStatus(s setting, repo bool) (line string, problems []string, err error) {
	args := []string{"config", "--show-scope", "--show-origin", "--get", s.key}
	if !repo {
		args = []string{"config", "--global", "--show-scope", "--show-origin", "--get", s.key}
	}
	out, err := git(args...)
	var ge *gitError
	if errors.As(err, &ge) && ge.status == 1 {
		if !s.strip && s.suffix != "" {
			problems = append(problems, s.key+" is not set")
		}
		return fmt.Sprintf("%-22s not set", s.key), problems, nil
	}
	if err != nil {
		return "", nil, err
	}
	// scope TAB origin TAB value
	parts := strings.SplitN(strings.TrimSuffix(out, "\n"), "\t", 3)
	if len(parts) != 3 {
		return "", nil, fmt.Errorf("unexpected output of git config: %q", out)
	}
	scope, origin, value := parts[0], strings.TrimPrefix(parts[1], "file:"), parts[2]
	note := ""
	if !s.ours(value) {
		note = " (not ipynb's)"
		if !s.strip {
			problems = append(problems, s.key+" is not ipynb's")
		}
	} else if w := commandWord(value); s.suffix != "" && w != "" {
		if _, err := exec.LookPath(w); err != nil {
			note = " (the command is missing)"
			problems = append(problems, fmt.Sprintf("%s: %s does not exist or cannot run (reinstall with ipynb git install)", s.key, w))
		}
	}
	return fmt.Sprintf("%-22s %s  [%s: %s]%s", s.key, value, scope, origin, note), problems, nil
}

// statusAttributes prints ipynb's lines in the global attributes file
// and, in a repository, in its local and shared ones.
func statusAttributes(e *env, repo bool) ([]string, error) {
	fmt.Fprintln(e.stdout, "attributes:")
	type attrFile struct {
		label          string
		global, shared bool
	}
	files := []attrFile{{"global", true, false}}
	if repo {
		files = append(files, attrFile{"local", false, false}, attrFile{"shared", false, true})
	}
	for _, f := range files {
		file, err := attributesFile(f.global, f.shared)
		if err != nil {
			return nil, err
		}
		lines, err := ourAttributeLines(file)
		switch {
		case errors.Is(err, fs.ErrNotExist) || err == nil && len(lines) == 0:
			fmt.Fprintf(e.stdout, "  %-7s %s: no ipynb line\n", f.label, file)
		case err != nil:
			fmt.Fprintf(e.stdout, "  %-7s %s: %v\n", f.label, file, pathError(err))
		default:
			fmt.Fprintf(e.stdout, "  %-7s %s: %s\n", f.label, file, strings.Join(lines, " | "))
		}
	}
	return nil, nil
}

// statusInEffect prints the attributes git applies to a notebook in the
// repository and returns a problem for each driver not ipynb's.
func statusInEffect(e *env, repo bool) ([]string, error) {
	if !repo {
		fmt.Fprintln(e.stdout, "(not inside a git work tree: only the global configuration is shown)")
		return nil, nil
	}
	out, err := git("check-attr", "merge", "diff", "filter", "--", "notebook.ipynb")
	if err != nil {
		return nil, err
	}
	got := map[string]string{}
	var shown, problems []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		// notebook.ipynb: merge: ipynb
		f := strings.SplitN(l, ": ", 3)
		if len(f) == 3 {
			got[f[1]] = f[2]
			shown = append(shown, f[1]+"="+f[2])
		}
	}
	fmt.Fprintf(e.stdout, "in effect for *.ipynb: %s\n", strings.Join(shown, " "))
	for _, a := range []string{"merge", "diff"} {
		if got[a] != driver {
			problems = append(problems, fmt.Sprintf("git applies %s=%s to notebooks, not %s=%s", a, got[a], a, driver))
		}
	}
	return problems, nil
}

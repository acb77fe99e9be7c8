package main

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Which notebooks the drivers reach: the attributes git applies to each
// tracked notebook, as git applies them (an attributes file deeper in the
// tree, read last, overrides the line install writes).

// attrNames are the attributes install sets.
var attrNames = []string{"merge", "diff", "filter"}

// checkAttr returns the attributes git applies to each of paths
// (relative to the folder dir, "" for the current one), by path and name.
func checkAttr(dir string, paths []string) (map[string]map[string]string, []string, error) {
	args := append([]string{"check-attr", "-z", "--stdin"}, attrNames...)
	if dir != "" {
		args = append([]string{"-C", dir}, args...)
	}
	var in bytes.Buffer
	for _, p := range paths {
		in.WriteString(p)
		in.WriteByte(0)
	}
	out, err := gitWithInput(&in, args...)
	if err != nil {
		return nil, nil, err
	}
	// -z: NUL-separated path, attribute, value, so that any name reads
	// back as it is (git quotes names in its other output).
	f := strings.Split(out, "\x00")
	got := map[string]map[string]string{}
	var order []string
	for i := 0; i+2 < len(f); i += 3 {
		if got[f[i]] == nil {
			got[f[i]] = map[string]string{}
			order = append(order, f[i])
		}
		got[f[i]][f[i+1]] = f[i+2]
	}
	return got, order, nil
}

// trackedNotReached returns a problem for each attribute of attrs (those
// git applies to a notebook at the top) that is ipynb's but that git
// applies otherwise to some tracked notebooks, naming them (relative to
// the top of the work tree) by the value applied.
func trackedNotReached(attrs map[string]string) ([]string, error) {
	var want []string
	for _, a := range attrNames {
		if attrs[a] == driver {
			want = append(want, a)
		}
	}
	if len(want) == 0 {
		return nil, nil
	}
	files, err := trackedNotebooks()
	if err != nil || len(files) == 0 {
		return nil, err
	}
	top, err := git("rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	got, order, err := checkAttr(strings.TrimSuffix(top, "\n"), files)
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, a := range want {
		byValue := map[string][]string{}
		var values []string
		for _, p := range order {
			v := got[p][a]
			if v == driver {
				continue
			}
			if byValue[v] == nil {
				values = append(values, v)
			}
			byValue[v] = append(byValue[v], quoteName(p))
		}
		for _, v := range values {
			names := byValue[v]
			what := fmt.Sprintf("%d of %d tracked notebooks", len(names), len(order))
			why := ""
			if a == "filter" {
				why = " (their outputs are committed)"
			}
			problems = append(problems, fmt.Sprintf("git applies %s=%s to %s, not %s=%s%s (an attributes file overrides the line for them; git check-attr -a NAME shows it): %s",
				a, v, what, a, driver, why, listNames(names, 5)))
		}
	}
	return problems, nil
}

// trackedNotebooks are the notebooks git tracks in the work tree, named
// from its top.
func trackedNotebooks() ([]string, error) {
	out, err := git("ls-files", "-z", "--full-name", "--", ":(top)*"+attrPattern[1:])
	if err != nil || out == "" {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(out, "\x00"), "\x00"), nil
}

// listNames joins the first max names, saying how many more there are.
func listNames(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:max], ", ") + fmt.Sprintf(", and %d more", len(names)-max)
}

// gitWithInput runs git with args and in (if not nil) as its standard
// input, and returns its standard output.
func gitWithInput(in *bytes.Buffer, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	if in != nil {
		cmd.Stdin = in
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		ge := &gitError{args: args, status: -1, stderr: strings.TrimSpace(errb.String()), err: err}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			ge.status = ee.ExitCode()
		}
		return out.String(), ge
	}
	return out.String(), nil
}

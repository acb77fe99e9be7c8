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
	if st := needGitProgram(e, "status"); st >= 0 {
		return st
	}
	repo := inRepo()
	paths := flags.Args()
	if len(paths) > 0 && !repo {
		fmt.Fprintf(e.stderr, "ipynb git status: not inside a git work tree: no attributes apply to %s\n", quoteName(paths[0]))
		return exitError
	}
	var problems []string
	cfg := newGitConfigs()
	inEffect := func(e *env, repo bool, cfg *gitConfigs) ([]string, error) { return statusInEffect(e, repo, paths, cfg) }
	for _, section := range []func(e *env, repo bool, cfg *gitConfigs) ([]string, error){statusConfig, statusFilter, statusAttributes, inEffect} {
		p, err := section(e, repo, cfg)
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
func statusConfig(e *env, repo bool, cfg *gitConfigs) ([]string, error) {
	var problems []string
	fmt.Fprintln(e.stdout, "config:")
	for _, s := range settings {
		line, p, err := settingStatus(s, repo, cfg)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(e.stdout, "  %s\n", line)
		problems = append(problems, p...)
	}
	if v, ok, err := cfg.get(configScope(repo), "merge.ipynb.driver"); err != nil {
		return nil, err
	} else if o, ours := settingFor("merge.ipynb.driver").parse(v); ok && ours {
		if o == "" {
			o = "conflict (the default)"
		}
		fmt.Fprintf(e.stdout, "  outputs and counts both sides changed: %s (install --outputs changes it)\n", o)
	}
	statusTools(e, repo, cfg)
	return problems, nil
}

// configScope is the scope status reads: the configuration in effect in
// a repository, the user's outside one.
func configScope(repo bool) string {
	if repo {
		return ""
	}
	return "--global"
}

// statusFilter finds a filter set-up that breaks git: filter.ipynb
// required with a clean command and no smudge command (as versions of
// install before the smudge filter wrote it) fails every checkout of a
// notebook — git restore, git stash, git checkout, git clone — and one
// required without a clean command fails git add. It returns how to
// repair it.
func statusFilter(e *env, repo bool, cfg *gitConfigs) ([]string, error) {
	scope := configScope(repo)
	out, err := cfg.boolOutput(scope, "filter.ipynb.required")
	var ge *gitError
	if errors.As(err, &ge) && (ge.status == 1 || ge.status == 128) {
		return nil, nil // not set, or not a boolean (the config section shows it)
	}
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(out) != "true" {
		return nil, nil
	}
	clean, cleanScope, err := settingWithScope(cfg, scope, "filter.ipynb.clean")
	if err != nil {
		return nil, err
	}
	smudge, _, err := settingWithScope(cfg, scope, "filter.ipynb.smudge")
	if err != nil {
		return nil, err
	}
	switch {
	case clean != "" && smudge == "":
		repair := "git config --" + cleanScope + " filter.ipynb.smudge " + smudgeCommand
		if settingFor("filter.ipynb.clean").ours(clean) {
			repair = "ipynb git install"
			if cleanScope == "global" {
				repair += " --global"
			}
		}
		return []string{fmt.Sprintf("filter.ipynb is required and has a clean filter (%s) but no smudge filter: git checkout, restore, stash and clone of a notebook fail (\"smudge filter ipynb failed\"); repair with: %s", cleanScope, repair)}, nil
	case clean == "" && smudge != "":
		return []string{"filter.ipynb is required and has no clean filter: git add of a notebook fails; repair with: ipynb git install --strip, or remove it with ipynb git uninstall"}, nil
	}
	return nil, nil
}

// argsIf is "git config" with scope ("" for the configuration in
// effect).
func argsIf(scope string) []string {
	if scope == "" {
		return []string{"config"}
	}
	return []string{"config", scope}
}

// settingWithScope returns the value of key in scope ("" for the one in
// effect) and the scope git found it in ("local", "global", …); "" when
// it is not set.
func settingWithScope(cfg *gitConfigs, scope, key string) (value, where string, err error) {
	out, err := cfg.output(scope, key, true, false)
	var ge *gitError
	if errors.As(err, &ge) && ge.status == 1 {
		return "", "", nil
	}
	if err != nil {
		return "", "", err
	}
	where, value, _ = strings.Cut(strings.TrimSuffix(out, "\n"), "\t")
	return value, where, nil
}

// settingStatus is the status line of setting s and its problems: not
// set, not ipynb's, or naming a command that cannot run.
func settingStatus(s setting, repo bool, cfg *gitConfigs) (line string, problems []string, err error) {
	out, err := cfg.output(configScope(repo), s.key, true, true)
	var ge *gitError
	if errors.As(err, &ge) && ge.status == 1 {
		switch {
		case s.missing != "":
			problems = append(problems, fmt.Sprintf("%s is not set: %s; repair with: %s", s.key, s.missing, installWhereDriver(cfg)))
		case !s.strip && !s.tool && s.suffix != "":
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
	} else if why := s.outdated(value); why != "" {
		note = " (an older install's)"
		fix := "ipynb git install"
		if scope == "global" {
			fix += " --global"
		}
		problems = append(problems, fmt.Sprintf("%s was written by an older ipynb git install (%s); update it with: %s", s.key, why, fix))
	} else if w := commandWord(value); s.suffix != "" && w != "" {
		if _, err := exec.LookPath(w); err != nil {
			note = " (the command is missing)"
			problems = append(problems, fmt.Sprintf("%s: %s does not exist or cannot run (reinstall with ipynb git install)", s.key, w))
		}
	}
	return fmt.Sprintf("%-22s %s  [%s: %s]%s", s.key, value, scope, origin, note), problems, nil
}

// installWhereDriver is the install command that repairs a setting of
// the scope the merge driver is set in.
func installWhereDriver(cfg *gitConfigs) string {
	if _, where, err := settingWithScope(cfg, "", "merge.ipynb.driver"); err == nil && where == "global" {
		return "ipynb git install --global"
	}
	return "ipynb git install"
}

// statusAttributes prints ipynb's lines in the global attributes file
// and, in a repository, in its local and shared ones.
func statusAttributes(e *env, repo bool, _ *gitConfigs) ([]string, error) {
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
		if err := checkAttributesFile(file, f.shared); err != nil {
			fmt.Fprintf(e.stdout, "  %-7s %s: %v\n", f.label, quoteName(file), err)
			continue
		}
		lines, err := ourAttributeLines(file)
		switch {
		case errors.Is(err, fs.ErrNotExist) || err == nil && len(lines) == 0:
			fmt.Fprintf(e.stdout, "  %-7s %s: no ipynb line\n", f.label, quoteName(file))
		case err != nil:
			fmt.Fprintf(e.stdout, "  %-7s %s: %v\n", f.label, quoteName(file), pathError(err))
		default:
			fmt.Fprintf(e.stdout, "  %-7s %s: %s\n", f.label, quoteName(file), strings.Join(lines, " | "))
		}
	}
	return nil, nil
}

// statusInEffect prints the attributes git applies to each of paths
// in the repository (none given: to any notebook) and returns a problem
// for each driver not ipynb's.
func statusInEffect(e *env, repo bool, paths []string, cfg *gitConfigs) ([]string, error) {
	if !repo {
		fmt.Fprintln(e.stdout, "(not inside a git work tree: only the global configuration is shown)")
		return nil, nil
	}
	shown, anyNotebook := paths, len(paths) == 0
	if anyNotebook {
		paths, shown = []string{"notebook.ipynb"}, []string{"*.ipynb"}
	}
	got, order, err := checkAttr("", paths)
	if err != nil {
		return nil, err
	}
	var problems []string
	for i, p := range order {
		var attrs []string
		for _, a := range []string{"merge", "diff", "filter"} {
			attrs = append(attrs, a+"="+got[p][a])
		}
		name := quoteName(p)
		if i < len(shown) {
			name = quoteName(shown[i])
		}
		fmt.Fprintf(e.stdout, "in effect for %s: %s\n", name, strings.Join(attrs, " "))
		for _, a := range []string{"merge", "diff"} {
			if got[p][a] != driver {
				what := "notebooks"
				if len(shown) > 0 && shown[0] != "*.ipynb" {
					what = name
				}
				problems = append(problems, fmt.Sprintf("git applies %s=%s to %s, not %s=%s", a, got[p][a], what, a, driver))
			}
		}
	}
	if len(order) > 0 && got[order[0]]["filter"] == driver {
		// Asked for by the attributes (a committed .gitattributes, say)
		// but not configured: git ignores the filter.
		if v, ok, err := cfg.get("", "filter.ipynb.clean"); err != nil {
			return nil, err
		} else if !ok || v == "" {
			problems = append(problems, "git applies filter=ipynb to notebooks but filter.ipynb.clean is not set: git ignores the filter and commits their outputs; install it with: ipynb git install --strip")
		}
	}
	if anyNotebook && len(order) == 1 {
		// The notebooks in the tree, which attributes files deeper in
		// it may give other drivers.
		p, err := trackedNotReached(got[order[0]])
		if err != nil {
			return nil, err
		}
		problems = append(problems, p...)
	}
	return problems, nil
}

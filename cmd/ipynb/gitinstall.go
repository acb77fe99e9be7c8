package main

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
)

// install and uninstall: git's configuration through "git config", the
// attributes files through editAttributes (gitattr.go).

func runGitInstall(e *env, args []string) int {
	fs := gitCmd.flags(e)
	global := fs.Bool("global", false, "configure the user's git (~/.gitconfig and the global attributes file), not the repository")
	strip := fs.Bool("strip", false, "also install \"ipynb strip -\" as a clean filter: outputs and counts are not committed")
	shared := fs.Bool("attributes", false, "write the attributes into the work tree's .gitattributes (to commit) instead of .git/info/attributes")
	override := fs.String("command", "", "the command git runs, instead of this program's absolute path")
	var outputs strategyValue
	fs.Var(&outputs, "outputs", "the merge driver's --outputs: what a merge keeps of outputs and counts both sides changed, "+strings.Join(outputStrategies(), ", ")+" (default: the one installed before, else conflict)")
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	if st := needGitProgram(e, "install"); st >= 0 {
		return st
	}
	if st := gitScopeArgs(e, "install", fs, *global, *shared); st >= 0 {
		return st
	}
	cmd, err := selfCommand(*override)
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb git install: %v\n", err)
		return exitError
	}
	if w := commandWarning(cmd); w != "" {
		fmt.Fprintf(e.stderr, "ipynb git install: warning: --command %s\n", w)
	}
	file, err := attributesFile(*global, *shared)
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb git install: %v\n", err)
		return exitError
	}
	if err := checkAttributesFile(file, *shared); err != nil {
		fmt.Fprintf(e.stderr, "ipynb git install: %s %v\n", quoteName(file), err)
		return exitError
	}
	scope := scopeFlag(*global)
	cfg := newGitConfigs()
	withFilter := *strip
	if !withFilter {
		// A filter installed before stays (install without --strip is
		// not an uninstall of it); an older install's, which had no
		// smudge filter, is completed.
		v, ok, err := cfg.get(scope, "filter.ipynb.clean")
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb git install: %v\n", err)
			return exitError
		}
		withFilter = ok && settingFor("filter.ipynb.clean").ours(v)
	}
	strategy := outputs.name
	if !outputs.set {
		// The strategy installed before stays.
		v, ok, err := cfg.get(scope, "merge.ipynb.driver")
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb git install: %v\n", err)
			return exitError
		}
		if ok {
			strategy, _ = settingFor("merge.ipynb.driver").parse(v)
		}
	}
	if withFilter && !*global {
		if st := refuseOtherFilters(e); st >= 0 {
			return st
		}
	}
	// A setting that is not ipynb's is never replaced (nbstripout's
	// install writes diff.ipynb.textconv): nothing is changed until the
	// user removes it.
	foreign := false
	for _, s := range settings {
		if s.strip && !withFilter {
			continue
		}
		have, ok, err := cfg.get(scope, s.key)
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb git install: %v\n", err)
			return exitError
		}
		if ok && !s.ours(have) {
			foreign = true
			fmt.Fprintf(e.stderr, "ipynb git install: %s %s = %s is not ipynb's; nothing changed: remove it first (git config %s --unset %s) and install again\n", scope[2:], s.key, have, scope, s.key)
		}
	}
	if foreign {
		return exitError
	}
	toolsSet := false // a setting of git difftool/mergetool written
	for _, s := range settings {
		if s.strip && !withFilter {
			continue
		}
		want := s.valueFor(cmd, strategy)
		have, ok, err := cfg.get(scope, s.key)
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb git install: %v\n", err)
			return exitError
		}
		if ok && have == want {
			continue
		}
		if _, err := git("config", scope, s.key, want); err != nil {
			fmt.Fprintf(e.stderr, "ipynb git install: %v\n", err)
			return exitError
		}
		fmt.Fprintf(e.stdout, "set %s %s = %s\n", scope[2:], s.key, want)
		toolsSet = toolsSet || s.tool
	}
	changed, err := editAttributes(file, attributeLine(withFilter), *shared)
	if errors.Is(err, errAttributesLink) {
		fmt.Fprintf(e.stderr, "ipynb git install: %s %v\n", quoteName(file), err)
		return exitError
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", file, err)
		return exitError
	}
	if changed {
		fmt.Fprintf(e.stdout, "wrote %q to %s\n", attributeLine(withFilter), file)
	}
	warnNotReached(e, withFilter)
	if _, ok := webFor(cmd); toolsSet && !ok {
		// Not a warning: the drivers work without it.
		fmt.Fprintf(e.stdout, "note: %s\n", noWebProgram)
	}
	return exitOK
}

// replaceableFilters are the filters ipynb's may replace on notebooks:
// none, and nbstripout's, which strips as ipynb does.
var replaceableFilters = []string{"unspecified", "unset", "set", driver, "nbstripout"}

// refuseOtherFilters refuses, in a work tree, to put ipynb's filter on
// notebooks git passes through another filter (an encryption filter
// such as git-crypt, Git LFS): ipynb's line would replace it, and git
// would store the notebooks as the work tree has them (in clear, or in
// git itself) and check out what it stores. It returns the exit status
// to stop with, or -1.
func refuseOtherFilters(e *env) int {
	if !inRepo() {
		return -1
	}
	got, order, err := checkAttr("", []string{"notebook.ipynb"})
	if err != nil || len(order) != 1 {
		return -1
	}
	other := map[string][]string{}
	var values []string
	note := func(v, name string) {
		if slices.Contains(replaceableFilters, v) {
			return
		}
		if other[v] == nil {
			values = append(values, v)
		}
		other[v] = append(other[v], name)
	}
	note(got[order[0]]["filter"], "*.ipynb")
	if files, err := trackedNotebooks(); err == nil && len(files) > 0 {
		top, _ := git("rev-parse", "--show-toplevel")
		if tg, torder, err := checkAttr(strings.TrimSuffix(top, "\n"), files); err == nil {
			for _, p := range torder {
				note(tg[p]["filter"], quoteName(p))
			}
		}
	}
	if len(values) == 0 {
		return -1
	}
	for _, v := range values {
		fmt.Fprintf(e.stderr, "ipynb git install: git applies filter=%s to %s: ipynb's filter would replace it, and git would store those notebooks as the work tree has them and check out what it stores; nothing changed (install without --strip to keep filter=%s)\n", v, listNames(other[v], 5), v)
	}
	return exitError
}

// warnNotReached warns, in a work tree, of the notebooks git applies
// other drivers to than the ones just installed: attributes files that
// override the line written (a .gitattributes deeper in the tree, or for
// --global the repository's own).
func warnNotReached(e *env, filter bool) {
	if !inRepo() {
		return
	}
	got, order, err := checkAttr("", []string{"notebook.ipynb"})
	if err != nil || len(order) != 1 {
		return
	}
	var problems []string
	attrs := []string{"merge", "diff"}
	if filter {
		attrs = append(attrs, "filter")
	}
	for _, a := range attrs {
		if v := got[order[0]][a]; v != driver {
			problems = append(problems, fmt.Sprintf("git applies %s=%s to notebooks here, not %s=%s (an attributes file overrides the line)", a, v, a, driver))
		}
	}
	p, err := trackedNotReached(got[order[0]])
	if err != nil {
		return
	}
	for _, p := range append(problems, p...) {
		fmt.Fprintf(e.stderr, "ipynb git install: warning: %s\n", p)
	}
}

func runGitUninstall(e *env, args []string) int {
	fs := gitCmd.flags(e)
	global := fs.Bool("global", false, "remove from the user's git (~/.gitconfig and the global attributes file)")
	shared := fs.Bool("attributes", false, "also remove ipynb's line from the work tree's .gitattributes")
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	if st := needGitProgram(e, "uninstall"); st >= 0 {
		return st
	}
	if st := gitScopeArgs(e, "uninstall", fs, *global, *shared); st >= 0 {
		return st
	}
	files := []bool{false}
	if *shared {
		files = append(files, true)
	}
	for _, sh := range files {
		file, err := attributesFile(*global, sh)
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb git uninstall: %v\n", err)
			return exitError
		}
		if err := checkAttributesFile(file, sh); err != nil {
			fmt.Fprintf(e.stderr, "ipynb git uninstall: %s %v\n", quoteName(file), err)
			return exitError
		}
	}
	scope := scopeFlag(*global)
	cfg := newGitConfigs()
	status := exitOK
	sections := map[string]bool{}
	for _, s := range slices.Backward(settings) {
		have, ok, err := cfg.get(scope, s.key)
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb git uninstall: %v\n", err)
			return exitError
		}
		if !ok {
			continue
		}
		if !s.ours(have) {
			fmt.Fprintf(e.stderr, "ipynb git uninstall: kept %s %s = %s (not set by ipynb git install)\n", scope[2:], s.key, have)
			continue
		}
		if _, err := git("config", scope, "--unset-all", s.key); err != nil {
			fmt.Fprintf(e.stderr, "ipynb git uninstall: %v\n", err)
			status = exitError
			continue
		}
		fmt.Fprintf(e.stdout, "unset %s %s\n", scope[2:], s.key)
		sections[s.key[:strings.LastIndexByte(s.key, '.')]] = true
	}
	// Remove sections left empty (git config --unset keeps the header).
	after := newGitConfigs()
	for _, sec := range []string{"filter.ipynb", "mergetool.ipynb", "difftool.ipynb", "diff.ipynb", "merge.ipynb"} {
		if sections[sec] && after.empty(scope, sec) {
			git("config", scope, "--remove-section", sec)
		}
	}
	for _, sh := range files {
		file, err := attributesFile(*global, sh)
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb git uninstall: %v\n", err)
			return exitError
		}
		changed, err := editAttributes(file, "", sh)
		if errors.Is(err, errAttributesLink) {
			fmt.Fprintf(e.stderr, "ipynb git uninstall: %s %v\n", quoteName(file), err)
			status = exitError
			continue
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", file, err)
			status = exitError
			continue
		}
		if changed {
			fmt.Fprintf(e.stdout, "removed ipynb's attributes from %s\n", file)
		}
	}
	if inRepo() {
		// Installed in the other scope: say so (git still uses ipynb).
		got, order, err := checkAttr("", []string{"notebook.ipynb"})
		v, where, verr := settingWithScope(newGitConfigs(), "", "merge.ipynb.driver")
		if err == nil && verr == nil && len(order) == 1 && got[order[0]]["merge"] == driver && settingFor("merge.ipynb.driver").ours(v) {
			fix := "ipynb git uninstall"
			if where == "global" {
				fix += " --global"
			}
			fmt.Fprintf(e.stderr, "ipynb git uninstall: ipynb's drivers are still in effect here, from the %s configuration (%s removes them)\n", where, fix)
		}
	}
	if !*global && !*shared {
		if file, err := attributesFile(false, true); err == nil && checkAttributesFile(file, true) == nil {
			if lines, _ := ourAttributeLines(file); len(lines) > 0 {
				fmt.Fprintf(e.stderr, "ipynb git uninstall: %s still has %q (committed; remove it with --attributes)\n", file, lines[0])
			}
		}
	}
	return status
}

// gitScopeArgs checks what install and uninstall share: no arguments, one
// scope (--global or --attributes), and a work tree unless --global. It
// returns the exit status to stop with, or -1.
func gitScopeArgs(e *env, sub string, fs *flag.FlagSet, global, shared bool) int {
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(e.stderr, "ipynb git %s: unexpected argument %q\n", sub, fs.Arg(0))
	case global && shared:
		fmt.Fprintf(e.stderr, "ipynb git %s: --global and --attributes exclude each other\n", sub)
	case !global && !inRepo():
		fmt.Fprintf(e.stderr, "ipynb git %s: not inside a git work tree (use --global to configure your user's git)\n", sub)
	default:
		return -1
	}
	return exitError
}

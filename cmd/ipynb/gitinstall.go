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
	scope := scopeFlag(*global)
	withFilter := *strip
	if !withFilter {
		// A filter installed before stays (install without --strip is
		// not an uninstall of it); an older install's, which had no
		// smudge filter, is completed.
		v, ok, err := gitConfigGet(scope, "filter.ipynb.clean")
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb git install: %v\n", err)
			return exitError
		}
		withFilter = ok && settingFor("filter.ipynb.clean").ours(v)
	}
	strategy := outputs.name
	if !outputs.set {
		// The strategy installed before stays.
		v, ok, err := gitConfigGet(scope, "merge.ipynb.driver")
		if err != nil {
			fmt.Fprintf(e.stderr, "ipynb git install: %v\n", err)
			return exitError
		}
		if ok {
			strategy, _ = settingFor("merge.ipynb.driver").parse(v)
		}
	}
	for _, s := range settings {
		if s.strip && !withFilter {
			continue
		}
		want := s.valueFor(cmd, strategy)
		have, ok, err := gitConfigGet(scope, s.key)
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
	}
	file, err := attributesFile(*global, *shared)
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb git install: %v\n", err)
		return exitError
	}
	changed, err := editAttributes(file, attributeLine(withFilter))
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", file, err)
		return exitError
	}
	if changed {
		fmt.Fprintf(e.stdout, "wrote %q to %s\n", attributeLine(withFilter), file)
	}
	return exitOK
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
	scope := scopeFlag(*global)
	status := exitOK
	sections := map[string]bool{}
	for _, s := range slices.Backward(settings) {
		have, ok, err := gitConfigGet(scope, s.key)
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
	for _, sec := range []string{"filter.ipynb", "diff.ipynb", "merge.ipynb"} {
		if !sections[sec] {
			continue
		}
		out, err := git("config", scope, "--get-regexp", `^`+strings.ReplaceAll(sec, ".", `\.`)+`\.`)
		var ge *gitError
		if errors.As(err, &ge) && ge.status == 1 && out == "" {
			git("config", scope, "--remove-section", sec)
		}
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
		changed, err := editAttributes(file, "")
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", file, err)
			status = exitError
			continue
		}
		if changed {
			fmt.Fprintf(e.stdout, "removed ipynb's attributes from %s\n", file)
		}
	}
	if !*global && !*shared {
		if file, err := attributesFile(false, true); err == nil {
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

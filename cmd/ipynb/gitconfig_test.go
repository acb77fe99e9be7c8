package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// Every read of a listed configuration answers what git config --get
// itself prints for it, and fails as it fails: multi-valued keys, keys
// without a value, keys spelt in other cases, subsections differing in
// case, a file name git quotes, the command line's settings, a missing
// global file and one git cannot parse.
func TestGitConfigsAnswerAsGit(t *testing.T) {
	needGit(t)
	home := filepath.Join(t.TempDir(), "h ü\"x\\")
	os.MkdirAll(home, 0o755)
	e := ownEnv(t)
	e.home = home
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q", "-b", "main", ".")
	local := "[merge \"ipynb\"]\n\tdriver = a\n\tdriver = b\n\tRecursive\n\tname = \"x\\ny\"\n\tempty =\n[Merge \"IPYNB\"]\n\tdriver = c\n" +
		"[filter \"ipynb\"]\n\trequired = Yes\n\tclean = x\n[filter \"b\"]\n\trequired = 2k\n[filter \"c\"]\n\trequired = maybe\n[filter \"d\"]\n\trequired\n[filter \"e\"]\n\trequired = OFF\n[filter \"f\"]\n\trequired =\n"
	f, err := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(local)
	f.Close()
	keys := []string{"merge.ipynb.driver", "Merge.ipynb.DRIVER", "merge.IPYNB.driver", "merge.Ipynb.driver", "merge.ipynb.recursive",
		"merge.ipynb.name", "merge.ipynb.empty", "merge.ipynb.none", "diff.ipynb.command", "user.name", "core.bare",
		"filter.ipynb.required", "filter.b.required", "filter.c.required", "filter.d.required", "filter.e.required", "filter.f.required", "filter.ipynb.clean"}
	// Outside the long tier each key is read in one scope per setting, a
	// different one in each of the three settings, so every key meets every
	// scope across the test and every scope reads a third of the keys.
	round := 0
	compare := func(t *testing.T, what string) {
		t.Helper()
		defer func() { round++ }()
		for s, scope := range []string{"", "--local", "--global"} {
			cfg := newGitConfigs()
			for k, key := range keys {
				if !testtier.Full() && (k+s+round)%3 != 0 {
					continue
				}
				for _, flags := range [][2]bool{{false, false}, {true, false}, {true, true}} {
					args := argsIf(scope)
					if flags[0] {
						args = append(args, "--show-scope")
					}
					if flags[1] {
						args = append(args, "--show-origin")
					}
					args = append(args, "--get", key)
					want, wantErr := gitOut(t, dir, args...)
					got, gotErr := inDir(t, dir, func() (string, error) { return cfg.output(scope, key, flags[0], flags[1]) })
					if got != want || !sameGitError(gotErr, wantErr) {
						t.Errorf("%s: git %s: %q, %v; git says %q, %v", what, strings.Join(args, " "), got, gotErr, want, wantErr)
					}
				}
				args := append(argsIf(scope), "--type=bool", "--get", key)
				want, wantErr := gitOut(t, dir, args...)
				got, gotErr := inDir(t, dir, func() (string, error) { return cfg.boolOutput(scope, key) })
				if got != want || !sameGitError(gotErr, wantErr) {
					t.Errorf("%s: git %s: %q, %v; git says %q, %v", what, strings.Join(args, " "), got, gotErr, want, wantErr)
				}
			}
			for _, sec := range []string{"merge.ipynb", "merge.IPYNB", "diff.ipynb", "filter.ipynb"} {
				pattern := `^` + strings.ReplaceAll(sec, ".", `\.`) + `\.`
				out, err := gitOut(t, dir, append(argsIf(scope), "--get-regexp", pattern)...)
				var ge *gitError
				want := errors.As(err, &ge) && ge.status == 1 && out == ""
				got, _ := inDir(t, dir, func() (string, error) {
					if cfg.empty(scope, sec) {
						return "empty", nil
					}
					return "", nil
				})
				if (got == "empty") != want {
					t.Errorf("%s: %s empty in %q: %v, git says %v", what, sec, scope, got == "empty", want)
				}
			}
		}
	}
	compare(t, "no global file")
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[merge \"ipynb\"]\n\tdriver = global\n[diff \"ipynb\"]\n\tcommand = g\n[user]\n\tname = t\n"), 0o644)
	setTestEnv(t, "GIT_CONFIG_COUNT", "1")
	setTestEnv(t, "GIT_CONFIG_KEY_0", "Diff.ipynb.Command")
	setTestEnv(t, "GIT_CONFIG_VALUE_0", "from the environment")
	compare(t, "global file")
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[merge \"ipynb\"\n\tdriver = global\n"), 0o644)
	compare(t, "broken global file")
}

// gitOut runs git in dir with t's environment, returning its standard
// output and its error as git() does.
func gitOut(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	return inDir(t, dir, func() (string, error) { return git(args...) })
}

// inDir runs f with the test's git environment in dir.
func inDir(t *testing.T, dir string, f func() (string, error)) (string, error) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	saved := map[string]*string{}
	for _, kv := range testEnv(t)[len(os.Environ()):] {
		k, v, _ := strings.Cut(kv, "=")
		if _, ok := saved[k]; !ok {
			if old, ok := os.LookupEnv(k); ok {
				saved[k] = &old
			} else {
				saved[k] = nil
			}
		}
		os.Setenv(k, v)
	}
	defer func() {
		for k, v := range saved {
			if v == nil {
				os.Unsetenv(k)
			} else {
				os.Setenv(k, *v)
			}
		}
	}()
	return f()
}

// sameGitError reports whether two results of git failed alike: both
// not at all, or with one status, message and arguments.
func sameGitError(a, b error) bool {
	var ga, gb *gitError
	if errors.As(a, &ga) != errors.As(b, &gb) || (ga == nil) != (gb == nil) {
		return false
	}
	if ga == nil {
		return (a == nil) == (b == nil)
	}
	return ga.status == gb.status && ga.Error() == gb.Error()
}

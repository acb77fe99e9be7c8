package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// selfCommand is the command written into git's configuration: override
// if given, else this program's absolute path, quoted for the shell.
func selfCommand(override string) (string, error) {
	if override != "" {
		return override, checkCommand(override)
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find this program's path (%v): give the command with --command", err)
	}
	if p, err := filepath.EvalSymlinks(exe); err == nil {
		exe = p
	}
	if where := goBuildCache(exe); where != "" {
		return "", fmt.Errorf("this ipynb is a \"go run\" build %s (%s), which git could not run later: "+
			"install it from your clone of the module (there: go install ./cmd/ipynb, into $(go env GOPATH)/bin or GOBIN) "+
			"and run that one, or give the command to write with --command", where, quoteName(exe))
	}
	return shellQuote(pathRun(exe)), nil
}

// pathRun is the absolute path this program was run by (os.Args[0], or
// where the PATH found it) when it is a symbolic link to exe, the
// program itself — a link a package manager keeps across upgrades
// (bin/ipynb → Cellar/ipynb/1.0/bin/ipynb) stays valid where the
// versioned path it leads to does not; else exe.
func pathRun(exe string) string {
	arg0 := os.Args[0]
	var p string
	var err error
	if strings.ContainsRune(arg0, filepath.Separator) {
		p, err = filepath.Abs(arg0)
	} else if p, err = exec.LookPath(arg0); err == nil {
		p, err = filepath.Abs(p)
	}
	if err != nil {
		return exe
	}
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return exe
	}
	a, erra := os.Stat(p)
	b, errb := os.Stat(exe)
	if erra != nil || errb != nil || !os.SameFile(a, b) || goBuildCache(p) != "" {
		return exe
	}
	return p
}

// cachedExe is the layout of an executable "go run" keeps in Go's build
// cache (Go ≥ 1.24 caches linked programs): GOCACHE/XX/HASH-d/NAME,
// where XX is the first two hex digits of the hash.
var cachedExe = regexp.MustCompile(`^([0-9a-f]{2})[0-9a-f]{62}-d$`)

// goBuildCache says where exe is when it is a program "go run" built,
// and "" otherwise: a temporary build folder ($GOTMPDIR/go-buildNNN/
// bNNN/exe/NAME, removed when go run exits), or Go's build cache (the
// cache's layout, or anywhere under GOCACHE), whose entries Go trims and
// replaces. Neither is a place to run a program from later.
func goBuildCache(exe string) string {
	dir := filepath.Dir(exe)
	if filepath.Base(dir) == "exe" && strings.HasPrefix(filepath.Base(filepath.Dir(filepath.Dir(dir))), "go-build") {
		return "in a temporary folder removed when go run exits"
	}
	if m := cachedExe.FindStringSubmatch(filepath.Base(dir)); m != nil && filepath.Base(filepath.Dir(dir)) == m[1] {
		return "in Go's build cache, which Go trims"
	}
	for _, c := range goCaches() {
		if rel, err := filepath.Rel(c, exe); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "in Go's build cache " + quoteName(c) + ", which Go trims"
		}
	}
	return ""
}

// goCaches are the folders Go's build cache may be in: GOCACHE, and its
// default, the user's cache folder's go-build (links resolved). Go
// itself is not run (it need not be on the PATH).
func goCaches() []string {
	var dirs []string
	if c := os.Getenv("GOCACHE"); c != "" && c != "off" && filepath.IsAbs(c) {
		dirs = append(dirs, c)
	}
	if u, err := os.UserCacheDir(); err == nil {
		dirs = append(dirs, filepath.Join(u, "go-build"))
	}
	for i, d := range dirs {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			dirs[i] = r
		}
	}
	return dirs
}

// checkCommand refuses a --command git could not run: one that starts
// with no word (blanks, an unclosed quote: install would not recognise
// its own settings afterwards), or whose program is an absolute path
// that does not exist or cannot run (a path holding spaces, unquoted,
// reads as its part before the first space).
func checkCommand(cmd string) error {
	w := commandWord(cmd)
	if w == "" {
		return fmt.Errorf("--command %q: it starts with no word git's shell can run (blanks, or an unclosed quote)", cmd)
	}
	if filepath.IsAbs(w) {
		if _, err := exec.LookPath(w); err != nil {
			hint := "quote a path holding spaces or quotes for sh, which git runs the command with"
			if _, err := exec.LookPath(cmd); err == nil {
				hint = "git runs the command with sh: quote the path in it, --command \"" + shellQuote(cmd) + "\""
			}
			return fmt.Errorf("--command %q: %s does not exist or cannot run (%s)", cmd, quoteName(w), hint)
		}
	}
	return nil
}

// commandWarning is what to say of a --command whose program git would
// look for on the PATH, or in the work tree, when git runs it ("" when
// it is found now, or is an absolute path).
func commandWarning(cmd string) string {
	w := commandWord(cmd)
	switch {
	case w == "" || filepath.IsAbs(w):
		return ""
	case strings.ContainsRune(w, '/'):
		return fmt.Sprintf("%s is a relative path: git runs it from the top of each work tree it merges or diffs in", quoteName(w))
	}
	if _, err := exec.LookPath(w); err != nil {
		return fmt.Sprintf("%s is not found on the PATH now: git runs it from the PATH git has when it merges or diffs (git diff stops if it is not there)", quoteName(w))
	}
	return ""
}

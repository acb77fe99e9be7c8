package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// selfCommand is the command written into git's configuration: override
// if given, else this program's absolute path, quoted for the shell.
func selfCommand(override string) (string, error) {
	if override != "" {
		return override, nil
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
	return shellQuote(exe), nil
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

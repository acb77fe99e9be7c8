package main

// Attributes files. Git has no command that writes them, so ipynb edits
// them itself: it owns the lines that give *.ipynb nothing but its own
// drivers (merge=ipynb, diff=ipynb, filter=ipynb) and leaves every other
// line as it is.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nbdialog/ipynb/internal/atomicfile"
)

const attrPattern = "*.ipynb"

// attributeLine is the line install writes.
func attributeLine(filter bool) string {
	l := attrPattern + " merge=" + driver + " diff=" + driver
	if filter {
		l += " filter=" + driver
	}
	return l
}

// ourAttribute reports whether line is one install writes (in any order,
// with any subset of the three attributes).
func ourAttribute(line string) bool {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != attrPattern {
		return false
	}
	for _, a := range f[1:] {
		switch a {
		case "merge=" + driver, "diff=" + driver, "filter=" + driver:
		default:
			return false
		}
	}
	return true
}

// attributesFile is the attributes file install and uninstall edit:
// .git/info/attributes, the work tree's .gitattributes (shared), or
// git's global attributes file.
func attributesFile(global, shared bool) (string, error) {
	switch {
	case global:
		if v, err := userAttributesFile(); err != nil || v != "" {
			return v, err
		}
		if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
			return filepath.Join(x, "git", "attributes"), nil
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, ".config", "git", "attributes"), nil
	case shared:
		top, err := git("rev-parse", "--show-toplevel")
		if err != nil {
			return "", err
		}
		return filepath.Join(strings.TrimSuffix(top, "\n"), ".gitattributes"), nil
	}
	p, err := git("rev-parse", "--git-path", "info/attributes")
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(p, "\n"), nil
}

// userAttributesFile is core.attributesFile as git reads it for every
// repository: the last value of the user's or the system configuration,
// files they include too, as a path ("~/" expanded by git); "" when
// neither sets it. A repository's own value applies to it only, and is
// not the user's file.
func userAttributesFile() (string, error) {
	out, err := git("config", "--show-scope", "--type=path", "--get-all", "core.attributesFile")
	var ge *gitError
	if errors.As(err, &ge) && ge.status == 1 {
		return "", nil // not set
	}
	if err != nil {
		return "", err
	}
	file := ""
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		scope, v, _ := strings.Cut(line, "\t")
		if scope == "global" || scope == "system" {
			file = v
		}
	}
	return file, nil
}

// ourAttributeLines returns ipynb's lines in file.
func ourAttributeLines(file string) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var ours []string
	for _, l := range strings.Split(string(data), "\n") {
		if ourAttribute(l) {
			ours = append(ours, strings.TrimRight(l, "\r"))
		}
	}
	return ours, nil
}

// errAttributesLink: the work tree's .gitattributes is a symbolic link,
// which git reads no attributes from (it opens .gitattributes without
// following links) and ipynb never writes through.
var errAttributesLink = errors.New("is a symbolic link, which git reads no attributes from (it reads a .gitattributes that is a file); left alone: replace the link with a file (git rm .gitattributes, then write one) to use --attributes")

// checkAttributesFile returns errAttributesLink when the attributes file
// of the work tree (shared) is a symbolic link; the others (.git/info/
// attributes, the global one) are followed, as git follows them.
func checkAttributesFile(file string, shared bool) error {
	if !shared {
		return nil
	}
	if fi, err := os.Lstat(file); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return errAttributesLink
	}
	return nil
}

// editAttributes makes file hold ipynb's line want once (where an
// earlier one of ipynb's lines was, or at the end) and no other line of
// ipynb's; with want "", it removes ipynb's lines. Other lines keep
// their bytes. A file that does not change is not written; a file left
// empty by removal is kept (it may be tracked); a shared one (the work
// tree's .gitattributes) that is a symbolic link is never followed
// (errAttributesLink). It reports whether the file changed.
func editAttributes(file, want string, shared bool) (bool, error) {
	data, stamp, err := atomicfile.Read(file, atomicfile.ReadOptions{NoFollow: shared})
	if errors.Is(err, atomicfile.ErrSymlink) {
		return false, errAttributesLink
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	missing := errors.Is(err, fs.ErrNotExist)
	if missing && want == "" {
		return false, nil
	}
	var out []byte
	placed := false
	rest := data
	for len(rest) > 0 {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		if !ourAttribute(string(line)) {
			out = append(out, line...)
			continue
		}
		if want != "" && !placed {
			out = append(out, want...)
			if bytes.HasSuffix(line, []byte("\r\n")) {
				out = append(out, '\r')
			}
			out = append(out, '\n')
			placed = true
		}
	}
	if want != "" && !placed {
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		out = append(out, want...)
		out = append(out, '\n')
	}
	if !missing && bytes.Equal(out, data) {
		return false, nil
	}
	if missing {
		if err := os.MkdirAll(filepath.Dir(file), 0o777); err != nil {
			return false, err
		}
	}
	// A file read is replaced only if it is still, right before the
	// rename, the file read (changed meanwhile: ErrChanged, left alone).
	if _, err := atomicfile.Replace(file, out, atomicfile.Options{Expect: stamp}); err != nil {
		if errors.Is(err, atomicfile.ErrChanged) {
			return false, fmt.Errorf("%w; left alone (run the command again)", err)
		}
		return false, err
	}
	return true, nil
}

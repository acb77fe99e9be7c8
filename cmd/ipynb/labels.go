package main

import (
	"strings"
	"unicode/utf8"
)

// The labels after a conflict's <<<<<<< and >>>>>>> markers, by one
// rule for merge and fix: a label given — by git (merge's --ours-label
// %X and --theirs-label %Y, git ≥ 2.44), by hand, or read from the
// markers fix repairs — is used; a label not given, empty, or left as
// the placeholder itself ("%X", "%Y": git before 2.44 passes
// placeholders it does not know as they are) is the name "git merge"
// gives the branch merged, for theirs (with HEAD for ours, as git's own
// markers say), where git says it; else "ours" and "theirs".

// mergeLabels returns the labels for the sides of a merge given ours
// and theirs (see above); environ is the process's environment, in
// which "git merge" names the branch merged (GITHEAD_<commit>=NAME).
func mergeLabels(ours, theirs string, environ []string) (string, string) {
	ours, theirs = labelGiven(ours, "%X"), labelGiven(theirs, "%Y")
	if ours != "" && theirs != "" {
		return ours, theirs
	}
	o, t := "ours", "theirs"
	if name := gitMergeName(environ); name != "" {
		o, t = "HEAD", name
	}
	if ours == "" {
		ours = o
	}
	if theirs == "" {
		theirs = t
	}
	return ours, theirs
}

// labelGiven returns label as it goes on a marker line, or "" when it
// is empty or the placeholder left unexpanded. A label stays on one line
// and drives no terminal: it is cut at its first line break, and
// control characters, bidi controls and bytes that are not UTF-8 become
// U+FFFD.
func labelGiven(label, placeholder string) string {
	if label == placeholder {
		return ""
	}
	if i := strings.IndexAny(label, "\r\n"); i >= 0 {
		label = label[:i]
	}
	var b strings.Builder
	for i := 0; i < len(label); {
		r, size := utf8.DecodeRuneInString(label[i:])
		if needsPicture(r) || r == '\t' || r == utf8.RuneError && size == 1 {
			r = utf8.RuneError
		}
		b.WriteRune(r)
		i += size
	}
	return strings.TrimSpace(b.String())
}

// gitMergeName is the name "git merge" gives the one branch it merges,
// which it puts in the environment of merge drivers as
// GITHEAD_<commit>=NAME; "" when there is none, or more than one (an
// octopus merge).
func gitMergeName(environ []string) string {
	name := ""
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(k, "GITHEAD_") || len(k) < len("GITHEAD_")+40 {
			continue
		}
		if name != "" {
			return ""
		}
		name = labelGiven(v, "")
	}
	return name
}

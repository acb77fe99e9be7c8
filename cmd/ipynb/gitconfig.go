package main

// Git's configuration read a scope at a time, answered as git config --get answers.

import (
	"errors"
	"strings"
)

// gitConfigs answers the configuration reads of one command: each scope
// ("--local", "--global", or "" for the configuration in effect) is
// read with one "git config --list" at its first read, and every read
// of it answers what "git config SCOPE [--show-scope] [--show-origin]
// --get KEY" prints and how it fails. A scope git cannot list (a
// configuration file git refuses) is read a key at a time, by that
// very command. Writes to the configuration are not seen: a command
// reads each key before it writes it.
type gitConfigs struct {
	scopes map[string]*configList
}

func newGitConfigs() *gitConfigs { return &gitConfigs{scopes: map[string]*configList{}} }

// A configList is one scope's variables as git lists them.
type configList struct {
	vars map[string][]configEntry // by canonical name, in git's order
	each bool                     // not listed: each read runs git config --get
}

// A configEntry is one value of a variable.
type configEntry struct {
	scope, origin string // as --show-scope and -z --show-origin give them
	value         string
	noValue       bool // "[section] name" without "=": --get prints ""
}

// list returns scope's configuration, read at the first call.
func (g *gitConfigs) list(scope string) *configList {
	if l, ok := g.scopes[scope]; ok {
		return l
	}
	l := &configList{vars: map[string][]configEntry{}}
	g.scopes[scope] = l
	out, err := git(append(argsIf(scope), "--list", "-z", "--show-scope", "--show-origin")...)
	var ge *gitError
	if errors.As(err, &ge) && ge.status == 128 && strings.HasPrefix(ge.stderr, "fatal: unable to read config file '") && strings.HasSuffix(ge.stderr, "': No such file or directory") && !strings.Contains(ge.stderr, "\n") {
		return l // the scope's file does not exist: nothing is set in it
	}
	if err != nil {
		l.each = true
		return l
	}
	// scope NUL origin NUL name [LF value] NUL, for each value.
	fields := strings.Split(out, "\x00")
	if len(fields)%3 != 1 || fields[len(fields)-1] != "" {
		l.each = true
		return l
	}
	for i := 0; i+3 <= len(fields); i += 3 {
		e := configEntry{scope: fields[i], origin: fields[i+1]}
		name, value, found := strings.Cut(fields[i+2], "\n")
		e.value, e.noValue = value, !found
		l.vars[name] = append(l.vars[name], e)
	}
	return l
}

// canonicalKey is key as git names a variable: its section and its name
// (the parts before the first dot and after the last) in lower case,
// the subsection between them as it is.
func canonicalKey(key string) string {
	first, last := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
	if first < 0 {
		return key
	}
	return strings.ToLower(key[:first]) + key[first:last] + strings.ToLower(key[last:])
}

// output returns what "git config SCOPE [--show-scope] [--show-origin]
// --get KEY" prints, and its error: a *gitError of status 1 when key is
// not set.
func (g *gitConfigs) output(scope, key string, showScope, showOrigin bool) (string, error) {
	args := argsIf(scope)
	if showScope {
		args = append(args, "--show-scope")
	}
	if showOrigin {
		args = append(args, "--show-origin")
	}
	args = append(args, "--get", key)
	l := g.list(scope)
	if l.each {
		return git(args...)
	}
	e, err := l.last(key, args)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if showScope {
		b.WriteString(e.scope + "\t")
	}
	if showOrigin {
		// Without -z, git quotes the origin's name as it quotes a path.
		kind, name, _ := strings.Cut(e.origin, ":")
		b.WriteString(kind + ":" + cQuote(name, true) + "\t")
	}
	b.WriteString(e.value + "\n")
	return b.String(), nil
}

// last returns key's last value, which --get gives, or the error git
// config args gives when key is not set (status 1).
func (l *configList) last(key string, args []string) (configEntry, error) {
	values := l.vars[canonicalKey(key)]
	if len(values) == 0 {
		return configEntry{}, &gitError{args: args, status: 1, err: errors.New("exit status 1")}
	}
	return values[len(values)-1], nil
}

// get returns the value of key in scope; ok is false when it is not set
// (gitConfigGet, from the list).
func (g *gitConfigs) get(scope, key string) (value string, ok bool, err error) {
	if g.list(scope).each {
		return gitConfigGet(scope, key)
	}
	out, err := g.output(scope, key, false, false)
	var ge *gitError
	if errors.As(err, &ge) && ge.status == 1 {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return strings.TrimSuffix(out, "\n"), true, nil
}

// boolOutput returns what "git config SCOPE --type=bool --get KEY"
// prints, and its error; git itself reads a value other than a word
// for true or false.
func (g *gitConfigs) boolOutput(scope, key string) (string, error) {
	args := append(argsIf(scope), "--type=bool", "--get", key)
	l := g.list(scope)
	if l.each {
		return git(args...)
	}
	e, err := l.last(key, args)
	if err != nil {
		return "", err
	}
	switch v := strings.ToLower(e.value); {
	case e.noValue || v == "true" || v == "yes" || v == "on":
		return "true\n", nil
	case v == "" || v == "false" || v == "no" || v == "off":
		return "false\n", nil
	}
	return git(args...)
}

// empty reports whether scope sets no variable of section (a section
// and subsection, "merge.ipynb"), as "git config SCOPE --get-regexp
// '^merge\.ipynb\.'" finds none.
func (g *gitConfigs) empty(scope, section string) bool {
	l := g.list(scope)
	if l.each {
		out, err := git(append(argsIf(scope), "--get-regexp", `^`+strings.ReplaceAll(section, ".", `\.`)+`\.`)...)
		var ge *gitError
		return errors.As(err, &ge) && ge.status == 1 && out == ""
	}
	for name := range l.vars {
		if strings.HasPrefix(name, section+".") {
			return false
		}
	}
	return true
}

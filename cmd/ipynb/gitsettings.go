package main

import (
	"strings"

	"github.com/nbdialog/ipynb/dialog"
)

// The git configuration variables install writes, and how ipynb
// recognises its own values (of this version and of older ones) among
// the user's.

// driver is the name of the merge and diff drivers and of the filter.
const driver = "ipynb"

// A setting is one git configuration variable install sets.
type setting struct {
	key    string
	suffix string  // the value after "CMD " ("" for a value without CMD)
	value  string  // the whole value, for settings without CMD
	older  []older // suffixes older versions of install wrote
	strip  bool    // only with --strip
	tool   bool    // git difftool/mergetool -t ipynb (not set: the drivers still work)
	// missing is what goes wrong where the setting is not set (older
	// installs did not write it): status reports it, with the repair.
	missing string
}

// driverSuffix is the merge driver's value after "CMD " for an
// --outputs strategy ("" or "conflict": the default, not written).
// --text-fallback merges files that are not notebooks as git merges
// text (markers in the file, as without the driver). Every file argument
// comes after "--": %P and git's labels are values of flags, and %O %A
// %B are never read as flags whatever they are. %X and %Y are git's
// labels for the two sides (git ≥ 2.44; older git passes them as they
// are, which merge recognises, see labels.go).
//
// When the shell cannot run ipynb at all (exit 126 or 127: it was
// removed or moved after install; or it was killed, 128 and more), git
// merge-file merges %A as git does without a driver, so that a conflict
// is marked in the file: a driver that does not run would otherwise
// leave a conflict whose file is ours alone, without a marker. Git
// passes %L from 1 to 2147483647 (conflict-marker-size; 7 for a value
// it cannot read); git merge-file fails past about 10^9 (it runs out of
// memory, leaving ours alone), so the rescue passes it at most
// maxMarkerSize, the length merge writes markers at.
func driverSuffix(outputs string) string {
	return "merge" + outputsArg(outputs) + " --text-fallback --marker-size %L --path %P --ours-label %X --theirs-label %Y -- %O %A %B" + driverRescue
}

// driverRescue follows the merge driver's command (see driverSuffix).
const driverRescue = " || { s=$?; [ $s -lt 126 ] && exit $s; m=%L; [ $m -gt 1024 ] && m=1024; git merge-file -L ours -L base -L theirs --marker-size=$m -- %A %O %B; }"

// olderRescue is the rescue of installs that passed %L to git merge-file
// whatever its size.
const olderRescue = " || { s=$?; [ $s -lt 126 ] && exit $s; git merge-file -L ours -L base -L theirs --marker-size=%L -- %A %O %B; }"

// outputsArg is the merge driver's --outputs argument for a strategy,
// with its leading space ("" for the default).
func outputsArg(outputs string) string {
	if outputs != "" && outputs != dialog.OutputsConflict.String() {
		return " --outputs " + outputs
	}
	return ""
}

// olderDrivers are the merge driver's values after "CMD " that older
// versions of install wrote, for every strategy, and what is wrong with
// them.
func olderDrivers() []older {
	old := []older{{"merge --marker-size %L --path %P %O %A %B", "a notebook named -x.ipynb breaks it"}}
	for _, o := range append([]string{""}, outputStrategies()...) {
		old = append(old, older{"merge" + outputsArg(o) + " --marker-size %L --path %P --ours-label %X --theirs-label %Y -- %O %A %B",
			"it refuses files that are not notebooks, leaving a conflict without markers"},
			older{"merge" + outputsArg(o) + " --text-fallback --marker-size %L --path %P --ours-label %X --theirs-label %Y -- %O %A %B" + olderRescue,
				"when ipynb cannot run, its fallback fails for a conflict-marker-size past about 10^9, leaving a conflict without markers"})
	}
	return old
}

// An older is a value after "CMD " an older install wrote.
type older struct {
	suffix, why string
}

// The smudge filter is cat, as nbstripout's: files are checked out as
// stored, and checking out never depends on ipynb being installed
// where the repository is cloned. Git needs one, because
// filter.ipynb.required makes a missing smudge command an error of
// every checkout (git restore, stash, checkout, clone). Git runs it
// with its own shell, which has cat on every platform (Git for Windows
// ships one).
const smudgeCommand = "cat"

// innerMerge is the driver git uses for the merge of a criss-cross
// merge's bases into a virtual base (merge.ipynb.recursive). Without it
// git runs the merge driver there too, which cannot tell that merge from
// a real one: a conflict of a value without text (a tag list, a kind, a
// count) settles as ours' value with a record, and the outer merge then
// sees one branch unchanged from that base and takes the other branch's
// resolution cleanly. Git's binary driver makes the bases' own common
// ancestor the virtual base, against which both resolutions are changes,
// and so a conflict of the outer merge, as git's text merge makes it.
const innerMerge = "binary"

// settings are written in this order and removed in the reverse one, so
// that an install or uninstall cut short never leaves a clean filter
// required without its smudge filter.
var settings = []setting{
	{key: "merge.ipynb.name", value: "notebooks merged cell by cell (ipynb)"},
	{key: "merge.ipynb.driver", suffix: driverSuffix(""), older: olderDrivers()},
	{key: "merge.ipynb.recursive", value: innerMerge, missing: "a criss-cross merge (two merge bases) can take one branch's resolution of a conflict over the other's, silently"},
	{key: "diff.ipynb.command", suffix: "diff --", older: []older{{"diff", "a notebook named -x.ipynb breaks it"}}},
	{key: "diff.ipynb.textconv", suffix: "diff --textconv --", older: []older{{"diff --textconv", "a notebook named -x.ipynb breaks it"}}},
	{key: "difftool.ipynb.cmd", suffix: difftoolSuffix, tool: true},
	{key: "mergetool.ipynb.cmd", suffix: mergetoolSuffix, tool: true},
	{key: "mergetool.ipynb.trustExitCode", value: "true", tool: true},
	{key: "filter.ipynb.smudge", value: smudgeCommand, strip: true},
	{key: "filter.ipynb.clean", suffix: "strip --filter -", strip: true, older: []older{{"strip -", "git blame fails: git cleans the textconv's text, which strip - refuses"}}},
	{key: "filter.ipynb.required", value: "true", strip: true},
}

// git difftool -t ipynb and git mergetool -t ipynb run ipynb web (which
// runs ipynb-web, found beside ipynb or on the PATH: gittools.go) with
// the files git names in its shell variables, quoted for the shell git
// runs them with: the diff page of $LOCAL and $REMOTE, and the merge page
// of $BASE, $LOCAL and $REMOTE saved into $MERGED; --open opens each in
// the browser ($BROWSER, else the desktop's). The merge page exits 0
// only when every conflict is resolved and saved, which git takes as
// resolved (trustExitCode): closed unsaved, the file stays unmerged.
const (
	difftoolSuffix  = `web --open -- "$LOCAL" "$REMOTE"`
	mergetoolSuffix = `web --open --merge -o "$MERGED" -- "$BASE" "$LOCAL" "$REMOTE"`
)

// outputStrategies are the names --outputs takes, as the library
// spells them.
func outputStrategies() []string {
	var names []string
	for s := dialog.OutputsConflict; s <= dialog.OutputsClear; s++ {
		names = append(names, s.String())
	}
	return names
}

// settingFor returns the setting of key.
func settingFor(key string) setting {
	for _, s := range settings {
		if s.key == key {
			return s
		}
	}
	panic("ipynb: no setting " + key)
}

// valueFor is the value install writes for s with the command cmd and
// the merge driver's --outputs strategy.
func (s setting) valueFor(cmd, outputs string) string {
	switch {
	case s.suffix == "":
		return s.value
	case s.key == "merge.ipynb.driver":
		return cmd + " " + driverSuffix(outputs)
	}
	return cmd + " " + s.suffix
}

// ours reports whether v is a value install writes for s, with any
// command (and, for the merge driver, any --outputs strategy), or one
// an older install wrote.
func (s setting) ours(v string) bool {
	_, ok := s.parse(v)
	return ok
}

// parse returns the --outputs strategy of v, a value of s ("" for none,
// or a setting without one), and whether v is ours.
func (s setting) parse(v string) (outputs string, ok bool) {
	if s.suffix == "" {
		return "", v == s.value
	}
	suffixes := []string{s.suffix}
	for _, o := range s.older {
		suffixes = append(suffixes, o.suffix)
	}
	if s.key == "merge.ipynb.driver" {
		for _, o := range outputStrategies() {
			suffixes = append(suffixes, driverSuffix(o))
		}
	}
	for _, suf := range suffixes {
		cmd, found := strings.CutSuffix(v, " "+suf)
		if found && cmd != "" && commandWord(cmd) != "" {
			if rest, found := strings.CutPrefix(suf, "merge --outputs "); found {
				outputs, _, _ = strings.Cut(rest, " ")
			}
			return outputs, true
		}
	}
	return "", false
}

// outdated returns what is wrong with v when it is a value an older
// install wrote for s ("" for a value of this version, or not ours; an
// older install's value is ours, and install replaces it).
func (s setting) outdated(v string) string {
	if !s.ours(v) {
		return ""
	}
	for _, o := range s.older {
		if strings.HasSuffix(v, " "+o.suffix) {
			return o.why
		}
	}
	return ""
}

package main

// ipynb merge: the three-way merge of notebooks as git's merge driver, its
// --outputs strategy, and the lines naming its conflicts.

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/atomicfile"
	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

var mergeCmd = &command{
	name:    "merge",
	summary: "merge notebooks three-way, cell by cell (git's merge driver)",
	doc: `Merges the changes OURS and THEIRS made to BASE, cell by cell: cells
are matched by id (by content in notebooks without ids), every change
made on one side only is applied, and both sides' edits of one cell's
text are merged line by line, metadata key by key (re-indenting or
reordering keys is no change). What cannot be merged is marked inside the
cell's text (<<<<<<< ours ... ======= ... >>>>>>> theirs), so the file
written is always a valid notebook; outputs both sides changed go between
marker outputs, cells both sides put where they deleted others between
marker cells; a cell deleted on one side and edited on the other is kept
with markers saying so; a value with no text (kind, metadata, attachment,
execution count, id) keeps ours' and is recorded in the cell's metadata
under "ipynb_conflicts" with both sides' values (delete the record to
resolve it). "ipynb check" reports all of these as "conflict". The labels are git's names for the
sides (--ours-label %X --theirs-label %Y, which git 2.44 and later
fill in); not given, or left as "%X" and "%Y" by older git: HEAD and the
branch "git merge" merges, where git names it, else ours and theirs
(fix labels by the same rule). Outputs and execution counts that
both sides changed follow --outputs.

An empty BASE (git gives one when both sides added the file) makes it a
two-way merge: cells on both sides are kept once, and a cell the sides
hold in two versions is marked as a conflict.

The result is written over OURS, atomically (and only if OURS is still,
right before the rename, the file read), in OURS' own style (only
the cells the merge changed differ from it), as git's merge driver
protocol wants (merge.ipynb.driver = ipynb merge ... -- %O %A %B, see
"ipynb git install"); -o writes it elsewhere, "-o -" to standard output.
The result keeps OURS' format: an nbformat 3 OURS (cells in worksheets,
without ids; cells are matched by content) is merged and written as
nbformat 3, never upgraded, also when THEIRS is nbformat 4 (a note says
so; what nbformat 3 has no place for, such as an attachment, is refused,
exit 2: upgrade OURS first). One exception, as git's own merge: OURS the
same as BASE and THEIRS moved to nbformat 4 gives THEIRS' format, with a
note. Conflict records of nbformat 3 cells name the members as nbformat 4
does (/source, /execution_count), their values as the nbformat 3 files
hold them (outputs as pyout, "text", "png", ...; a code cell's language).
nbformat 2 is refused: upgrade it ("ipynb fmt --upgrade").

With --text-fallback (as git's merge driver has it), inputs that cannot
be merged as notebooks (not JSON, not a notebook, nbformat 2) are merged
line by line as git merges text (git merge-file, with the repository's
merge.conflictStyle): the conflicts marked in the text, exit 1, as git
leaves such a file without the driver.

Exit status: 0 merged cleanly; 1 conflicts remain (listed on standard
error; the file written is still a valid notebook), or OURS changed while
the merge ran (left alone, nothing written); 2 an input cannot be
read or is not a notebook (nothing is written; the reason, with its
line:column, on standard error).`,
	usage: "[--outputs STRATEGY] [--marker-size N] [--text-fallback] [-o FILE|-] BASE OURS THEIRS",
}

func init() { mergeCmd.run = runMerge }

// strategyValue is a flag holding an output strategy's name, checked
// when the flag is parsed (a usage error naming the flag otherwise).
type strategyValue struct {
	name string
	set  bool // given on the command line
}

func (v *strategyValue) String() string { return v.name }

func (v *strategyValue) Set(s string) error {
	if _, err := parseStrategy(s); err != nil {
		return err
	}
	v.name, v.set = s, true
	return nil
}

// strategies are the output strategies, by the names String gives them.
var strategies = []dialog.OutputStrategy{dialog.OutputsConflict, dialog.OutputsOurs, dialog.OutputsTheirs, dialog.OutputsClear}

// parseStrategy returns the output strategy named name.
func parseStrategy(name string) (dialog.OutputStrategy, error) {
	names := make([]string, len(strategies))
	for i, st := range strategies {
		if st.String() == name {
			return st, nil
		}
		names[i] = st.String()
	}
	return 0, fmt.Errorf("unknown output strategy %q (want %s)", name, strings.Join(names, ", "))
}

// outputsStrategy is the --outputs flag of merge and fix.
type outputsStrategy struct{ v *strategyValue }

func outputsFlag(fs *flag.FlagSet) outputsStrategy {
	v := &strategyValue{name: dialog.OutputsConflict.String()}
	fs.Var(v, "outputs", "what to keep of outputs and execution counts both sides changed: conflict (both, between marker outputs, reported), ours, theirs, or clear")
	return outputsStrategy{v}
}

// options returns the merge options of the flag.
func (s outputsStrategy) options() (mergeOptions, error) {
	st, err := parseStrategy(s.v.name)
	if err != nil {
		return mergeOptions{}, fmt.Errorf("--outputs: %w", err)
	}
	return mergeOptions{Outputs: st}, nil
}

// mergeOptions are the library's merge options.
type mergeOptions = dialog.MergeOptions

// mergeConflict is one conflict the merge left.
type mergeConflict = dialog.Conflict

// merged is a merge's result.
type merged struct {
	data      []byte
	conflicts []mergeConflict
	// note, if not "", says how the result's format differs from ours'
	// or theirs' (printed by merge on standard error).
	note string
}

// errOldFormat: merge and fix handle version 3 and 4 notebooks.
var errOldFormat = errors.New("merging handles version 3 and 4 notebooks (upgrade with 'ipynb fmt --upgrade')")

// mergeBytes merges three notebook texts with the library. An input
// that does not read is a *convert.Error (Op "merge"). The result keeps
// ours' major version (a merge driver should not change a file's format
// on the way): a version 3 ours stays version 3, unless ours is base as
// it is and theirs moved to version 4 (the result is then theirs' format,
// as git's own merge leaves it, and note says so). Ours before version 3
// is refused (upgrading first is one command).
func mergeBytes(base, ours, theirs []byte, opt mergeOptions) (*merged, error) {
	// Only ours' format is kept: base and theirs may be older (the
	// library reads them as version 4). What is not a notebook the
	// library reports.
	om, _ := majorVersionOf(ours)
	if om > 0 && om < 3 {
		return nil, fmt.Errorf("nbformat %d: %w", om, errOldFormat)
	}
	tm, _ := majorVersionOf(theirs)
	data, conflicts, err := convert.Merge(base, ours, theirs, opt)
	if err != nil {
		return nil, err
	}
	m := &merged{data: data, conflicts: conflicts}
	if om == 3 && tm > 3 {
		m.note = formatNote(tm, data)
	}
	return m, nil
}

// majorVersionOf returns the top-level "nbformat" of a notebook text (its
// last, as readers take it), read in one pass without parsing or
// allocating; ok is false where there is no such integer.
func majorVersionOf(data []byte) (int, bool) {
	raw, ok := jsonvalue.MemberRaw(data, "nbformat")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(string(raw))
	return n, err == nil && n >= 0
}

// conflictSummary is one line naming the conflicts; ids are the cell
// ids the inputs hold (others were made up when reading them).
func conflictSummary(cs []mergeConflict, ids map[string]bool) string {
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		parts = append(parts, describeConflict(c, ids))
	}
	n := "conflicts"
	if len(cs) == 1 {
		n = "conflict"
	}
	return fmt.Sprintf("%d %s left (marked in the cells): %s", len(cs), n, strings.Join(parts, "; "))
}

// idsIn returns the ids of the conflicts that are in one of the texts.
func idsIn(cs []mergeConflict, texts ...[]byte) map[string]bool {
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	return realIDs(ids, texts...)
}

// describeConflict names a conflict's cell by its id, or, where the
// notebooks have no ids, by its kind and first line.
func describeConflict(c mergeConflict, ids map[string]bool) string {
	m := c.Ours
	if m == nil {
		m = c.Theirs
	}
	if m == nil {
		m = c.Base
	}
	what := quoteText(c.What)
	switch {
	case c.ID == "" || m == nil:
		return what
	case ids[c.ID]:
		return "cell " + c.ID + ": " + what
	}
	return fmt.Sprintf("%s cell %s: %s", m.Kind, quoteUnits(leadLine(m.Content, 40)), what)
}

func runMerge(e *env, args []string) int {
	fs := mergeCmd.flags(e)
	strategy := outputsFlag(fs)
	size := boundedInt(fs, "marker-size", 7, 1, math.MaxInt32, fmt.Sprintf("length of the conflict markers (git passes %%L, its conflict-marker-size; markers are written at most %d long)", maxMarkerSize))
	out := fs.String("o", "", "write the result to this file (- for standard output) instead of over OURS")
	name := fs.String("path", "", "the path of the file being merged, to name it in messages (git passes %P)")
	oursLabel := fs.String("ours-label", "", "the label after <<<<<<< markers (git passes %X, its name for ours; default: HEAD when git merge names theirs, else ours)")
	theirsLabel := fs.String("theirs-label", "", "the label after >>>>>>> markers (git passes %Y, its name for theirs; default: the branch git merge merges, else theirs)")
	textFallback := fs.Bool("text-fallback", false, "merge inputs that are not notebooks ipynb merges line by line, as git merges text (git merge-file), instead of refusing them (git's merge driver: ipynb git install writes it)")
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	if fs.NArg() != 3 {
		fs.Usage()
		return exitError
	}
	opt, err := strategy.options()
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb merge: %v\n", err)
		return exitError
	}
	opt.MarkerSize = min(*size, maxMarkerSize)
	opt.OursLabel, opt.TheirsLabel = mergeLabels(*oursLabel, *theirsLabel, os.Environ())
	paths := fs.Args()
	roles := []string{"base", "ours", "theirs"}
	m := &mergeRun{e: e, paths: paths, name: *name, out: *out, opt: opt}
	defer func() {
		for i := len(m.memory) - 1; i >= 0; i-- {
			m.memory[i]()
		}
	}()
	readInput := func(i int) bool {
		data, st, err := e.readStamped(input{path: paths[i]})
		if i == 1 {
			m.stamp = st
		}
		m.keep[i] = st == nil
		if err != nil {
			fmt.Fprintln(e.stderr, readFailure(label(paths[i], *name, roles[i]), err))
			return false
		}
		m.texts[i] = data
		return true
	}
	// Base and ours first: a three-way merge reads theirs only once base
	// is reduced to what the merge needs of it (see mergeRun.threeWay).
	if !readInput(0) || !readInput(1) {
		return exitError
	}
	m.memory = append(m.memory, mergeMemory(max(len(m.texts[0]), len(m.texts[1]))))
	var res *merged
	if len(bytes.TrimSpace(m.texts[0])) > 0 {
		st, failed := m.threeWay()
		if failed == nil {
			return st
		}
		err = failed.err
	} else {
		// No base: git gives an empty one when both sides added the
		// file. Every cell is then added on both sides.
		if !readInput(2) {
			return exitError
		}
		m.memory = append(m.memory, mergeMemory(max(len(m.texts[1]), len(m.texts[2]))))
		res, err = mergeTwoWay(m.texts[1], m.texts[2], opt)
		if err == nil {
			err = checkMerged(res.data, m.texts[1])
		}
	}
	texts := &m.texts
	var ids map[string]bool
	if err == nil && len(res.conflicts) > 0 {
		ids = idsIn(res.conflicts, texts[1], texts[2])
	}
	textConflicts := 0
	if err != nil {
		if mie := (*convert.Error)(nil); errors.As(err, &mie) && mie.Op == "merge" {
			i := max(slices.Index(roles, mie.Input), 0)
			printError(e.stderr, label(paths[i], *name, roles[i]), located(mie.Err, nil))
		} else {
			fmt.Fprintf(e.stderr, "%s: %s\n", label(paths[1], *name, ""), strings.TrimPrefix(err.Error(), "convert: "))
		}
		if !*textFallback {
			return exitError
		}
		for _, i := range []int{0, 2} {
			if texts[i] != nil {
				continue
			}
			if texts[i], _, err = e.readStamped(input{path: paths[i]}); err != nil {
				fmt.Fprintln(e.stderr, readFailure(label(paths[i], *name, roles[i]), err))
				return exitError
			}
		}
		data, n, err := mergeAsText(texts[0], texts[1], texts[2], *size, opt.OursLabel, opt.TheirsLabel)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v; nothing merged, the file is ours as it was%s\n", label(paths[1], *name, ""), err, keptSidesHint(*name))
			return exitError
		}
		fmt.Fprintf(e.stderr, "%s: merged line by line instead, as git merges text\n", label(paths[1], *name, ""))
		res, textConflicts = &merged{data: data}, n
	}
	dest := paths[1]
	switch *out {
	case "-":
		e.stdout.Write(res.data)
	case "":
		switch {
		case bytes.Equal(res.data, texts[1]):
			// The merge is ours: nothing to write.
		case m.stamp == nil:
			e.stdout.Write(res.data) // OURS is a pipe
		default:
			if st := replaceRead(e, dest, res.data, m.stamp); st != exitOK {
				return st // nothing written: left alone (1) or not writable (2)
			}
		}
	default:
		dest = *out
		if _, err := atomicfile.Replace(dest, res.data, atomicfile.Options{}); err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", quoteName(dest), pathError(err))
			return exitError
		}
	}
	if res.note != "" {
		fmt.Fprintf(e.stderr, "%s: note: %s\n", label(paths[1], *name, ""), res.note)
	}
	if textConflicts > 0 {
		fmt.Fprintf(e.stderr, "%s: %s\n", label(paths[1], *name, ""), textConflictSummary(textConflicts))
		return exitFindings
	}
	if len(res.conflicts) > 0 {
		fmt.Fprintf(e.stderr, "%s: %s\n", label(paths[1], *name, ""), conflictSummary(res.conflicts, ids))
		return exitFindings
	}
	return exitOK
}

// label names an input in messages: the file, or with --path (git's
// temporary files have meaningless names) the merged path and the role;
// names are quoted as every name printed is (quoteName).
func label(file, path, role string) string {
	switch {
	case path == "":
		return quoteName(file)
	case role == "":
		return quoteName(path)
	}
	return quoteName(path) + " (" + role + ")"
}

package main

// ipynb check: each notebook's status (same, diff, conflict, …), its problems
// placed by line, column and pointer.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/nbformat"
)

var checkCmd = &command{
	name:    "check",
	summary: "report whether notebooks are valid and round-trip exactly",
	doc: `Prints one line per notebook, STATUS PATH [DETAIL], then a summary:
  same     it parses, is valid, and both the notebook and the dialog round
           trip give back its bytes
  diff     a round trip would change it (the first differing line is named)
  conflict it holds a conflict a merge left unresolved (conflict markers
           in a cell's text or outputs, marker cells, or a conflict
           record in metadata: see "ipynb merge"), one per line with its
           place and cell
  invalid  it does not match its nbformat schema (one problem per line,
           with its JSON Pointer)
  error    it cannot be read (why, with line and column)
Exit status 0 only if every notebook is same.`,
	usage: "[--json] [--follow] [-v] PATH...",
}

func init() { checkCmd.run = runCheck }

// problem is one schema problem: where (line and column in the file, 1-based,
// columns in bytes; a JSON Pointer) and what.
type problem struct {
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Pointer string `json:"pointer"`
	Keyword string `json:"keyword"`
	Message string `json:"message"`
}

type checkResult struct {
	Path   string `json:"path"`
	Status string `json:"status"` // same, diff, conflict, invalid, error
	// Line and Column place Detail in the file where it has a place: the
	// first differing line of a diff, a syntax error.
	Line     int       `json:"line,omitempty"`
	Column   int       `json:"column,omitempty"`
	Detail   string    `json:"detail,omitempty"`
	Problems []problem `json:"problems,omitempty"`
	io       bool      // an I/O error, not a finding
}

// text is the result's line: STATUS PATH, with the place and detail as
// PATH:LINE:COL: DETAIL where there is one.
func (r *checkResult) text() string {
	var b strings.Builder
	b.WriteString(r.Status)
	b.WriteByte(' ')
	b.WriteString(place(r.Path, r.Line, r.Column))
	switch {
	case r.Detail == "":
	case r.Line > 0:
		b.WriteString(": ")
		b.WriteString(r.Detail)
	default:
		b.WriteByte(' ')
		b.WriteString(r.Detail)
	}
	return b.String()
}

// place writes path:line:col (the form editors and terminals link),
// leaving out what is not known; the path is quoted if it must be
// (quoteName).
func place(path string, line, col int) string {
	path = quoteName(path)
	switch {
	case line > 0 && col > 0:
		return fmt.Sprintf("%s:%d:%d", path, line, col)
	case line > 0:
		return fmt.Sprintf("%s:%d", path, line)
	}
	return path
}

func runCheck(e *env, args []string) int {
	fs := checkCmd.flags(e)
	jsonOut := fs.Bool("json", false, "print one JSON object per notebook, one per line, then a summary line")
	batch := batchFlags(fs)
	walk := walkFlags(fs, "check", nil)
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	ins, ok, st := batchInputs(e, fs, batch, walk)
	if st >= 0 {
		return st
	}
	status := exitOK
	if !ok {
		status = exitError
	}
	counts := map[string]int{}
	var jsonLine bytes.Buffer
	enc := json.NewEncoder(&jsonLine)
	enc.SetEscapeHTML(false)
	encode := func(v any) {
		jsonLine.Reset()
		enc.Encode(v)
		s := jsonLine.String()
		if e.stdoutTTY {
			s = termSafeJSON(s) // the same JSON, nothing a terminal obeys
		}
		fmt.Fprint(e.stdout, s)
	}
	prog := newProgress(e, len(ins))
	defer batchGC(ins, batch.jobs)()
	forEach(len(ins), batch.jobs, memoryBudget,
		func(i int) int64 { return cost(ins[i]) },
		func(i int) checkResult { return check(e, ins[i]) },
		func(i int, r checkResult) {
			prog.done()
			defer prog.step(i, r.Path)
			counts[r.Status]++
			if r.io {
				status = exitError
				fmt.Fprintf(e.stderr, "%s: %s\n", quoteName(r.Path), r.Detail)
			} else if r.Status != "same" && status == exitOK {
				status = exitFindings
			}
			if *jsonOut {
				if r.Path == "-" {
					r.Path = stdinName
				}
				encode(r)
				return
			}
			fmt.Fprintln(e.stdout, r.text())
			for _, p := range r.Problems {
				fmt.Fprintf(e.stdout, "  %s: %s: %s: %s\n", place(r.Path, p.Line, p.Column), displayPointer(p.Pointer), p.Keyword, p.Message)
			}
		})
	prog.done()
	if len(ins) == 0 && !ok {
		// Nothing was checked (a missing path, a folder without
		// notebooks): the error says so, a summary of zeros would not.
		return status
	}
	if *jsonOut {
		encode(map[string]any{"summary": map[string]int{
			"same": counts["same"], "diff": counts["diff"], "conflict": counts["conflict"], "invalid": counts["invalid"], "error": counts["error"]}})
	} else {
		conflicts := ""
		if n := counts["conflict"]; n > 0 {
			conflicts = fmt.Sprintf("%d conflict, ", n)
		}
		fmt.Fprintf(e.stdout, "%d same, %d diff, %s%d invalid, %d error\n", counts["same"], counts["diff"], conflicts, counts["invalid"], counts["error"])
	}
	return status
}

// displayPointer is a JSON Pointer as printed: "(top level)" for the
// root, quoted (quoteName) when a key in it holds control characters.
func displayPointer(p string) string {
	if p == "" {
		return "(top level)"
	}
	return quoteName(p)
}

// check classifies one notebook.
func check(e *env, in input) checkResult {
	r := checkResult{Path: in.path}
	data, err := e.read(in)
	if se := refusedSyntax(err); se != nil {
		// A stream whose bytes are not JSON: as a file's.
		r.Status, r.Line, r.Column, r.Detail = "error", se.Line, se.Column, se.Msg
		return r
	}
	if err != nil {
		r.Status, r.Detail, r.io = "error", pathError(err).Error(), true
		return r
	}
	nb, err := unmarshalOwned(data)
	if err != nil {
		r.Status = "error"
		var se *nbformat.SyntaxError
		var fe *nbformat.FormatError
		switch {
		case errors.As(err, &se) && se.Line > 0:
			r.Line, r.Column, r.Detail = se.Line, se.Column, se.Msg+markerHint(data, se.Line)
		case se != nil && se.Offset >= 0:
			// A syntax error placed by its offset only.
			r.Line, r.Column = jsontree.Position(data, se.Offset)
			r.Detail = se.Msg + markerHint(data, r.Line)
		case se != nil:
			r.Detail = se.Msg
		default:
			r.Detail = strings.TrimPrefix(describe(r.Path, err), quoteName(r.Path)+": ")
			if errors.As(err, &fe) {
				r.Line, r.Column = locate(data, fe.Pointer)
			}
		}
		return r
	}
	if probs := nbformat.Problems(nbformat.Validate(nb)); len(probs) > 0 {
		r.Status = "invalid"
		r.Detail = fmt.Sprintf("(%d problems)", len(probs))
		if len(probs) == 1 {
			r.Detail = "(1 problem)"
		}
		for _, p := range probs {
			r.Problems = append(r.Problems, problem{Line: p.Line, Column: p.Column, Pointer: string(p.Pointer), Keyword: p.Keyword, Message: p.Msg})
		}
		return r
	}
	if (nb.Nbformat == 4 || nb.Nbformat == 3) && mayHoldConflicts(data) {
		marks := findConflictsV3(data) // (none unless version 3)
		if nb.Nbformat == 4 {
			marks = findConflicts(nb)
		}
		if len(marks) > 0 {
			conflictResult(&r, data, marks)
			return r
		}
	}
	// Marshal gives back exactly the bytes read unless the notebook was
	// edited (Edited walks the typed values, not the text).
	if nb.Edited() {
		out := &compareWriter{want: data}
		if err := (nbformat.MarshalOptions{}).MarshalTo(out, nb); err != nil {
			r.Status, r.Detail = "error", strings.TrimPrefix(err.Error(), "nbformat: ")
			return r
		}
		r.Status, r.Line, r.Detail = "diff", out.line(), "the notebook round trip changes it"
		return r
	}
	// The dialog's output is compared as it is written, never held (see
	// compareWriter).
	out := &compareWriter{want: data}
	d, err := convert.ToDialog(nb, convert.ReadOptions{})
	var back *nbformat.Notebook
	if err == nil {
		back, err = convert.ToNotebook(d, convert.WriteOptions{})
	}
	if err == nil {
		err = (nbformat.MarshalOptions{}).MarshalTo(out, back)
	}
	if err != nil {
		r.Status, r.Detail = "error", strings.TrimPrefix(err.Error(), "convert: ")
		return r
	}
	if !out.same() {
		r.Status, r.Line, r.Detail = "diff", out.line(), "the dialog round trip changes it"
		return r
	}
	r.Status = "same"
	return r
}

// maxListed bounds the conflicts of one notebook listed (and located).
const maxListed = 100

// conflictResult makes r the result of a notebook holding conflicts:
// status conflict, each conflict placed by line and column, and its
// pointer (keyword "conflict"), the first one's place on the status line.
func conflictResult(r *checkResult, data []byte, marks []conflictMark) {
	r.Status = "conflict"
	r.Detail = fmt.Sprintf("(%d conflicts)", len(marks))
	if len(marks) == 1 {
		r.Detail = "(1 conflict)"
	}
	for i, m := range marks {
		if i == maxListed {
			r.Problems = append(r.Problems, problem{Keyword: "conflict", Message: fmt.Sprintf("and %d more", len(marks)-maxListed)})
			break
		}
		line, col := locate(data, m.pointer)
		r.Problems = append(r.Problems, problem{Line: line, Column: col, Pointer: string(m.pointer), Keyword: "conflict", Message: m.msg})
	}
}

// markerHint is what check adds to a syntax error at line (1-based) of
// data when that line is a git conflict marker (git merged the notebook
// as text): how to repair it; "" otherwise.
func markerHint(data []byte, line int) string {
	for range line - 1 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return ""
		}
		data = data[i+1:]
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		data = data[:i]
	}
	if kind, _, _ := markerKind(data, 0); kind == 0 {
		return ""
	}
	return " (a git conflict marker: ipynb fix merges the notebook's conflicts cell by cell)"
}

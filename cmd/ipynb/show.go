package main

// ipynb show: a dialog's messages one row each, and reading the one notebook
// show and md take.

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

var showCmd = &command{
	name:    "show",
	summary: "print a notebook as a dialog, one row per message",
	doc: `Prints the dialog's name, then one row per message, id:kind:content
(kind n, p, c or r; newlines shown as \n), then " ⇒ reply(N)" for a
prompt's reply of N characters, which follows on a row of its own
starting "> ", or " ⇒ out(N B)" for N bytes of outputs (as compact
JSON). A row longer than --width is cut in its content ("…"), the mark
kept. --json gives each message's "outputs" (how many) and
"output_bytes" (the N of out(N B)). On a terminal, control characters in the content are
shown, not obeyed: ESC as ␛, CR as ␍ (C0 controls as their Unicode control
pictures), C1 controls and bidi overrides as <U+XXXX>; --json escapes them
as \uXXXX.`,
	usage: "[--width N] [--rows N] [--json] FILE",
}

func init() { showCmd.run = runShow }

// readDialog reads the one FILE argument of show and md (command cmd) as
// a dialog, and returns it with the notebook read and the bytes it was
// read from (which the notebook keeps).
func readDialog(e *env, cmd string, args []string) (*dialog.Dialog, *nbformat.Notebook, []byte, int) {
	if len(args) != 1 {
		what := "no FILE given"
		if len(args) > 1 {
			what = fmt.Sprintf("%d FILEs given", len(args))
		}
		fmt.Fprintf(e.stderr, "ipynb %s: %s; it takes exactly one notebook (or - for standard input)\nRun 'ipynb %s --help' for usage.\n", cmd, what, cmd)
		return nil, nil, nil, exitError
	}
	in := input{path: args[0]}
	if fi, err := os.Stat(in.path); err == nil && fi.IsDir() {
		fmt.Fprintf(e.stderr, "%s: is a folder; ipynb %s takes one notebook\n", quoteName(in.path), cmd)
		return nil, nil, nil, exitError
	}
	data, err := e.read(in)
	if refusedSyntax(err) != nil {
		fmt.Fprintln(e.stderr, readFailure(quoteName(in.path), err))
		return nil, nil, nil, exitError
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %s\n", quoteName(in.path), readError(in.path, err))
		return nil, nil, nil, exitError
	}
	// The notebook keeps the bytes read (no second copy of the file);
	// the dialog's outputs stay in it until looked at.
	nb, err := unmarshalOwned(data)
	var d *dialog.Dialog
	if err == nil {
		var f *convert.File
		if f, err = convert.ToDialog(nb, convert.ReadOptions{}); err == nil {
			d = f.Dialog
		}
	}
	if err != nil {
		// Not a notebook: show and md cannot do their work (2), as
		// merge, diff and fix; check, fmt and strip report such a file
		// among the others (1).
		fmt.Fprintln(e.stderr, describe(in.path, err))
		return nil, nil, nil, exitError
	}
	name := in.path
	if !in.stdin() {
		name = strings.TrimSuffix(baseName(in.path), ".ipynb")
	}
	d.Name = quoteName(name) // one line, as every name printed
	return d, nb, data, -1
}

// readError is the message of an error reading path, without the
// operation and path the line names already ("open x: ", "read x: ").
func readError(path string, err error) string {
	msg := pathError(err).Error()
	for _, op := range []string{"open ", "read ", "stat "} {
		msg = strings.TrimPrefix(msg, op+path+": ")
	}
	return msg
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

func runShow(e *env, args []string) int {
	fs := showCmd.flags(e)
	width := boundedInt(fs, "width", 120, 0, maxWidth, "characters per row (0: no limit)")
	rows := boundedInt(fs, "rows", 0, 0, maxRows, "messages to show (0: all)")
	jsonOut := fs.Bool("json", false, "print the messages as JSON")
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	d, _, _, st := readDialog(e, "show", fs.Args())
	if st >= 0 {
		return st
	}
	if *jsonOut {
		type row struct {
			ID      unitString `json:"id"`
			Kind    string     `json:"kind"`
			Content unitString `json:"content"`
			Reply   unitString `json:"reply,omitempty"`
			Outputs int        `json:"outputs"`      // how many
			Bytes   int        `json:"output_bytes"` // their size as compact JSON, as the row's out(N B)
		}
		out := []row{}
		for i, m := range d.Messages {
			if *rows > 0 && i == *rows {
				break
			}
			out = append(out, row{ID: unitString(m.ID), Kind: string(m.Kind), Content: unitString(m.Content), Reply: unitString(m.Reply()), Outputs: len(m.Outputs), Bytes: outputBytes(m.Outputs)})
		}
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetIndent("", " ")
		enc.SetEscapeHTML(false)
		enc.Encode(out)
		s := b.String()
		if e.stdoutTTY {
			s = termSafeJSON(s)
		}
		fmt.Fprint(e.stdout, s)
		return exitOK
	}
	for _, m := range d.Messages {
		// A row is cut by characters: a surrogate's escape is what it
		// shows (codeunits.go), never its bytes cut or three U+FFFD.
		m.Content = unitText(m.Content)
	}
	// Outputs are sized without being decoded (dialog.OutputSource.Size).
	fmt.Fprint(e.stdout, e.forTerminal(d.Summary(*width, *rows)))
	return exitOK
}

// outputBytes is the size of outputs as compact JSON (encoding/json's),
// as show's rows count it (dialog.Message.Preview), 0 for none: the size
// an output read from a file tells (dialog.OutputSource.Size), else its
// encoding's.
func outputBytes(outs []dialog.Output) int {
	if len(outs) == 0 {
		return 0
	}
	total := 1 // "[", then each output and a comma or "]"
	for _, o := range outs {
		if s := o.Source(); s != nil {
			if n, ok := s.Size(); ok {
				total += n + 1
				continue
			}
		}
		b, err := json.Marshal(o)
		if err != nil {
			return 0
		}
		total += len(b) + 1
	}
	return total
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A version 3 file whose conflict has no base section: fix merges two-way
// from the sides' upgrades, which drop a code cell's language and a
// heading's level. Where ours changed the kind of theirs' code cell or
// heading, the cell keeps ours' kind and its kind record holds theirs'
// outputs and count; theirs' language and level were in no file (seed
// 26000380 of the fix path: ours made a code cell markdown, theirs' cell
// kept "language": "python"). Each is recorded as a three-way version 3
// merge records it ({"pointer": "/language", "theirs": …}).
func TestFixTwoWayV3KindRecordsTheirsLanguageAndLevel(t *testing.T) {
	for _, c := range []struct{ name, ours, theirs, pointer, want string }{{
		name:    "code made markdown",
		ours:    `{"cell_type": "markdown", "metadata": {}, "source": ["x = 1"]}`,
		theirs:  `{"cell_type": "code", "collapsed": false, "input": ["x = 1"], "language": "julia", "metadata": {}, "outputs": [], "prompt_number": 4}`,
		pointer: "/language", want: "julia",
	}, {
		name:    "heading made raw",
		ours:    `{"cell_type": "raw", "metadata": {}, "source": ["T"]}`,
		theirs:  `{"cell_type": "heading", "level": 3, "metadata": {}, "source": ["T"]}`,
		pointer: "/level", want: "3",
	}} {
		t.Run(c.name, func(t *testing.T) {
			marked := "{\n \"metadata\": {\"name\": \"\"},\n \"nbformat\": 3,\n \"nbformat_minor\": 0,\n \"worksheets\": [{\"cells\": [\n" +
				"<<<<<<< ours\n" + c.ours + "\n=======\n" + c.theirs + "\n>>>>>>> theirs\n" + "], \"metadata\": {}}]\n}\n"
			dir := t.TempDir()
			p := filepath.Join(dir, "nb.ipynb")
			if err := os.WriteFile(p, []byte(marked), 0o644); err != nil {
				t.Fatal(err)
			}
			r := ipynb(t, dir, "", "fix", p)
			if r.code != 1 {
				t.Fatalf("exit %d, want 1 (a kind conflict left): %s", r.code, r.stderr)
			}
			nb := decoded(t, p)
			if nb["nbformat"] != 3.0 {
				t.Fatalf("nbformat %v, want 3", nb["nbformat"])
			}
			cell := nb["worksheets"].([]any)[0].(map[string]any)["cells"].([]any)[0].(map[string]any)
			recs, _ := cell["metadata"].(map[string]any)["ipynb_conflicts"].([]any)
			found := false
			for _, rec := range recs {
				m := rec.(map[string]any)
				if m["pointer"] == c.pointer {
					found = strings.Trim(fmt.Sprint(m["theirs"]), `"`) == c.want
				}
			}
			if !found {
				t.Errorf("no record %s with theirs' %s; the cell:\n%v", c.pointer, c.want, cell)
			}
		})
	}
}

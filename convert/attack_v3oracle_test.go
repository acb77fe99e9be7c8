package convert_test

// Tests that a dialog read from a version 2 or 3 notebook holds what the dialog
// read from Python nbformat's upgrade of it holds.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// pyUpgrade writes, for each notebook IN/NAME that Python nbformat reads
// as version 4 (its upgrade of versions 2 and 3), OUT/NAME: the upgrade
// as nbformat.writes writes it, cell ids left out (the upgrade makes
// random ones; a dialog derives its own) and nbformat_minor 4, the
// version without ids.
const pyUpgrade = `
import sys, os, json, nbformat
src, out = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(src)):
    try:
        with open(os.path.join(src, name), encoding='utf-8') as f:
            nb = nbformat.read(f, as_version=4)
        for c in nb.cells:
            c.pop('id', None)
        nb.nbformat_minor = 4
        text = nbformat.writes(nb, version=4)
    except Exception as e:
        continue
    with open(os.path.join(out, name), 'w', encoding='utf-8') as f:
        f.write(text)
`

// TestV3ReadAsPythonUpgrade: a dialog read from a generated version 2 or
// 3 notebook (read through its upgrade) holds what the
// dialog read from Python nbformat's upgrade of it holds: the same
// messages, ids (derived the same way, as neither has cell ids),
// contents, execution counts, metadata, attributes and outputs decoded.
// Notebooks Python refuses, and those ours refuses, are left out.
func TestV3ReadAsPythonUpgrade(t *testing.T) {
	t.Parallel()
	py := nbtest.NbformatPython()
	if py == "" {
		t.Skip("Python nbformat not found")
	}
	n := 600
	if !testtier.Full() {
		n = 100
	}
	in, out := t.TempDir(), t.TempDir()
	if d := os.Getenv("LAZYATTACK_PYDIR"); d != "" {
		in, out = filepath.Join(d, "pyin"), filepath.Join(d, "pyout")
	}
	for i := range n {
		data := v3Gen{rand.New(rand.NewPCG(uint64(i), 11)), []int{3, 12, 40, 1000}[i%4]}.notebook()
		if err := os.WriteFile(filepath.Join(in, fmt.Sprintf("%04d.ipynb", i)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if msg, err := exec.Command(py, "-c", pyUpgrade, in, out).CombinedOutput(); err != nil {
		t.Fatalf("Python: %v\n%s", err, msg)
	}
	compared := 0
	for i := range n {
		name := fmt.Sprintf("%04d.ipynb", i)
		want, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			continue // Python refused it
		}
		data, err := os.ReadFile(filepath.Join(in, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, reg := range []*convert.Registry{nil, convert.MustRegistry(convert.Solveit())} {
			o := convert.Options{Registry: reg}
			d, err := o.Unmarshal(data)
			if err != nil {
				continue
			}
			dw, err := o.Unmarshal(want)
			if err != nil {
				t.Errorf("%s: Python's upgrade does not read: %v", name, err)
				continue
			}
			got, exp := dumpDialog(d.Dialog), dumpDialog(dw.Dialog)
			// The name: the dialogs' are both empty; the metadata: the
			// upgrade drops version 3's name, and Python keeps
			// orig_nbformat, which ours writes too.
			if got != exp {
				t.Errorf("%s (registry %v): dialog differs from Python's upgrade's: %s", name, reg != nil, firstLineDiff(exp, got))
			}
			// Both edited the same way and written: they read back
			// the same.
			if len(d.Messages) > 0 {
				back := [2]string{}
				for k, x := range []*convert.File{d, dw} {
					x.Messages[len(x.Messages)-1].Content += "\nedited ü"
					x.Messages[0].Meta = map[string]any{"lazyattack": true}
					b, err := o.Marshal(x)
					if err != nil {
						back[k] = "write: " + err.Error()
						continue
					}
					y, err := o.Unmarshal(b)
					if err != nil {
						back[k] = "read back: " + err.Error()
						continue
					}
					back[k] = withoutIDs(dumpDialog(y.Dialog))
				}
				if back[0] != back[1] {
					t.Errorf("%s (registry %v): edited and written, reads back unlike Python's upgrade's: %s", name, reg != nil, firstLineDiff(back[1], back[0]))
				}
			}
			compared++
		}
	}
	t.Logf("%d of %d notebooks compared", compared/2, n)
	if compared == 0 {
		t.Error("nothing compared")
	}
}

// firstLineDiff shows the first line where two dumps differ (cut short).
func firstLineDiff(want, got string) string {
	return diffLines(strings.Split(want, "\n"), strings.Split(got, "\n"))
}

// withoutIDs is a dump (see dumpDialog) without the messages' ids: a
// version 3 dialog edited is written as 4.5, with the ids it was read
// with, where a 4.0 file's are derived again from the edited contents.
func withoutIDs(dump string) string {
	lines := strings.Split(dump, "\n")
	for i, l := range lines {
		if len(l) > 9 && l[8] == ' ' && !strings.HasPrefix(l, " ") {
			lines[i] = l[9:]
		}
	}
	return strings.Join(lines, "\n")
}

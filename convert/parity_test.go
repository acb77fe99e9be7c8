package convert_test

// The parity suite: our bytes against the seed's own implementation (the
// oracle) for the seed's ten edits and its round trip, over every Solveit
// dialog of the shared corpus and every notebook in testdata/.

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbjson"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/internal/truthy"
	"github.com/nbdialog/ipynb/nbformat"
)

// seedDescriptors are the seed's Message.meta_attrs: skipped and pinned,
// kept as read.
var seedDescriptors = []convert.Descriptor{{Attr: "skipped", Key: "skipped"}, {Attr: "pinned", Key: "pinned"}}

var seedPNG = []byte("\x89PNG fake")

// seedEdits are edits.py's ten edits, in its order. Each reports false
// where the seed's edit fails (an empty dialog has no message to insert
// after).
var seedEdits = []struct {
	name string
	edit func(d *dialog.Dialog) (bool, error)
}{
	{"content", func(d *dialog.Dialog) (bool, error) {
		if len(d.Messages) > 1 {
			d.Messages[1].Content += " edited"
		}
		return true, nil
	}},
	{"reply", func(d *dialog.Dialog) (bool, error) {
		for _, m := range d.Messages {
			if m.Kind == dialog.Prompt {
				m.SetReply("new reply")
				break
			}
		}
		return true, nil
	}},
	{"insert", func(d *dialog.Dialog) (bool, error) {
		if len(d.Messages) == 0 {
			return false, nil
		}
		_, err := d.Make(dialog.Note, "new note", dialog.MakeOptions{After: d.Messages[0].ID, ID: "deadbeef"})
		return true, err
	}},
	{"insert_code", func(d *dialog.Dialog) (bool, error) {
		if len(d.Messages) == 0 {
			return false, nil
		}
		_, err := d.Make(dialog.Code, "print(1)", dialog.MakeOptions{Before: d.Messages[len(d.Messages)-1].ID, Outputs: []dialog.Output{streamOutput("stdout", "1\n")}, ID: "c0ffee00"})
		return true, err
	}},
	{"delete", func(d *dialog.Dialog) (bool, error) {
		if len(d.Messages) == 0 {
			return false, nil
		}
		d.Messages = d.Messages[:len(d.Messages)-1]
		return true, nil
	}},
	{"meta", func(d *dialog.Dialog) (bool, error) {
		if d.Meta == nil {
			d.Meta = map[string]any{}
		}
		d.Meta["zz_added"] = 1
		return true, nil
	}},
	{"clear", func(d *dialog.Dialog) (bool, error) {
		for _, m := range d.Messages {
			if m.Kind == dialog.Code && len(m.Outputs) > 0 {
				m.Outputs = []dialog.Output{}
				break
			}
		}
		return true, nil
	}},
	{"unskip", func(d *dialog.Dialog) (bool, error) {
		for _, m := range d.Messages {
			if truthy.Of(m.Attrs["skipped"]) {
				m.Attrs["skipped"] = 0
				break
			}
		}
		return true, nil
	}},
	{"attach", func(d *dialog.Dialog) (bool, error) {
		for _, m := range d.Messages {
			if m.Kind == dialog.Note {
				m.Attachments = append(m.Attachments, dialog.Attachment{ID: "att-1.png", MIME: "image/png", Data: seedPNG})
				break
			}
		}
		return true, nil
	}},
	{"cellmeta", func(d *dialog.Dialog) (bool, error) {
		if len(d.Messages) == 0 {
			return false, nil
		}
		m := d.Messages[0]
		if m.Meta == nil {
			m.Meta = map[string]any{}
		}
		m.Meta["my_app_flag"] = map[string]any{"level": 3}
		return true, nil
	}},
}

// everyEdit edits every message's content (everyEditPy is the seed's
// side).
var everyEdit = struct {
	name string
	edit func(d *dialog.Dialog) (bool, error)
}{"every", func(d *dialog.Dialog) (bool, error) {
	for _, m := range d.Messages {
		m.Content += " edited"
	}
	return true, nil
}}

const everyEditPy = `import sys
from pathlib import Path
from aidialog.dialog import *
from aidialog.ipynb import *
src, dst = Path(sys.argv[1]), Path(sys.argv[2])
for p in sorted(src.rglob('*.ipynb')):
    try:
        d = read_ipynb(str(p))
        if d is None: continue
        for m in d.messages: m.content += ' edited'
        s = write_ipynb(d)
    except Exception as e:
        print('ERR', 'every', p.relative_to(src), type(e).__name__, e)
        continue
    o = dst/p.relative_to(src); o.parent.mkdir(parents=True, exist_ok=True)
    o.write_bytes(s.encode('utf-8'))
`

// paritySources copies the Solveit dialogs of the corpus, testdata's
// notebooks and this package's parity fixtures into a folder for the
// oracle, returning it and the relative paths.
func paritySources(t *testing.T) (string, []string) {
	t.Helper()
	src := t.TempDir()
	var rels []string
	add := func(rel string, data []byte) {
		p := filepath.Join(src, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		rels = append(rels, rel)
	}
	all := os.Getenv("IPYNB_PARITY_ALL") != "" // every corpus notebook, not only the Solveit dialogs
	for e, data := range corpus.Files(t) {
		if e.Writer == "solveit" || all {
			add(filepath.Join("corpus", e.Path), data)
		}
	}
	for _, pat := range []string{filepath.Join("..", "testdata", "*.ipynb"), filepath.Join("testdata", "parity", "*.ipynb")} {
		files, _ := filepath.Glob(pat)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			add(filepath.Join(filepath.Base(filepath.Dir(f)), filepath.Base(f)), data)
		}
	}
	sort.Strings(rels)
	return src, rels
}

// The deliberate differences (the oracle's README lists them; the package
// doc too). Each is a normalization of our output (or, for ids the seed
// makes up at random, of both) that must account for the whole difference.
type deliberate struct {
	name string
	// apply changes ours (and want) as the seed would have written it,
	// reporting whether it changed anything. src is the source file.
	apply func(src, ours, want map[string]any) bool
}

var deliberates = []deliberate{
	{"execution counts kept (the seed writes null)", func(_, ours, _ map[string]any) bool {
		changed := false
		for _, c := range cellsOf(ours) {
			if c["cell_type"] == "code" && c["execution_count"] != nil {
				c["execution_count"], changed = nil, true
			}
		}
		return changed
	}},
	{"ids not written to 4.0–4.4 files (the seed upgrades them to 4.5 with random ids)", func(src, ours, want map[string]any) bool {
		if src["nbformat"] != 4 || src["nbformat_minor"] == 5 {
			return false
		}
		for _, c := range cellsOf(want) {
			delete(c, "id")
		}
		want["nbformat_minor"] = ours["nbformat_minor"]
		return true
	}},
	{"missing, invalid and repeated ids made from position and content (the seed: random)", func(src, ours, want map[string]any) bool {
		valid := map[string]int{}
		for _, c := range cellsOf(src) {
			if id, ok := c["id"].(string); ok && cellIDPattern.MatchString(id) {
				valid[id]++
			}
		}
		changed := false
		for _, doc := range []map[string]any{ours, want} {
			for _, c := range cellsOf(doc) {
				id, _ := c["id"].(string)
				if _, ok := c["id"]; ok && valid[id] != 1 && id != "deadbeef" && id != "c0ffee00" {
					c["id"], changed = "(generated)", true
				}
			}
		}
		return changed
	}},
	{"text after a second reply separator kept (the seed drops it)", func(_, ours, _ map[string]any) bool {
		changed := false
		for _, c := range cellsOf(ours) {
			md, _ := c["metadata"].(map[string]any)
			if c["cell_type"] != "markdown" || !truthy.Of(md["solveit_ai"]) {
				continue
			}
			src := joinText(c["source"])
			parts := strings.SplitN(src, convert.ReplySeparator, 3)
			if len(parts) == 3 {
				c["source"], changed = splitLines(parts[0]+convert.ReplySeparator+parts[1]), true
			}
		}
		return changed
	}},
	{"solveit_ai on a code or raw cell left as metadata (the seed makes the cell a markdown prompt)", func(_, ours, _ map[string]any) bool {
		changed := false
		for _, c := range cellsOf(ours) {
			md, _ := c["metadata"].(map[string]any)
			if c["cell_type"] == "markdown" || !truthy.Of(md["solveit_ai"]) {
				continue
			}
			c["cell_type"], md["solveit_ai"], changed = "markdown", true, true
			delete(c, "outputs")
			delete(c, "execution_count")
			delete(c, "attachments")
		}
		return changed
	}},
	{"raw-cell attachments kept (the seed drops them)", func(_, ours, _ map[string]any) bool {
		changed := false
		for _, c := range cellsOf(ours) {
			if _, ok := c["attachments"]; ok && c["cell_type"] == "raw" {
				delete(c, "attachments")
				changed = true
			}
		}
		return changed
	}},
	{"every type of an attachment kept (the seed keeps the first)", func(_, ours, want map[string]any) bool {
		changed := false
		wc := cellsOf(want)
		for i, c := range cellsOf(ours) {
			atts, _ := c["attachments"].(map[string]any)
			if i >= len(wc) {
				break
			}
			seedAtts, _ := wc[i]["attachments"].(map[string]any)
			for name, b := range atts {
				bundle, _ := b.(map[string]any)
				seedBundle, _ := seedAtts[name].(map[string]any)
				if len(bundle) < 2 || len(seedBundle) != 1 {
					continue
				}
				for k := range bundle {
					if _, ok := seedBundle[k]; !ok {
						delete(bundle, k)
						changed = true
					}
				}
			}
		}
		return changed
	}},
}

// uneditedCells reports which cells of ours (canonical, decoded) are
// cells of the source file as they were, in Python nbformat's canonical
// form.
func uneditedCells(t *testing.T, src []byte, ours map[string]any) map[int]bool {
	t.Helper()
	nb, err := nbformat.Unmarshal(src)
	if err != nil || nb.Nbformat != 4 {
		return nil
	}
	canon, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
	if err != nil {
		return nil // a file Python nbformat cannot write
	}
	g, err := nbformat.Decode(canon)
	if err != nil {
		t.Fatal(err)
	}
	withoutID := func(c map[string]any) string {
		c = maps.Clone(c)
		delete(c, "id") // ids are accounted for on their own
		return string(encoded(t, c))
	}
	have := map[string]bool{}
	for _, c := range cellsOf(g.(map[string]any)) {
		have[withoutID(c)] = true
	}
	out := map[int]bool{}
	for i, c := range cellsOf(ours) {
		out[i] = have[withoutID(c)]
	}
	return out
}

var cellIDPattern = regexp.MustCompile(`^[a-zA-Z0-9-_]{1,64}$`)

func cellsOf(doc map[string]any) []map[string]any {
	var cells []map[string]any
	list, _ := doc["cells"].([]any)
	for _, c := range list {
		if m, ok := c.(map[string]any); ok {
			cells = append(cells, m)
		}
	}
	return cells
}

func joinText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var b strings.Builder
	list, _ := v.([]any)
	for _, x := range list {
		s, _ := x.(string)
		b.WriteString(s)
	}
	return b.String()
}

// splitLines is Python's str.splitlines(True) for "\n" line ends, as
// notebooks store text.
func splitLines(s string) []any {
	out := []any{}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// canonicalDoc returns notebook bytes in Python nbformat's canonical form
// and decoded.
func canonicalDoc(t *testing.T, data []byte) ([]byte, map[string]any) {
	t.Helper()
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		t.Fatalf("canonical: %v", err)
	}
	out, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
	if err != nil {
		t.Fatalf("canonical: %v", err)
	}
	g, err := nbformat.Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	return out, g.(map[string]any)
}

func encoded(t *testing.T, v any) []byte {
	t.Helper()
	b, err := nbjson.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestOracleParity applies the seed's ten edits (edits.py) and its round
// trip (roundtrip.py) to every Solveit dialog of the corpus, testdata's
// notebooks and the parity fixtures, with the seed's module and with ours,
// and accounts for every byte of difference: the same bytes; the same
// notebook written in the file's own style, where the seed rewrites files
// in its canonical style; or one of the deliberate differences above,
// each verified by normalizing it away. Anything else fails.
// IPYNB_PARITY_ALL=1 runs it over every notebook of the corpus (595 files,
// about three minutes), not only the Solveit dialogs.
func TestOracleParity(t *testing.T) {
	t.Parallel()
	testtier.Long(t)
	oracleDir(t)
	oraclePython(t)
	src, rels := paritySources(t)
	edited, rt := t.TempDir(), t.TempDir()
	// The seed's failures, by operation and file: "ERR edit file Type …"
	// from edits.py and the every-message edit, "ERR file Type …" from
	// roundtrip.py.
	seedErrors := map[string]string{}
	parseErrors := func(out []byte, op string) {
		for _, line := range strings.Split(string(out), "\n") {
			rest, ok := strings.CutPrefix(line, "ERR ")
			if !ok {
				continue
			}
			lineOp := op
			if lineOp == "" {
				lineOp, rest, _ = strings.Cut(rest, " ")
			}
			for _, rel := range rels { // file names may hold spaces
				if why, ok := strings.CutPrefix(rest, rel+" "); ok {
					seedErrors[lineOp+" "+rel], _, _ = strings.Cut(why, " ")
				}
			}
		}
	}
	parseErrors(runOracle(t, "edits.py", src, edited), "")
	parseErrors(runOracle(t, "roundtrip.py", src, rt), "roundtrip")
	// One more edit, ours: every message's content edited, so that every
	// cell is written anew and none is excused as unedited.
	parseErrors(runOracle(t, "-c", everyEditPy, src, filepath.Join(edited, "every")), "")
	opts := convert.Options{Registry: convert.MustRegistry(seedDescriptors)}
	counts := map[string]map[string]int{} // behaviour → operation → count
	note := func(behaviour, op string) {
		if counts[behaviour] == nil {
			counts[behaviour] = map[string]int{}
		}
		counts[behaviour][op]++
	}
	ops := append([]string{}, "roundtrip")
	for _, e := range append(seedEdits, everyEdit) {
		ops = append(ops, e.name)
	}
	for _, rel := range rels {
		data, err := os.ReadFile(filepath.Join(src, rel))
		if err != nil {
			t.Fatal(err)
		}
		g, err := nbformat.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		srcDoc, _ := g.(map[string]any)
		srcNB, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		srcInvalid := srcNB.Nbformat == 4 && nbformat.Validate(srcNB) != nil
		for _, op := range ops {
			edit := func(*dialog.Dialog) (bool, error) { return true, nil }
			oracleFile := filepath.Join(rt, rel)
			for _, e := range append(seedEdits, everyEdit) {
				if e.name == op {
					edit, oracleFile = e.edit, filepath.Join(edited, e.name, rel)
				}
			}
			want, werr := os.ReadFile(oracleFile)
			d, err := opts.Unmarshal(data)
			var got []byte
			applies := true
			if err == nil {
				applies, err = edit(d.Dialog)
			}
			if err == nil && applies {
				got, err = opts.Marshal(d)
			}
			switch {
			case !applies:
				// No message to edit: the seed fails (IndexError).
				if werr == nil {
					t.Errorf("%s %s: the seed edits a dialog without messages", op, rel)
				}
				note("both refuse (no message to edit)", op)
				continue
			case srcDoc["nbformat"] == 2 || srcDoc["nbformat"] == 3:
				// The seed reads versions 2 and 3 as an empty dialog (or
				// fails editing it); ours upgrades them.
				if err != nil {
					t.Errorf("%s %s: %v", op, rel, err)
				}
				note("nbformat 2 and 3 upgraded (the seed reads them as empty)", op)
				continue
			case werr != nil && err != nil:
				t.Logf("%s %s: both fail: %v", op, rel, err)
				note("both refuse", op)
				continue
			case werr != nil:
				why := seedErrors[op+" "+rel]
				switch {
				case hasUnknownCell(srcDoc):
					note("unknown cell types kept (the seed refuses the file)", op)
				case why != "":
					note("written (the seed fails: "+why+")", op)
				default:
					t.Errorf("%s %s: the seed writes nothing, ours writes", op, rel)
				}
				continue
			case err != nil:
				t.Errorf("%s %s: ours fails: %v", op, rel, err)
				continue
			case bytes.Equal(got, want):
				note("same bytes", op)
				continue
			}
			gotC, ours := canonicalDoc(t, got)
			wantC, seed := canonicalDoc(t, want)
			if !bytes.Equal(got, gotC) {
				note("the file's own style kept (the seed writes its canonical style)", op)
			}
			if bytes.Equal(gotC, wantC) {
				continue
			}
			unedited := uneditedCells(t, data, ours)
			var used []string
			for _, dl := range deliberates {
				if dl.apply(srcDoc, ours, seed) {
					used = append(used, dl.name)
				}
			}
			// Cells written back exactly as the file had them (unedited)
			// need not look as the seed rewrites them.
			oc, sc := cellsOf(ours), cellsOf(seed)
			kept := false
			for i := range oc {
				if unedited[i] && i < len(sc) && !bytes.Equal(encoded(t, oc[i]), encoded(t, sc[i])) {
					ours["cells"].([]any)[i] = sc[i]
					kept = true
				}
			}
			if kept {
				used = append(used, "unedited cells written back as read (the seed rewrites them: a prompt marker 1 as true, falsy flags and markers, empty attachments and __type dropped, an empty reply's separator removed)")
			}
			if !bytes.Equal(encoded(t, ours), encoded(t, seed)) {
				if srcInvalid {
					// Ours heals the file, keeping content (checked by
					// TestCorpusDialogHeals and, here, by the notebook
					// being valid); the seed writes invalid values back
					// and removes outputs of unknown types.
					if nb, err := nbformat.Unmarshal(got); err != nil || nbformat.Validate(nb) != nil {
						t.Errorf("%s %s: an invalid file written invalid", op, rel)
					}
					note("an invalid file written valid, content kept (the seed keeps invalid values, removes unknown outputs)", op)
					continue
				}
				t.Errorf("%s %s: differs from the seed beyond the deliberate differences %q: %v", op, rel, used, jsonDiffs(seed, ours, "", nil))
				continue
			}
			for _, u := range used {
				note(u, op)
			}
		}
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-90s", "behaviour")
	for _, op := range ops {
		fmt.Fprintf(&table, " %11s", op)
	}
	table.WriteString("\n")
	for _, b := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(&table, "%-90s", b)
		for _, op := range ops {
			fmt.Fprintf(&table, " %11d", counts[b][op])
		}
		table.WriteString("\n")
	}
	t.Logf("%d files × %d operations:\n%s", len(rels), len(ops), table.String())
	if counts["same bytes"]["roundtrip"] < 20 {
		t.Errorf("only %d files round-trip to the seed's bytes", counts["same bytes"]["roundtrip"])
	}
}

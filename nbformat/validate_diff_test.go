package nbformat_test

// Differential tests of Validate against Python nbformat and a reference
// validator, on the testdata, the corpus and mutations.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
	"github.com/nbdialog/ipynb/schema"
	jsonschema "github.com/santhosh-tekuri/jsonschema/v6"
)

// Differential test of Validate against an independent, well-kept draft-04
// validator (santhosh-tekuri/jsonschema), on the corpus, the testdata and
// many mutated notebooks: their schema verdicts must agree. The mutations
// avoid the two places where the reference deliberately differs from
// Python nbformat, which Validate follows: enum comparison (Python's 1 ==
// true) and "$" before a final newline in patterns.

type otherValidator struct {
	schemas map[string]*jsonschema.Schema
}

func (o *otherValidator) valid(t *testing.T, data []byte) (verdict bool, ok bool) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return false, false // NaN and friends: not standard JSON
	}
	m, isObj := inst.(map[string]any)
	if !isObj {
		return false, false
	}
	major, minor := 0, 0
	if n, ok := m["nbformat"].(json.Number); ok {
		fmt.Sscan(n.String(), &major)
	}
	if n, ok := m["nbformat_minor"].(json.Number); ok {
		fmt.Sscan(n.String(), &minor)
	} else if _, has := m["nbformat_minor"]; has {
		return false, false
	}
	if !(major == 4 && minor >= 0 && minor <= 5 || major == 3 && minor == 0) {
		return false, false // no schema, or nbformat's relaxed future schema
	}
	key := fmt.Sprintf("%d.%d", major, minor)
	s := o.schemas[key]
	if s == nil {
		raw, _, err := schema.Official(major, minor)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft4)
		if err := c.AddResource("nbformat.json", doc); err != nil {
			t.Fatal(err)
		}
		if s, err = c.Compile("nbformat.json"); err != nil {
			t.Fatal(err)
		}
		o.schemas[key] = s
	}
	return s.Validate(inst) == nil, true
}

// ourSchemaVerdict is Validate's verdict without the cell-id uniqueness
// check, which is not part of the schema.
func ourSchemaVerdict(t *testing.T, data []byte) bool {
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	probs := nbformat.Problems(nbformat.Validate(nb))
	if len(probs) > 0 {
		var doc any
		if err := json.Unmarshal(data, &doc); err == nil {
			for _, p := range probs {
				if !resolvesIn(doc, string(p.Pointer)) {
					t.Errorf("pointer %q does not resolve", p.Pointer)
				}
			}
		}
	}
	for _, p := range probs {
		if p.Keyword != "unique" {
			return false
		}
	}
	return true
}

// mutations change a decoded notebook in place; each returns false when it
// does not apply.
var mutations = []struct {
	name string
	f    func(nb map[string]any, cell map[string]any) bool
}{
	{"DropSource", func(_, c map[string]any) bool { delete(c, "source"); return true }},
	{"DropMetadata", func(_, c map[string]any) bool { delete(c, "metadata"); return true }},
	{"DropCellType", func(_, c map[string]any) bool { delete(c, "cell_type"); return true }},
	{"DropID", func(_, c map[string]any) bool { _, had := c["id"]; delete(c, "id"); return had }},
	{"BogusCellType", func(_, c map[string]any) bool { c["cell_type"] = "bogus"; return true }},
	{"ExtraKey", func(_, c map[string]any) bool { c["foo"] = 1; return true }},
	{"SourceNumber", func(_, c map[string]any) bool { c["source"] = 5; return true }},
	{"SourceMixedList", func(_, c map[string]any) bool { c["source"] = []any{"a", 1}; return true }},
	{"NegativeCount", code(func(c map[string]any) { c["execution_count"] = -1 })},
	{"StringCount", code(func(c map[string]any) { c["execution_count"] = "3" })},
	{"FloatCount", code(func(c map[string]any) { c["execution_count"] = 2.5 })},
	{"CollapsedString", code(func(c map[string]any) { meta(c)["collapsed"] = "yes" })},
	{"ScrolledBad", code(func(c map[string]any) { meta(c)["scrolled"] = "sometimes" })},
	{"ScrolledAuto", code(func(c map[string]any) { meta(c)["scrolled"] = "auto" })},
	{"TagsDuplicate", func(_, c map[string]any) bool { meta(c)["tags"] = []any{"a", "a"}; return true }},
	{"TagsComma", func(_, c map[string]any) bool { meta(c)["tags"] = []any{"a,b"}; return true }},
	{"TagsNumber", func(_, c map[string]any) bool { meta(c)["tags"] = []any{1}; return true }},
	{"NameEmpty", func(_, c map[string]any) bool { meta(c)["name"] = ""; return true }},
	{"JupyterHidden", func(_, c map[string]any) bool { meta(c)["jupyter"] = map[string]any{"source_hidden": "x"}; return true }},
	{"BadID", func(_, c map[string]any) bool { c["id"] = "bad id!"; return true }},
	{"EmptyID", func(_, c map[string]any) bool { c["id"] = ""; return true }},
	{"LongID", func(_, c map[string]any) bool { c["id"] = fmt.Sprintf("%065d", 0); return true }},
	{"AttachmentNotBundle", func(_, c map[string]any) bool { c["attachments"] = map[string]any{"x.png": "no"}; return true }},
	{"AttachmentNumber", func(_, c map[string]any) bool {
		c["attachments"] = map[string]any{"x.png": map[string]any{"image/png": 5}}
		return true
	}},
	{"OutputTypeUnknown", output(func(o map[string]any) { o["output_type"] = "widget" })},
	{"OutputExtraKey", output(func(o map[string]any) { o["extra"] = true })},
	{"OutputDataNumber", output(func(o map[string]any) { o["output_type"] = "display_data"; o["data"] = map[string]any{"text/plain": 5} })},
	{"OutputJSONNumber", output(func(o map[string]any) {
		o["output_type"] = "display_data"
		o["data"] = map[string]any{"application/json": 5}
		o["metadata"] = map[string]any{}
		delete(o, "execution_count")
		delete(o, "name")
		delete(o, "text")
	})},
	{"StreamNoText", output(func(o map[string]any) { o["output_type"] = "stream"; o["name"] = "stdout"; delete(o, "text") })},
	{"TracebackString", output(func(o map[string]any) { o["output_type"] = "error"; o["traceback"] = "x" })},
	{"KernelspecNoName", func(nb, _ map[string]any) bool {
		md, _ := nb["metadata"].(map[string]any)
		ks, ok := md["kernelspec"].(map[string]any)
		if ok {
			delete(ks, "name")
		}
		return ok
	}},
	{"AuthorsNotObjects", func(nb, _ map[string]any) bool {
		md, _ := nb["metadata"].(map[string]any)
		if md == nil {
			return false
		}
		md["authors"] = []any{1, "x"}
		return true
	}},
	{"TitleNumber", func(nb, _ map[string]any) bool {
		md, _ := nb["metadata"].(map[string]any)
		if md == nil {
			return false
		}
		md["title"] = 3
		return true
	}},
	{"TopLevelExtra", func(nb, _ map[string]any) bool { nb["extra"] = 1; return true }},
	{"CellsNotArray", func(nb, _ map[string]any) bool { nb["cells"] = map[string]any{}; return true }},
}

func code(f func(map[string]any)) func(_, c map[string]any) bool {
	return func(_, c map[string]any) bool {
		if c["cell_type"] != "code" {
			return false
		}
		f(c)
		return true
	}
}

func output(f func(map[string]any)) func(_, c map[string]any) bool {
	return func(_, c map[string]any) bool {
		outs, _ := c["outputs"].([]any)
		if len(outs) == 0 {
			return false
		}
		o, ok := outs[0].(map[string]any)
		if ok {
			f(o)
		}
		return ok
	}
}

func meta(c map[string]any) map[string]any {
	m, ok := c["metadata"].(map[string]any)
	if !ok {
		m = map[string]any{}
		c["metadata"] = m
	}
	return m
}

func decodeGeneric(data []byte) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil {
		return nil, false
	}
	return m, true
}

func TestValidateAgreesWithReferenceValidator(t *testing.T) {
	t.Parallel()
	var files []string
	testdata, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	files = append(files, testdata...)
	if dir := os.Getenv("IPYNB_CORPUS"); dir != "" || corpus.Shared() != "" {
		cdir, entries := corpus.Entries(t)
		for i, e := range entries {
			if testtier.Sample(i) {
				files = append(files, filepath.Join(cdir, e.Path))
			}
		}
	}
	other := &otherValidator{schemas: map[string]*jsonschema.Schema{}}
	compared, mutated, invalid := 0, 0, 0
	for fi, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := nbformat.Unmarshal(data); err != nil {
			continue
		}
		check := func(what string, data []byte) {
			want, ok := other.valid(t, data)
			if !ok {
				return
			}
			compared++
			got := ourSchemaVerdict(t, data)
			if !got {
				invalid++
			}
			if got != want {
				t.Errorf("%s %s: Validate says valid=%v, the reference validator says %v", path, what, got, want)
			}
		}
		check("as is", data)
		if len(data) > 256<<10 || !testtier.Full() && fi >= len(testdata) {
			continue // mutate the smaller files only, to keep the test quick
		}
		orig, ok := decodeGeneric(data)
		if !ok {
			continue
		}
		if cells, _ := orig["cells"].([]any); len(cells) == 0 {
			continue
		}
		for mi, m := range mutations {
			// Every mutation on testdata; on corpus files a rotating sixth
			// of them, so that all are used and the test stays quick.
			if fi >= len(testdata) && (fi+mi)%6 != 0 {
				continue
			}
			doc := deepCopy(orig).(map[string]any)
			cells := doc["cells"].([]any)
			cell, ok := cells[(fi+mi)%len(cells)].(map[string]any)
			if !ok || !m.f(doc, cell) {
				continue
			}
			out, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			mutated++
			check(m.name, out)
		}
	}
	t.Logf("%d documents compared (%d mutated, %d invalid)", compared, mutated, invalid)
	if compared < 100 {
		t.Errorf("only %d documents compared", compared)
	}
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		a := make([]any, len(v))
		for i, x := range v {
			a[i] = deepCopy(x)
		}
		return a
	}
	return v
}

// trickyStrings end in or hold line breaks: Python's re "$" matches before
// a final newline, fastjsonschema's rewritten "pattern" "$" does not, and
// "." never matches a newline.
var trickyStrings = []string{"a\n", "a\r\n", "a\n\n", "a\nb", "\n", "\n\n", "a\r", "\r\n", "a", "", "a,\n", "a b", "ab-_9"}

// newlineMutations set every patterned field of the schemas (cell ids,
// metadata names and tags, execution timestamps, MIME bundle keys,
// attachment names and bundles, v3 output MIME keys) to each tricky
// string.
func newlineMutations() []mutation {
	var ms []mutation
	for i, s := range trickyStrings {
		name := func(what string) string { return fmt.Sprintf("%s%d", what, i) }
		ms = append(ms,
			mutation{name("ID"), func(_, c map[string]any) bool { c["id"] = s; return true }},
			mutation{name("IDPrefix"), func(_, c map[string]any) bool { c["id"] = "cell" + s; return true }},
			mutation{name("Name"), func(_, c map[string]any) bool { meta(c)["name"] = s; return true }},
			mutation{name("Tags"), func(_, c map[string]any) bool { meta(c)["tags"] = []any{"ok", s}; return true }},
			mutation{name("ExecutionKeyNumber"), func(_, c map[string]any) bool {
				meta(c)["execution"] = map[string]any{"iopub.x" + s: 5}
				return true
			}},
			mutation{name("ExecutionBareKeyNumber"), func(_, c map[string]any) bool {
				meta(c)["execution"] = map[string]any{s: 5}
				return true
			}},
			mutation{name("ExecutionKeyString"), func(_, c map[string]any) bool {
				meta(c)["execution"] = map[string]any{s: "2024-01-01"}
				return true
			}},
			mutation{name("JSONKey"), outputData(map[string]any{"application/json" + s: 5})},
			mutation{name("PlusJSONKey"), outputData(map[string]any{"application/vnd.x+json" + s: []any{1}})},
			mutation{name("JSONKeyInside"), outputData(map[string]any{"application/" + s + "+json": 5})},
			mutation{name("TextKey"), outputData(map[string]any{"text/plain" + s: "x"})},
			mutation{name("AttachmentName"), func(_, c map[string]any) bool {
				c["attachments"] = map[string]any{"x" + s + ".png": map[string]any{"image/png": "iVBO"}}
				return true
			}},
			mutation{name("AttachmentJSONKey"), func(_, c map[string]any) bool {
				c["attachments"] = map[string]any{"x.png": map[string]any{"application/json" + s: 5}}
				return true
			}},
			mutation{name("V3OutputKey"), func(nb, _ map[string]any) bool {
				o := firstV3Output(nb)
				if o != nil {
					o["text/x"+s] = 5
				}
				return o != nil
			}},
			mutation{name("V3OutputKeyString"), func(nb, _ map[string]any) bool {
				o := firstV3Output(nb)
				if o != nil {
					o["application/x"+s] = "x"
				}
				return o != nil
			}},
		)
	}
	return ms
}

type mutation = struct {
	name string
	f    func(nb map[string]any, cell map[string]any) bool
}

// outputData makes the cell's first output (or a new one, in a code cell)
// a display_data output with the given data.
func outputData(data map[string]any) func(_, c map[string]any) bool {
	return func(_, c map[string]any) bool {
		if c["cell_type"] != "code" {
			return false
		}
		c["outputs"] = []any{map[string]any{"output_type": "display_data", "data": data, "metadata": map[string]any{}}}
		return true
	}
}

func firstV3Output(nb map[string]any) map[string]any {
	ws, _ := nb["worksheets"].([]any)
	for _, w := range ws {
		w, _ := w.(map[string]any)
		cells, _ := w["cells"].([]any)
		for _, c := range cells {
			c, _ := c.(map[string]any)
			outs, _ := c["outputs"].([]any)
			for _, o := range outs {
				if o, ok := o.(map[string]any); ok {
					return o
				}
			}
		}
	}
	return nil
}

// Validate's verdict equals Python nbformat's strict verdict
// (scripts/reference/nbformat_verdict.py: isvalid with fastjsonschema, as
// Debian's python3-nbformat 5.5 runs it) on the testdata and corpus files
// and on every mutation of them, the newline ones included.
func TestValidateAgreesWithPython(t *testing.T) {
	t.Parallel()
	testtier.Long(t)
	py := pythonNbformat(t)
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	nTestdata := len(files)
	if testtier.Full() && (os.Getenv("IPYNB_CORPUS") != "" || corpus.Shared() != "") {
		cdir, entries := corpus.Entries(t)
		for i, e := range entries {
			if i%8 == 0 { // a sample, to keep Python's part quick
				files = append(files, filepath.Join(cdir, e.Path))
			}
		}
	}
	all := append(append([]mutation{}, mutations...), newlineMutations()...)
	dir := t.TempDir()
	var paths, what []string
	add := func(desc string, data []byte) {
		p := filepath.Join(dir, fmt.Sprintf("%05d.ipynb", len(paths)))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		what = append(what, desc)
	}
	for fi, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		add(path, data)
		orig, ok := decodeGeneric(data)
		if !ok || len(data) > 256<<10 {
			continue
		}
		cells, _ := orig["cells"].([]any)
		for mi, m := range all {
			if fi >= nTestdata && (fi+mi)%4 != 0 {
				continue // a rotating quarter of the mutations on corpus files
			}
			doc := deepCopy(orig).(map[string]any)
			var cell map[string]any
			if cs, _ := doc["cells"].([]any); len(cells) > 0 {
				cell, _ = cs[(fi+mi)%len(cs)].(map[string]any)
			}
			if cell == nil {
				cell = map[string]any{}
			}
			if !m.f(doc, cell) {
				continue
			}
			out, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			add(path+" "+m.name, out)
		}
	}
	python := map[string]string{}
	for start := 0; start < len(paths); start += 2000 {
		batch := paths[start:min(start+2000, len(paths))]
		out, err := exec.Command(py, append([]string{referenceScript(t, "nbformat_verdict.py")}, batch...)...).Output()
		if err != nil {
			t.Fatalf("nbformat_verdict.py: %v", err)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if st, p, ok := strings.Cut(line, " "); ok {
				python[p] = st
			}
		}
	}
	compared, invalid := 0, 0
	for i, p := range paths {
		want := python[p]
		if want != "valid" && want != "invalid" {
			continue // Python cannot read it
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			continue
		}
		compared++
		probs := nbformat.Problems(nbformat.Validate(nb))
		got := "valid"
		if len(probs) > 0 {
			got = "invalid"
			invalid++
		}
		if got != want {
			t.Errorf("%s: Validate says %s, Python nbformat says %s %v", what[i], got, want, probs)
		}
	}
	t.Logf("%d notebooks compared with Python nbformat (%d invalid)", compared, invalid)
	if compared < len(paths)/2 {
		t.Errorf("only %d of %d notebooks compared", compared, len(paths))
	}
}

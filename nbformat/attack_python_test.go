package nbformat_test

// Attacks on validation by hostile bytes and edits: every verdict is Python
// nbformat's, and every notebook read writes back its bytes.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// hostileVariants returns variants of attackNB, each one replacement of
// its bytes: duplicate keys, numbers at limits, escapes at word
// boundaries (in values and keys), invalid UTF-8, BOMs, huge strings.
func hostileVariants() (names []string, docs [][]byte) {
	add := func(name, old, new string) {
		if !strings.Contains(attackNB, old) {
			panic("variant " + name + ": no " + old)
		}
		names = append(names, name)
		docs = append(docs, []byte(strings.Replace(attackNB, old, new, 1)))
	}
	ec := `"execution_count": 3,`
	add("dup-ec-last-valid", ec, `"execution_count": "bad", "execution_count": 3,`)
	add("dup-ec-last-invalid", ec, `"execution_count": 3, "execution_count": "bad",`)
	add("dup-celltype", `"cell_type": "markdown",`, `"cell_type": "code", "cell_type": "markdown",`)
	add("dup-celltype2", `"cell_type": "markdown",`, `"cell_type": "markdown", "cell_type": "code",`)
	add("dup-source", `"source": ["# Title\n", "text"]`, `"source": 5, "source": ["# Title\n", "text"]`)
	add("dup-source2", `"source": ["# Title\n", "text"]`, `"source": ["# Title\n", "text"], "source": 5`)
	add("dup-nbformat", `"nbformat": 4,`, `"nbformat": 3, "nbformat": 4,`)
	add("dup-id", `"id": "b2",`, `"id": "b 2", "id": "b2",`)
	add("dup-id2", `"id": "b2",`, `"id": "b2", "id": "b 2",`)
	add("dup-metadata", `"metadata": {},
   "source": ["# Title`, `"metadata": 1, "metadata": {},
   "source": ["# Title`)
	for _, n := range []string{"3.0", "1e2", "-0", "0", "1e400", "9223372036854775807", "9223372036854775808",
		"-1", "18446744073709551616", "3.5", "1E+0", "0.0e5", "-0.0", "1e-400", "123456789012345678901234567890"} {
		add("ec="+n, ec, `"execution_count": `+n+`,`)
	}
	for _, n := range []string{"5.0", "1e0", "4", "6", "-1", "5e0", "50e-1"} {
		add("minor="+n, `"nbformat_minor": 5`, `"nbformat_minor": `+n)
	}
	for _, n := range []string{"4.0", "4e0", "40e-1", "3"} {
		add("major="+n, `"nbformat": 4,`, `"nbformat": `+n+`,`)
	}
	names = append(names, "bom")
	docs = append(docs, append([]byte("\xef\xbb\xbf"), attackNB...))
	add("invalid-utf8-source", `"x = 1\n"`, "\"x = \xff\\n\"")
	add("invalid-utf8-key", `"tags": ["x"]`, "\"t\xc3ags\": [\"x\"]")
	add("lone-surrogate", `"x = 1\n"`, `"x = \ud800\n"`)
	add("surrogate-pair", `"x = 1\n"`, `"x = \ud83d\ude00\n"`)
	add("raw-tab-in-string", `"x = 1\n"`, "\"x =\t1\\n\"")
	add("raw-nul-in-string", `"x = 1\n"`, "\"x =\x001\\n\"")
	add("escaped-key-celltype", `"cell_type": "markdown",`, `"cell\u005ftype": "markdown",`)
	add("escaped-key-id", `"id": "b2",`, `"\u0069d": "b2",`)
	add("escaped-key-outputs", `"outputs": [],`, `"output\u0073": [],`)
	add("escaped-key-otype", `"output_type": "stream"`, `"output\u005Ftype": "stream"`)
	add("escaped-value-otype", `"output_type": "stream"`, `"output_type": "stre\u0061m"`)
	add("escaped-value-ctype", `"cell_type": "markdown",`, `"cell_type": "mark\u0064own",`)
	add("escaped-value-ctype-bad", `"cell_type": "markdown",`, `"cell_type": "mark\u0064own\u0000",`)
	add("escaped-id-bad", `"id": "b2",`, `"id": "b2\n",`)
	add("escaped-id-ok", `"id": "b2",`, `"id": "\u0062\u0032",`)
	add("id-empty", `"id": "b2",`, `"id": "",`)
	add("id-65", `"id": "b2",`, `"id": "`+strings.Repeat("a", 65)+`",`)
	add("id-64", `"id": "b2",`, `"id": "`+strings.Repeat("a", 64)+`",`)
	add("id-dup", `"id": "b2",`, `"id": "a1",`)
	add("id-dup-escaped", `"id": "b2",`, `"id": "a\u0031",`)
	// Escapes at every position around the 8-byte word boundaries.
	for pos := 5; pos <= 18; pos++ {
		for _, esc := range []string{`\"`, `\\`, `\n`, `\u00e9`, `\/`, `\ud83d\ude00`} {
			s := strings.Repeat("a", pos) + esc + strings.Repeat("b", 9)
			add(fmt.Sprintf("esc%d%s", pos, esc), `"# Title\n"`, `"`+s+`"`)
		}
		add(fmt.Sprintf("idesc%d", pos), `"id": "b2",`, `"id": "`+strings.Repeat("c", pos)+`\u002d`+`",`)
		add(fmt.Sprintf("idbad%d", pos), `"id": "b2",`, `"id": "`+strings.Repeat("c", pos)+`\u0020`+`",`)
		add(fmt.Sprintf("keyesc%d", pos), `"tags": ["x"]`, `"`+strings.Repeat("k", pos)+`\u0041": ["x"]`)
	}
	add("huge-source", `"x = 1\n"`, `"`+strings.Repeat(`x\"y\\z\u00e9 `, 200000)+`"`)
	add("deep-metadata-200", `"custom": {"a": {"b": [1, 2, 3]}}`, `"custom": `+strings.Repeat("[", 200)+strings.Repeat("]", 200))
	add("deep-metadata-obj", `"custom": {"a": {"b": [1, 2, 3]}}`, `"custom": `+strings.Repeat(`{"a":`, 300)+"1"+strings.Repeat("}", 300))
	add("tags-not-unique", `"tags": ["x"]`, `"tags": ["x", "x"]`)
	add("tags-escaped-dup", `"tags": ["x"]`, `"tags": ["x", "\u0078"]`)
	add("stream-name-escaped", `"name": "stdout"`, `"name": "std\u006Fut"`)
	add("mime-bad", `"text/plain": ["3"]`, `"text/plain": 3`)
	add("mime-json", `"text/plain": ["3"]`, `"application/json": 3`)
	add("mime-json-str", `"text/plain": ["3"]`, `"application/vnd.x+json": "s"`)
	add("mime-dup", `"text/plain": ["3"]`, `"text/plain": 3, "text/plain": ["3"]`)
	add("kernelspec-missing-name", `"name": "python3"`, `"nam\u0065x": "python3"`)
	add("trailing-ws", "\"nbformat_minor\": 5\n}\n", "\"nbformat_minor\": 5\n}\n \t\r\n")
	add("trailing-garbage", "\"nbformat_minor\": 5\n}\n", "\"nbformat_minor\": 5\n}\n}")
	// Schema edges of the discriminated unions (cells by cell_type,
	// outputs by output_type) and of metadata.
	so := `{"name": "stdout", "output_type": "stream", "text": ["one\n", "two\n"]}`
	er := `{"data": {"text/plain": ["3"]}, "execution_count": 3, "metadata": {}, "output_type": "execute_result"}`
	for name, o := range map[string]string{
		"err-no-traceback":  `{"output_type": "error", "ename": "E", "evalue": "v"}`,
		"err-ok":            `{"output_type": "error", "ename": "E", "evalue": "v", "traceback": []}`,
		"err-tb-ints":       `{"output_type": "error", "ename": "E", "evalue": "v", "traceback": [1]}`,
		"er-ec-null":        `{"data": {}, "execution_count": null, "metadata": {}, "output_type": "execute_result"}`,
		"er-no-ec":          `{"data": {}, "metadata": {}, "output_type": "execute_result"}`,
		"dd-with-ec":        `{"data": {}, "execution_count": 1, "metadata": {}, "output_type": "display_data"}`,
		"dd-no-metadata":    `{"data": {}, "output_type": "display_data"}`,
		"stream-stdin":      `{"name": "stdin", "output_type": "stream", "text": ""}`,
		"stream-text-int":   `{"name": "stdout", "output_type": "stream", "text": 1}`,
		"otype-unknown":     `{"output_type": "nope"}`,
		"otype-int":         `{"output_type": 1, "name": "stdout", "text": ""}`,
		"otype-missing":     `{"name": "stdout", "text": ""}`,
		"otype-dup":         `{"output_type": "error", "output_type": "stream", "name": "stdout", "text": ""}`,
		"otype-dup2":        `{"output_type": "stream", "output_type": "error", "name": "stdout", "text": ""}`,
		"output-array":      `[]`,
		"output-null":       `null`,
		"er-metadata-array": `{"data": {}, "execution_count": 3, "metadata": [], "output_type": "execute_result"}`,
		"mime-nested-obj":   `{"data": {"text/plain": {"a": 1}}, "metadata": {}, "output_type": "display_data"}`,
		"mime-key-bad":      `{"data": {"notmime": "x"}, "metadata": {}, "output_type": "display_data"}`,
		"mime-key-empty":    `{"data": {"": "x"}, "metadata": {}, "output_type": "display_data"}`,
	} {
		add("out-"+name, so, o)
	}
	_ = er
	cellMeta := `"metadata": {"tags": ["x"], "deep": {"k": [1, 2, {"z": "w"}]}},`
	for name, m := range map[string]string{
		"collapsed-str":      `"metadata": {"collapsed": "true"},`,
		"collapsed-bool":     `"metadata": {"collapsed": true},`,
		"scrolled-auto":      `"metadata": {"scrolled": "auto"},`,
		"scrolled-x":         `"metadata": {"scrolled": "x"},`,
		"jupyter-hidden-str": `"metadata": {"jupyter": {"source_hidden": "yes"}},`,
		"jupyter-extra":      `"metadata": {"jupyter": {"x": 1}},`,
		"execution-bad":      `"metadata": {"execution": {"iopub.status.busy": 1}},`,
		"name-int":           `"metadata": {"name": 1},`,
		"tags-int":           `"metadata": {"tags": [1]},`,
		"tags-comma":         `"metadata": {"tags": ["a,b"]},`,
		"tags-empty-str":     `"metadata": {"tags": [""]},`,
		"metadata-null":      `"metadata": null,`,
		"attachments-code":   `"attachments": {}, "metadata": {},`,
		"format-in-code":     `"metadata": {"format": "text/x"},`,
	} {
		add("cellmeta-"+name, cellMeta, m)
	}
	for name, m := range map[string]string{
		"md-attachments":     `"attachments": {"a.png": {"image/png": "AAAA"}},`,
		"md-attachments-bad": `"attachments": {"a.png": 1},`,
		"md-outputs":         `"outputs": [],`,
		"md-ec":              `"execution_count": null,`,
		"md-type-raw":        `"cell_type": "raw",`,
		"md-type-code":       `"cell_type": "code",`,
		"md-type-unknown":    `"cell_type": "heading",`,
		"md-type-int":        `"cell_type": 1,`,
	} {
		old := `"cell_type": "markdown",`
		if strings.HasPrefix(m, `"cell_type"`) {
			add(name, old, m)
		} else {
			add(name, old, old+" "+m)
		}
	}
	nbMeta := `"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},`
	for name, m := range map[string]string{
		"ks-no-name":      `"kernelspec": {"display_name": "Python 3"},`,
		"ks-extra":        `"kernelspec": {"display_name": "P", "name": "p", "x": [1]},`,
		"ks-null":         `"kernelspec": null,`,
		"li-no-name":      `"language_info": {"version": "3"},`,
		"li-cm-int":       `"language_info": {"name": "p", "codemirror_mode": 1},`,
		"li-cm-obj":       `"language_info": {"name": "p", "codemirror_mode": {"name": "ipython", "version": 3}},`,
		"orig-0":          `"orig_nbformat": 0,`,
		"orig-1":          `"orig_nbformat": 1,`,
		"orig-float":      `"orig_nbformat": 1.5,`,
		"authors-obj":     `"authors": {},`,
		"authors-ok":      `"authors": [{"name": "x"}],`,
		"authors-noname":  `"authors": [{}],`,
		"title-int":       `"title": 1,`,
		"title-escaped-k": `"titl\u0065": 1,`,
	} {
		add("nbmeta-"+name, nbMeta, m)
	}
	add("top-extra", `"nbformat": 4,`, `"nbformat": 4, "extra": 1,`)
	add("top-cells-obj", `"cells": [`, `"cells2": [`)
	// Keys near the word-compared keys of the schema: one byte short or
	// long, the last byte escaped, a NUL appended, the case changed.
	for _, k := range []string{"cell_type", "execution_count", "id", "metadata", "outputs", "source", "name",
		"output_type", "text", "data", "tags", "kernelspec", "display_name", "language", "nbformat",
		"nbformat_minor", "cells", "deep", "custom", "k", "a"} {
		old := `"` + k + `":`
		last := k[len(k)-1]
		for i, nk := range []string{k[:len(k)-1], k + "x", k[:len(k)-1] + fmt.Sprintf(`\u%04x`, last),
			k + `\u0000`, strings.ToUpper(k[:1]) + k[1:], k + k, strings.Repeat("k", len(k))} {
			add(fmt.Sprintf("key-%s-%d", k, i), old, `"`+nk+`":`)
			add(fmt.Sprintf("key2-%s-%d", k, i), old, `"`+nk+`": 1, `+old)
		}
	}
	// Every variant again as nbformat 4.0, 4.2 and 4.4 (each minor has its
	// own schema; ids are not allowed before 4.5).
	n := len(docs)
	for i := range n {
		d := string(docs[i])
		if !strings.Contains(d, `"nbformat_minor": 5`) || len(d) > 1<<16 {
			continue
		}
		for _, id := range []string{`"id": "a1",`, `"id": "b2",`, `"id": "c3",`} {
			d = strings.Replace(d, id, "", 1)
		}
		for _, minor := range []string{"0", "2", "4"} {
			names = append(names, names[i]+"@4."+minor)
			docs = append(docs, []byte(strings.Replace(d, `"nbformat_minor": 5`, `"nbformat_minor": `+minor, 1)))
		}
	}
	return names, docs
}

// TestAttackHostileVerdicts compares Validate's verdict on hostile
// variants with Python nbformat's strict verdict
// (scripts/reference/nbformat_verdict.py), and checks that every variant
// read writes back its bytes unedited.
func TestAttackHostileVerdicts(t *testing.T) {
	t.Parallel()
	testtier.Long(t)
	py := pythonNbformat(t)
	names, docs := hostileVariants()
	dir := t.TempDir()
	var paths []string
	for i, d := range docs {
		p := filepath.Join(dir, fmt.Sprintf("%04d.ipynb", i))
		if err := os.WriteFile(p, d, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	out, err := exec.Command(py, append([]string{referenceScript(t, "nbformat_verdict.py")}, paths...)...).Output()
	if err != nil {
		t.Fatalf("nbformat_verdict.py: %v", err)
	}
	verdict := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 && strings.HasPrefix(f[1], dir) {
			verdict[f[1]] = f[0]
		}
	}
	for i, d := range docs {
		py := verdict[paths[i]]
		nb, err := nbformat.Unmarshal(d)
		if err != nil {
			if py == "valid" || py == "invalid" {
				t.Logf("%s: Python reads it (%s), Unmarshal: %v", names[i], py, err)
			}
			continue
		}
		if out, err := nbformat.Marshal(nb); err != nil || !bytes.Equal(out, d) {
			t.Errorf("%s: unedited Marshal did not return the bytes read (err %v)", names[i], err)
		}
		if nb.Edited() {
			t.Errorf("%s: Edited() = true right after Unmarshal", names[i])
		}
		got := "valid"
		if err := nbformat.Validate(nb); err != nil {
			got = "invalid"
		}
		if py == "error" {
			t.Logf("%s: Python cannot read it; Go reads it, verdict %s", names[i], got)
			continue
		}
		if got != py {
			t.Errorf("%s: Validate says %s, Python nbformat %s", names[i], got, py)
		}
	}
}

// TestAttackEditAfterValidate validates a notebook (its verdict is then
// remembered), edits it through the API (pointers decoding gave, ids,
// metadata), validates again and compares with Python nbformat's verdict
// on what Marshal writes.
func TestAttackEditAfterValidate(t *testing.T) {
	t.Parallel()
	py := pythonNbformat(t)
	edits := []struct {
		name string
		f    func(nb *nbformat.Notebook)
	}{
		{"ec-negative-through-pointer", func(nb *nbformat.Notebook) { *nb.Cells[0].(*nbformat.CodeCell).ExecutionCount = -1 }},
		{"id-invalid", func(nb *nbformat.Notebook) { nbformat.SetCellID(nb.Cells[1], "b 2") }},
		{"id-duplicate", func(nb *nbformat.Notebook) { nbformat.SetCellID(nb.Cells[2], "a1") }},
		{"id-empty", func(nb *nbformat.Notebook) { nbformat.SetCellID(nb.Cells[2], "") }},
		{"celltype-field", func(nb *nbformat.Notebook) { nb.Cells[1].(*nbformat.MarkdownCell).CellType = "code" }},
		{"tags-dup-in-place", func(nb *nbformat.Notebook) {
			tags := nb.Cells[0].(*nbformat.CodeCell).Metadata.Tags
			nb.Cells[0].(*nbformat.CodeCell).Metadata.Tags = append(tags, tags[0])
		}},
		{"kernelspec-nil-field", func(nb *nbformat.Notebook) { nb.Metadata.Kernelspec.Name = "" }},
		{"minor-4-with-ids", func(nb *nbformat.Notebook) { nb.NbformatMinor = 4 }},
		{"output-nil-stream-name", func(nb *nbformat.Notebook) {
			nb.Cells[0].(*nbformat.CodeCell).Outputs[0].(*nbformat.Stream).Name = "stdwhat"
		}},
		{"swap-cells", func(nb *nbformat.Notebook) { nb.Cells[0], nb.Cells[1] = nb.Cells[1], nb.Cells[0] }},
		{"same-cell-twice", func(nb *nbformat.Notebook) { nb.Cells[2] = nb.Cells[0] }},
		{"extra-member", func(nb *nbformat.Notebook) {
			nb.Cells[1].(*nbformat.MarkdownCell).AdditionalProperties = map[string]any{"outputs": []any{}}
		}},
	}
	dir := t.TempDir()
	var paths []string
	var gots []string
	for i, e := range edits {
		nb := mustRead(t, []byte(attackNB))
		if err := nbformat.Validate(nb); err != nil {
			t.Fatalf("attackNB invalid: %v", err)
		}
		e.f(nb)
		got := "valid"
		if err := nbformat.Validate(nb); err != nil {
			got = "invalid"
		}
		out, err := nbformat.Marshal(nb)
		if err != nil {
			t.Logf("%s: Marshal: %v", e.name, err)
			out = nil
		}
		p := filepath.Join(dir, fmt.Sprintf("%02d.ipynb", i))
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		gots = append(gots, got)
	}
	out, err := exec.Command(py, append([]string{referenceScript(t, "nbformat_verdict.py")}, paths...)...).Output()
	if err != nil {
		t.Fatalf("nbformat_verdict.py: %v", err)
	}
	verdict := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			verdict[f[1]] = f[0]
		}
	}
	for i, e := range edits {
		if v := verdict[paths[i]]; v != gots[i] {
			t.Errorf("%s: Validate after the edit says %s, Python on Marshal's output %s", e.name, gots[i], v)
		}
	}
}

// TestAttackVerdictSequence edits one notebook back and forth between
// valid and invalid states (through pointers decoding gave, ids, new
// values equal to the originals), validating after each step: every
// verdict must be Python nbformat's on what Marshal writes at that step.
func TestAttackVerdictSequence(t *testing.T) {
	t.Parallel()
	py := pythonNbformat(t)
	nb := mustRead(t, []byte(attackNB))
	c0 := nb.Cells[0].(*nbformat.CodeCell)
	orig := c0.ExecutionCount
	three := 3
	steps := []struct {
		name string
		f    func()
	}{
		{"as read", func() {}},
		{"ec -1 in place", func() { *c0.ExecutionCount = -1 }},
		{"ec 5 in place", func() { *c0.ExecutionCount = 5 }},
		{"ec -2 in place", func() { *c0.ExecutionCount = -2 }},
		{"ec back to 3 in place", func() { *c0.ExecutionCount = 3 }},
		{"ec new pointer to 3", func() { c0.ExecutionCount = &three }},
		{"ec new pointer to -3", func() { three = -3 }},
		{"ec original pointer", func() { c0.ExecutionCount = orig }},
		{"id bad", func() { nbformat.SetCellID(c0, "a 1") }},
		{"id back", func() { nbformat.SetCellID(c0, "a1") }},
		{"id dup", func() { nbformat.SetCellID(nb.Cells[1], "a1") }},
		{"id undup", func() { nbformat.SetCellID(nb.Cells[1], "b2") }},
		{"cells swapped", func() { nb.Cells[0], nb.Cells[1] = nb.Cells[1], nb.Cells[0] }},
		{"cells swapped back", func() { nb.Cells[0], nb.Cells[1] = nb.Cells[1], nb.Cells[0] }},
		{"minor 4", func() { nb.NbformatMinor = 4 }},
		{"minor 5", func() { nb.NbformatMinor = 5 }},
	}
	dir := t.TempDir()
	var paths, gots []string
	for i, s := range steps {
		s.f()
		got := "valid"
		if err := nbformat.Validate(nb); err != nil {
			got = "invalid"
		}
		out := mustMarshal(t, nb)
		p := filepath.Join(dir, fmt.Sprintf("%02d.ipynb", i))
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		gots = append(gots, got)
	}
	out, err := exec.Command(py, append([]string{referenceScript(t, "nbformat_verdict.py")}, paths...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	verdict := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			verdict[f[1]] = f[0]
		}
	}
	for i, s := range steps {
		if v := verdict[paths[i]]; v != gots[i] {
			t.Errorf("step %d (%s): Validate says %s, Python on Marshal's output %s", i, s.name, gots[i], v)
		}
	}
}

// TestAttackCorpusByteMutations applies byte-level mutations to corpus
// notebooks (a repeated key whose first value is invalid or whose last
// is, escaped keys, another minor version) and compares Validate's
// verdict with Python nbformat's on each.
func TestAttackCorpusByteMutations(t *testing.T) {
	t.Parallel()
	testtier.Long(t)
	py := pythonNbformat(t)
	muts := []struct {
		name     string
		old, new string
		all      bool
	}{
		{"dup-ec-first-bad", `"execution_count": `, `"execution_count": "bad", "execution_count": `, false},
		{"dup-ec-last-bad", `"execution_count": `, `"execution_count": -5, "execution_count": `, false},
		{"escaped-celltype", `"cell_type"`, `"cell\u005ftype"`, true},
		{"escaped-source", `"source"`, `"sourc\u0065"`, true},
		{"escaped-otype", `"output_type"`, `"output\u005ftype"`, true},
		{"escaped-code", `"code"`, `"\u0063ode"`, true},
		{"minor4", `"nbformat_minor": 5`, `"nbformat_minor": 4`, false},
		{"minor5", `"nbformat_minor": 4`, `"nbformat_minor": 5`, false},
		{"dup-metadata", `"metadata": {`, `"metadata": [], "metadata": {`, false},
		{"dup-outputs", `"outputs": [`, `"outputs": {}, "outputs": [`, false},
	}
	dir := t.TempDir()
	var paths, what []string
	k := 0
	for e, data := range corpus.Files(t) {
		if len(data) > 256<<10 {
			continue
		}
		for _, m := range muts {
			k++
			if testing.Short() && k%4 != 0 {
				continue
			}
			s := string(data)
			if !strings.Contains(s, m.old) {
				continue
			}
			if m.all {
				s = strings.ReplaceAll(s, m.old, m.new)
			} else {
				s = strings.Replace(s, m.old, m.new, 1)
			}
			p := filepath.Join(dir, fmt.Sprintf("%05d.ipynb", len(paths)))
			if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
			what = append(what, e.Path+" "+m.name)
		}
	}
	verdict := map[string]string{}
	for start := 0; start < len(paths); start += 1000 {
		out, err := exec.Command(py, append([]string{referenceScript(t, "nbformat_verdict.py")}, paths[start:min(start+1000, len(paths))]...)...).Output()
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if f := strings.Fields(line); len(f) == 2 {
				verdict[f[1]] = f[0]
			}
		}
	}
	for i, p := range paths {
		v := verdict[p]
		data, _ := os.ReadFile(p)
		nb, err := nbformat.Unmarshal(data)
		if err != nil || v == "error" {
			continue
		}
		got := "valid"
		if nbformat.Validate(nb) != nil {
			got = "invalid"
		}
		if got != v {
			t.Errorf("%s: Validate says %s, Python nbformat %s", what[i], got, v)
		}
	}
	t.Logf("%d mutated corpus notebooks compared", len(paths))
}

package nbformat_test

// Attacks by edits through the API (input changed after reading, shared
// bundles, deep values, appends): Marshal writes what the notebook holds.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/internal/corpus"

	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// TestAttackInputCopied changes the caller's buffer after Unmarshal (which
// documents that it copies data): the notebook must not see it.
func TestAttackInputCopied(t *testing.T) {
	t.Parallel()
	data := []byte(attackNB)
	orig := bytes.Clone(data)
	nb := mustRead(t, data)
	for i := range data {
		if data[i] >= 'a' && data[i] <= 'z' {
			data[i] = 'Q'
		}
	}
	if id := nbformat.CellIDOf(nb.Cells[0]); id != "a1" {
		t.Errorf("cell id %q after the caller's buffer changed, want a1", id)
	}
	if out := mustMarshal(t, nb); !bytes.Equal(out, orig) {
		t.Errorf("Marshal after the caller's buffer changed is not the bytes read")
	}
}

// TestAttackMimeBundleDuplicateKeys reads output data with a repeated MIME
// type, in a small bundle and in one large enough to be indexed: the value
// read must be the last, as Python's json (and encoding/json) keep.
func TestAttackMimeBundleDuplicateKeys(t *testing.T) {
	t.Parallel()
	for _, extra := range []int{0, 5, 16, 20, 40} {
		var members []string
		for i := range extra {
			members = append(members, fmt.Sprintf(`"text/x-%d": "v%d"`, i, i))
		}
		members = append(members, `"text/plain": "first"`, `"text/y": "y"`, `"text/plain": "last"`)
		data := strings.Replace(attackNB, `"data": {"text/plain": ["3"]}`, `"data": {`+strings.Join(members, ", ")+`}`, 1)
		var ref struct {
			Cells []struct {
				Outputs []struct {
					Data map[string]any `json:"data"`
				} `json:"outputs"`
			} `json:"cells"`
		}
		if err := json.Unmarshal([]byte(data), &ref); err != nil {
			t.Fatal(err)
		}
		want := ref.Cells[0].Outputs[1].Data["text/plain"].(string)
		nb := mustRead(t, []byte(data))
		er := nb.Cells[0].(*nbformat.CodeCell).Outputs[1].(*nbformat.ExecuteResult)
		if got, _ := er.Data.Text("text/plain"); got != want {
			t.Errorf("%d other entries: Text(text/plain) = %q, encoding/json reads %q", extra, got, want)
		}
		if out := mustMarshal(t, nb); !bytes.Equal(out, []byte(data)) {
			t.Errorf("%d other entries: unedited Marshal changed the bytes", extra)
		}
	}
}

// TestAttackMimeBundleSharedCopy changes output data through a copy of the
// bundle (copies share storage, as documented): the notebook is edited.
func TestAttackMimeBundleSharedCopy(t *testing.T) {
	t.Parallel()
	nb := mustRead(t, []byte(attackNB))
	er := nb.Cells[0].(*nbformat.CodeCell).Outputs[1].(*nbformat.ExecuteResult)
	b := er.Data
	b.SetText("text/plain", "4")
	if !nb.Edited() {
		t.Errorf("bundle changed through a copy: Edited() = false")
	}
	out := mustMarshal(t, nb)
	var ref struct {
		Cells []struct {
			Outputs []struct {
				Data map[string]json.RawMessage `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(out, &ref); err != nil {
		t.Fatal(err)
	}
	if got := refMultiline(t, ref.Cells[0].Outputs[1].Data["text/plain"]); got != "4" {
		t.Errorf("text/plain written %q, want 4", got)
	}
}

// TestAttackMapDeleteReAdd deletes a metadata member and stores it back,
// and stores a member then deletes it: the notebook's values are those
// read, so Marshal must write the bytes read.
func TestAttackMapDeleteReAdd(t *testing.T) {
	t.Parallel()
	data := []byte(attackNB)
	nb := mustRead(t, data)
	ap := nb.Metadata.AdditionalProperties
	v := ap["custom"]
	delete(ap, "custom")
	ap["zzz"] = 1
	delete(ap, "zzz")
	ap["custom"] = v
	if out := mustMarshal(t, nb); !bytes.Equal(out, data) {
		t.Errorf("metadata deleted and restored: Marshal changed the bytes:\n%s", out)
	}
	cm := nb.Cells[0].(*nbformat.CodeCell).Metadata.AdditionalProperties
	deep := cm["deep"]
	cm["deep"] = "changed"
	if got := mustMarshal(t, nb); !bytes.Contains(got, []byte(`"deep": "changed"`)) {
		t.Errorf("cell metadata member changed: not written:\n%s", got)
	}
	cm["deep"] = deep
	if out := mustMarshal(t, nb); !bytes.Equal(out, data) {
		t.Errorf("cell metadata member restored: Marshal changed the bytes")
	}
}

// TestAttackSetEqualSource sets every cell's source to the text it has:
// nothing changed in value, so by contract 2 no byte may change.
func TestAttackSetEqualSource(t *testing.T) {
	t.Parallel()
	data := []byte(attackNB)
	nb := mustRead(t, data)
	for _, c := range nb.Cells {
		setSource(c, nbformat.SourceOf(c).String())
	}
	if out := mustMarshal(t, nb); !bytes.Equal(out, data) {
		t.Errorf("sources set to their own text: Marshal changed the bytes:\n%s", out)
	}
}

// TestAttackHealThenEdit heals a notebook, then edits it: the edit is
// written, and the healed notebook validates as Python says.
func TestAttackHealThenEdit(t *testing.T) {
	t.Parallel()
	data := []byte(strings.Replace(attackNB, `"execution_count": 4,`, `"execution_count": -4,`, 1))
	nb := mustRead(t, data)
	if nbformat.Validate(nb) == nil {
		t.Fatal("execution_count -4 validates")
	}
	if _, err := nbformat.Heal(nb); err != nil {
		t.Fatal(err)
	}
	if err := nbformat.Validate(nb); err != nil {
		t.Fatalf("after Heal: %v", err)
	}
	healed := mustMarshal(t, nb)
	nb.Cells[0].(*nbformat.CodeCell).Source.Set("after heal\n")
	seven := 7 // Heal may have cleared the count (it was -4)
	nb.Cells[2].(*nbformat.CodeCell).ExecutionCount = &seven
	out := mustMarshal(t, nb)
	if got := refSource(t, out, 0); got != "after heal\n" {
		t.Errorf("source written %q", got)
	}
	var ref struct {
		Cells []struct {
			EC *int `json:"execution_count"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(out, &ref); err != nil {
		t.Fatal(err)
	}
	if ref.Cells[2].EC == nil || *ref.Cells[2].EC != 7 {
		t.Errorf("execution count after heal+edit: %v, want 7", ref.Cells[2].EC)
	}
	if bytes.Equal(out, healed) {
		t.Errorf("edit after Heal not written")
	}
}

// TestAttackUpgradeThenEdit upgrades a version 3 notebook, then edits the
// upgraded cells in place: every edit is written, and the result
// validates as Python nbformat says.
func TestAttackUpgradeThenEdit(t *testing.T) {
	t.Parallel()
	py := pythonNbformat(t)
	data, err := os.ReadFile(filepath.Join("..", "testdata", "v3.ipynb"))
	if err != nil {
		t.Skip(err)
	}
	nb := mustRead(t, data)
	if err := nbformat.Upgrade(nb); err != nil {
		t.Fatal(err)
	}
	up := mustMarshal(t, nb)
	if nb.Edited() && bytes.Equal(up, data) {
		t.Errorf("upgraded notebook writes the version 3 bytes")
	}
	if len(nb.Cells) == 0 {
		t.Fatal("no cells after Upgrade")
	}
	var want []string
	for i, c := range nb.Cells {
		s := fmt.Sprintf("cell %d edited after upgrade\n", i)
		setSource(c, s)
		want = append(want, s)
		if cc, ok := c.(*nbformat.CodeCell); ok && cc.ExecutionCount != nil {
			*cc.ExecutionCount = 40 + i
		}
	}
	out := mustMarshal(t, nb)
	for i, s := range want {
		if _, ok := nb.Cells[i].(*nbformat.UnknownCell); ok {
			continue
		}
		if got := refSource(t, out, i); got != s {
			t.Errorf("cell %d: source written %q, want %q", i, got, s)
		}
	}
	cells, _ := refCells(out)
	for i, c := range nb.Cells {
		if cc, ok := c.(*nbformat.CodeCell); ok && cc.ExecutionCount != nil {
			if n, err := cells[i].EC.Int64(); err != nil || n != int64(40+i) {
				t.Errorf("cell %d: execution count written %v, want %d", i, cells[i].EC, 40+i)
			}
		}
	}
	p := filepath.Join(t.TempDir(), "up.ipynb")
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := exec.Command(py, referenceScript(t, "nbformat_verdict.py"), p).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := "valid"
	if err := nbformat.Validate(nb); err != nil {
		got = "invalid"
	}
	if !strings.HasPrefix(string(v), got+" ") {
		t.Errorf("Validate after upgrade+edit: %s; Python: %s", got, strings.Fields(string(v))[0])
	}
}

// TestAttackDeepValues reads notebooks nested just within the default
// depth limit (10,000) in metadata, in JSON output data and in an unknown
// cell, then validates, heals, edits and writes them (plain and canonical):
// each must answer (no stack overflow), and an edit elsewhere must keep the
// deep value's bytes.
func TestAttackDeepValues(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("large inputs")
	}
	const depth = 9990
	deep := strings.Repeat(`{"a": [`, depth/2) + "1" + strings.Repeat("]}", depth/2)
	for name, old := range map[string]string{
		"metadata":    `"custom": {"a": {"b": [1, 2, 3]}}`,
		"cellmeta":    `"deep": {"k": [1, 2, {"z": "w"}]}`,
		"mime":        `"text/plain": ["3"]`,
		"unknowncell": `"cell_type": "markdown",`,
	} {
		repl := map[string]string{
			"metadata":    `"custom": ` + deep,
			"cellmeta":    `"deep": ` + deep,
			"mime":        `"application/json": ` + deep,
			"unknowncell": `"cell_type": "weird", "x": ` + deep + `,`,
		}[name]
		data := []byte(strings.Replace(attackNB, old, repl, 1))
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		_ = nbformat.Validate(nb)
		if out := mustMarshal(t, nb); !bytes.Equal(out, data) {
			t.Errorf("%s: unedited Marshal changed the bytes", name)
		}
		_, _ = nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
		nb.Cells[2].(*nbformat.CodeCell).Source.Set("edited")
		out := mustMarshal(t, nb)
		if !bytes.Contains(out, []byte(repl)) {
			t.Errorf("%s: an edit elsewhere changed the deep value's bytes", name)
		}
		_ = nbformat.Validate(nb)
		if _, err := nbformat.Heal(nb); err != nil {
			t.Logf("%s: Heal: %v", name, err)
		}
		_ = mustMarshal(t, nb)
	}
}

// TestAttackAppendToEverySlice finds every slice reachable through the
// exported fields, maps and interfaces of decoded notebooks (testdata and
// corpus) and of Decode's values, and appends to each within its
// capacity: that must never write into another value (the notebook still
// writes the bytes read; the decoded value still encodes as before).
func TestAttackAppendToEverySlice(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	var inputs [][]byte
	inputs = append(inputs, []byte(attackNB))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			inputs = append(inputs, b)
		}
	}
	if corpus.Shared() != "" {
		k := 0
		for _, data := range corpus.Files(t) {
			if k++; k%3 == 0 || testtier.Full() {
				inputs = append(inputs, data)
			}
		}
	}
	spare := 0
	for _, data := range inputs {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			continue
		}
		before := mustMarshal(t, nb)
		spare += appendEverywhere(reflect.ValueOf(&nb.Document), 0)
		if after := mustMarshal(t, nb); !bytes.Equal(after, before) {
			t.Errorf("appending within capacity to a slice of a notebook changed another value:\n%s", nbtestDiff(before, after))
		}
		for _, v := range nb.Metadata.AdditionalProperties {
			raw, ok := v.(json.RawMessage)
			if !ok {
				continue
			}
			dv, err := nbformat.Decode(raw)
			if err != nil {
				continue
			}
			want, _ := json.Marshal(dv)
			spare += appendEverywhere(reflect.ValueOf(&dv), 0)
			if got, _ := json.Marshal(dv); !bytes.Equal(got, want) {
				t.Errorf("appending within capacity to a slice Decode made changed another value:\n%s\n%s", want, got)
			}
		}
	}
	t.Logf("%d slices had spare capacity", spare)
}

func nbtestDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-80)
	return fmt.Sprintf("at byte %d: %q vs %q", i, a[lo:min(len(a), i+80)], b[lo:min(len(b), i+80)])
}

// appendEverywhere appends a non-zero element to every slice it reaches
// whose capacity exceeds its length (a copy of the header: the value
// itself is unchanged) and returns how many it found.
func appendEverywhere(v reflect.Value, depth int) int {
	if depth > 200 || !v.IsValid() {
		return 0
	}
	n := 0
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			n += appendEverywhere(v.Elem(), depth+1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				n += appendEverywhere(v.Field(i), depth+1)
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			n += appendEverywhere(it.Value(), depth+1)
		}
	case reflect.Slice:
		for i := range v.Len() {
			n += appendEverywhere(v.Index(i), depth+1)
		}
		if v.Cap() > v.Len() {
			n++
			junk := reflect.New(v.Type().Elem()).Elem()
			switch junk.Kind() {
			case reflect.String:
				junk.SetString("JUNK")
			case reflect.Uint8:
				junk.SetUint('!')
			case reflect.Interface:
				junk.Set(reflect.ValueOf("JUNK"))
			}
			grown := v.Slice3(0, v.Len(), v.Cap())
			for grown.Len() < grown.Cap() {
				grown = reflect.Append(grown, junk)
			}
		}
	}
	return n
}

type marshalerValue struct{ s string }

func (m marshalerValue) MarshalJSON() ([]byte, error) { return []byte(`{"custom":"` + m.s + `"}`), nil }

type textValue int

func (v textValue) MarshalText() ([]byte, error) { return []byte(fmt.Sprintf("t%d", int(v))), nil }

// TestAttackStrangeStoredValues stores in metadata values of every kind
// encoding/json knows (and some it refuses) and writes the notebook: no
// call may panic, and what Marshal writes for the member is what
// encoding/json writes for it (compared as JSON values).
func TestAttackStrangeStoredValues(t *testing.T) {
	t.Parallel()
	ch := make(chan int)
	n := 5
	values := map[string]any{
		"int-keys":  map[int]string{1: "a", -2: "b"},
		"text-keys": map[textValue]int{3: 1},
		"bytes":     []byte("hello"),
		"struct": struct {
			A int
			B string `json:"b,omitempty"`
			c int
		}{A: 1},
		"ptr-struct":  &struct{ X *int }{X: &n},
		"marshaler":   marshalerValue{"m"},
		"marshalerp":  &marshalerValue{"p"},
		"textvalue":   textValue(7),
		"array":       [3]int{1, 2, 3},
		"nil-slice":   []string(nil),
		"nil-map":     map[string]any(nil),
		"nil-ptr":     (*int)(nil),
		"float32":     float32(0.1),
		"big-uint":    uint64(1<<64 - 1),
		"neg-zero":    math.Copysign(0, -1),
		"tiny":        5e-324,
		"rawmsg":      json.RawMessage(`{"a" : [1,2] }`),
		"number":      json.Number("1e400"),
		"nested-any":  []any{map[string]any{"x": []any{1, "2", nil, true}}},
		"html":        "<script>&</script>\u2028",
		"invalid-utf": "a\xffb",
		"chan":        ch,
		"func":        func() {},
		"nan":         math.NaN(),
		"inf":         math.Inf(1),
		"bad-rawmsg":  json.RawMessage(`{"a":`),
		"bad-number":  json.Number("12abc"),
	}
	for name, v := range values {
		t.Run(name, func(t *testing.T) {
			ref, refErr := json.Marshal(v)
			nb := mustRead(t, []byte(attackNB))
			nb.Metadata.AdditionalProperties["strange"] = v
			var out []byte
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("panic: %v", r)
					}
				}()
				_ = nb.Edited()
				_ = nbformat.Validate(nb)
				out, err = nbformat.Marshal(nb)
				_, _ = nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
			}()
			if err != nil || refErr != nil {
				if err == nil && name != "nan" && name != "inf" {
					t.Errorf("encoding/json refuses it (%v), Marshal writes it", refErr)
				}
				return
			}
			var doc struct {
				Metadata map[string]any `json:"metadata"`
			}
			dec := json.NewDecoder(bytes.NewReader(out))
			dec.UseNumber()
			if e := dec.Decode(&doc); e != nil {
				t.Fatalf("Marshal wrote JSON encoding/json cannot read: %v", e)
			}
			var want any
			dec = json.NewDecoder(bytes.NewReader(ref))
			dec.UseNumber()
			_ = dec.Decode(&want)
			if diff := cmp.Diff(numbersAsFloats(want), numbersAsFloats(doc.Metadata["strange"])); diff != "" {
				t.Errorf("written %#v, encoding/json writes %s (-encoding/json +written):\n%s", doc.Metadata["strange"], ref, diff)
			}
		})
	}
}

// numbersAsFloats replaces the numbers of a value decoded with UseNumber
// by their float64 values where finite (spelling aside: -0.0 is -0).
func numbersAsFloats(v any) any {
	switch v := v.(type) {
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return f
		}
		return v
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = numbersAsFloats(x)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = numbersAsFloats(x)
		}
		return out
	}
	return v
}

// TestAttackTypedNils stores typed nil cells and outputs and nil pointers
// where decoding puts values: every call must answer, none may panic.
func TestAttackTypedNils(t *testing.T) {
	t.Parallel()
	edits := map[string]func(nb *nbformat.Notebook){
		"nil-code-cell":     func(nb *nbformat.Notebook) { nb.Cells[0] = (*nbformat.CodeCell)(nil) },
		"nil-markdown-cell": func(nb *nbformat.Notebook) { nb.Cells[1] = (*nbformat.MarkdownCell)(nil) },
		"nil-unknown-cell":  func(nb *nbformat.Notebook) { nb.Cells[1] = (*nbformat.UnknownCell)(nil) },
		"nil-cell":          func(nb *nbformat.Notebook) { nb.Cells[1] = nil },
		"nil-stream":        func(nb *nbformat.Notebook) { nb.Cells[0].(*nbformat.CodeCell).Outputs[0] = (*nbformat.Stream)(nil) },
		"nil-result": func(nb *nbformat.Notebook) {
			nb.Cells[0].(*nbformat.CodeCell).Outputs[1] = (*nbformat.ExecuteResult)(nil)
		},
		"nil-unknown-output": func(nb *nbformat.Notebook) {
			nb.Cells[0].(*nbformat.CodeCell).Outputs[1] = (*nbformat.UnknownOutput)(nil)
		},
		"nil-kernelspec": func(nb *nbformat.Notebook) { nb.Metadata.Kernelspec = nil },
		"nil-cells":      func(nb *nbformat.Notebook) { nb.Cells = nil },
		"nil-ap":         func(nb *nbformat.Notebook) { nb.Metadata.AdditionalProperties = nil },
		"nil-ap-cell":    func(nb *nbformat.Notebook) { nb.Cells[0].(*nbformat.CodeCell).AdditionalProperties = nil },
		"nil-output-meta": func(nb *nbformat.Notebook) {
			nb.Cells[0].(*nbformat.CodeCell).Outputs[1].(*nbformat.ExecuteResult).Metadata = nil
		},
		"zero-bundle": func(nb *nbformat.Notebook) {
			nb.Cells[0].(*nbformat.CodeCell).Outputs[1].(*nbformat.ExecuteResult).Data = nbformat.MimeBundle{}
		},
		"zero-multiline": func(nb *nbformat.Notebook) {
			nb.Cells[0].(*nbformat.CodeCell).Source = nbformat.MultilineString{}
		},
	}
	for name, f := range edits {
		t.Run(name, func(t *testing.T) {
			nb := mustRead(t, []byte(attackNB))
			f(nb)
			call := func(what string, g func()) {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s panics: %v (at %s)", what, r, panicSite())
					}
				}()
				g()
			}
			call("Edited", func() { _ = nb.Edited() })
			call("Validate", func() { _ = nbformat.Validate(nb) })
			call("Marshal", func() {
				out, err := nbformat.Marshal(nb)
				if err == nil {
					if _, ok := refCells(out); !ok && !strings.HasPrefix(name, "nil-cells") {
						t.Errorf("Marshal wrote JSON encoding/json cannot read")
					}
				} else if !strings.HasPrefix(err.Error(), "nbformat: ") {
					t.Errorf("error without the package prefix: %v", err)
				}
			})
			call("Marshal canonical", func() { _, _ = nbformat.MarshalOptions{Canonical: true}.Marshal(nb) })
			call("Heal", func() { _, _ = nbformat.Heal(nb) })
			call("Upgrade", func() { _ = nbformat.Upgrade(nb) })
			call("Marshal after Heal", func() { _, _ = nbformat.Marshal(nb) })
		})
	}
}

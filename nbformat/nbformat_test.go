package nbformat_test

// Tests on the testdata notebooks: round trip, canonical bytes, validation, and
// edits in each file's style as Python's json writes them.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/nbformat"
)

// The notebooks in ../testdata are built by scripts/reference/make_testdata.py
// (one per writer style) and their expectations by Python nbformat:
// testdata/canonical (nbformat's bytes), testdata/verdicts.txt (its strict
// schema verdicts) and testdata/edits (make_edits.py: fixed edits written in
// each file's own style).

func testdataFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata notebooks: %v", err)
	}
	return files
}

func readNotebook(t *testing.T, path string) ([]byte, *nbformat.Notebook) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return data, nb
}

func TestRoundTripTestdata(t *testing.T) {
	t.Parallel()
	for _, path := range testdataFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, nb := readNotebook(t, path)
			got, err := nbformat.Marshal(nb)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, data) {
				t.Errorf("round trip differs %s", firstDiff(data, got))
			}
		})
	}
}

func TestCanonicalTestdata(t *testing.T) {
	t.Parallel()
	for _, path := range testdataFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, nb := readNotebook(t, path)
			want, err := os.ReadFile(filepath.Join("..", "testdata", "canonical", filepath.Base(path)))
			if os.IsNotExist(err) {
				want = data // nbformat writes it unchanged (or it is v3, written by nbformat's v3 writer)
			} else if err != nil {
				t.Fatal(err)
			}
			got, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("canonical differs %s", firstDiff(want, got))
			}
			// Canonical output is a fixed point.
			again, err := nbformat.Unmarshal(got)
			if err != nil {
				t.Fatal(err)
			}
			got2, _ := (nbformat.MarshalOptions{Canonical: true}).Marshal(again)
			if !bytes.Equal(got2, got) {
				t.Errorf("canonical output is not canonical %s", firstDiff(got, got2))
			}
		})
	}
}

func TestValidateTestdata(t *testing.T) {
	t.Parallel()
	f, err := os.Open(filepath.Join("..", "testdata", "verdicts.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		verdict, name, ok := strings.Cut(sc.Text(), " ")
		if !ok || !strings.HasSuffix(name, ".ipynb") {
			continue
		}
		n++
		_, nb := readNotebook(t, filepath.Join("..", "testdata", name))
		err := nbformat.Validate(nb)
		got := "invalid"
		if err == nil {
			got = "valid"
		}
		if got != verdict {
			t.Errorf("%s: Validate says %s, Python nbformat says %s: %v", name, got, verdict, err)
		}
	}
	if n == 0 {
		t.Fatal("no verdicts")
	}
}

// invalid.ipynb was made invalid in four known ways (make_testdata.py).
func TestValidateReportsEveryProblem(t *testing.T) {
	t.Parallel()
	_, nb := readNotebook(t, filepath.Join("..", "testdata", "invalid.ipynb"))
	before, _ := nbformat.Marshal(nb)
	err := nbformat.Validate(nb)
	var ve *nbformat.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("Validate = %v, want *ValidationError problems", err)
	}
	type problem struct{ Pointer, Keyword string }
	var got []problem
	for _, p := range nbformat.Problems(err) {
		got = append(got, problem{string(p.Pointer), p.Keyword})
	}
	want := []problem{
		{"/cells/0/outputs", "additionalProperties"},
		{"/cells/2/id", "unique"},
		{"/cells/4/execution_count", "minimum"},
		{"/cells/6", "required"},
	}
	slices.SortFunc(got, func(a, b problem) int { return strings.Compare(a.Pointer, b.Pointer) })
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	after, _ := nbformat.Marshal(nb)
	if !bytes.Equal(before, after) {
		t.Error("Validate changed the notebook")
	}
}

// Contract 2: the same edits, made through the API, give the bytes Python's
// json module writes in each file's own style (scripts/reference/make_edits.py).
func TestEditsKeepStyle(t *testing.T) {
	t.Parallel()
	edits, err := filepath.Glob(filepath.Join("..", "testdata", "edits", "*.ipynb"))
	if err != nil || len(edits) == 0 {
		t.Fatalf("no edit expectations: %v", err)
	}
	for _, wantPath := range edits {
		name := filepath.Base(wantPath)
		t.Run(name, func(t *testing.T) {
			_, nb := readNotebook(t, filepath.Join("..", "testdata", name))
			want, err := os.ReadFile(wantPath)
			if err != nil {
				t.Fatal(err)
			}
			code := nb.Cells[1].(*nbformat.CodeCell)
			code.Source.Set("print('edited')\n# é ☕\n")
			nb.Cells = slices.Delete(nb.Cells, 2, 3)
			// Unknown metadata objects are kept as their JSON text.
			if raw, ok := nb.Metadata.AdditionalProperties["my_app"].(json.RawMessage); ok {
				g, err := nbformat.Decode(raw)
				if err != nil {
					t.Fatal(err)
				}
				app := g.(map[string]any)
				app["version"] = 2
				nb.Metadata.AdditionalProperties["my_app"] = app
			} else if x, has := nb.Metadata.AdditionalProperties["my_app"]; has {
				t.Fatalf("my_app is a %T, not json.RawMessage", x)
			}
			md := &nb.Cells[0].(*nbformat.MarkdownCell).Metadata
			if md.AdditionalProperties == nil {
				md.AdditionalProperties = map[string]any{}
			}
			md.AdditionalProperties["added"] = true
			cell := &nbformat.MarkdownCell{Source: nbformat.Text("New *cell*\nline 2")}
			if nb.NbformatMinor >= 5 {
				cell.ID = "newcell1"
			}
			nb.Cells = append(nb.Cells, cell)
			got, err := nbformat.Marshal(nb)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("edited notebook differs %s", firstDiff(want, got))
			}
		})
	}
}

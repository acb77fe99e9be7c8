package nbformat

// Tests that validating the tape of a valid notebook allocates nothing.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// Validating the tape of a valid notebook (the schema of its version,
// then unique cell ids) allocates nothing, whatever its version and size:
// the compiled schema is found without naming its file, nothing is
// sorted, ids are compared on the stack.
func TestLocateProblemsAllocatesNothing(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	docs := map[string][]byte{}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[filepath.Base(p)] = data
	}
	var cells []string
	for i := range 100 {
		cells = append(cells, fmt.Sprintf(`{"cell_type": "code", "execution_count": %d, "id": "c%d", "metadata": {"tags": ["a"]}, "outputs": [{"name": "stdout", "output_type": "stream", "text": ["x\n"]}], "source": ["print(%d)"]}`, i, i, i))
	}
	docs["100 cells"] = []byte(`{"cells": [` + strings.Join(cells, ", ") + `], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	valid := 0
	for name, data := range docs {
		tp, err := jsontree.ParseShaped(data, jsontree.Limits{MaxDepth: defaultMaxDepth}, notebookShape())
		if err != nil || len(locateProblems(tp)) > 0 {
			continue
		}
		valid++
		if n := testing.AllocsPerRun(10, func() { locateProblems(tp) }); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
	if valid < 10 {
		t.Errorf("only %d valid notebooks", valid)
	}
}

package nbformat

// Tests of validation on lazy tapes: the verdicts of full tapes, on the corpus,
// hand-made and fuzzed notebooks.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbvalid"
)

// verdicts lists the problems of a tape as "pointer keyword msg" lines.
func verdicts(t *jsontree.Tape) string {
	var b strings.Builder
	for _, f := range locateProblems(t) {
		fmt.Fprintf(&b, "%s %s %s\n", f.err.Pointer, f.err.Keyword, f.err.Msg)
	}
	return b.String()
}

// checkLazyVerdicts compares validation of the shaped (lazy) tape of data
// with validation of its full parse, and reports whether the lazy one had
// to fall back to a full parse.
func checkLazyVerdicts(t *testing.T, name string, data []byte) (fellBack bool) {
	t.Helper()
	lazy, err := jsontree.ParseShaped(data, jsontree.Limits{MaxDepth: defaultMaxDepth}, notebookShape())
	if err != nil {
		return false
	}
	full, err := jsontree.Parse(data, jsontree.Limits{MaxDepth: defaultMaxDepth})
	if err != nil {
		t.Fatalf("%s: shaped parse accepted what Parse refuses: %v", name, err)
	}
	before := nbvalid.LazyFallbacks.Load()
	got := verdicts(lazy)
	fellBack = nbvalid.LazyFallbacks.Load() != before
	if want := verdicts(full); got != want {
		t.Errorf("%s: verdicts on the lazy tape differ from the full tape's:\n%s\nwant:\n%s", name, got, want)
	}
	return fellBack
}

// Validation on lazy tapes gives the verdicts of full tapes, on every corpus
// file and every version, without ever needing the lazy interiors (the
// shape foresees what every schema reads), while recording far fewer nodes
// on files with open metadata.
func TestLazyVerdictsCorpus(t *testing.T) {
	n, lazyNodes, fullNodes := 0, 0, 0
	for e, data := range corpus.Sample(t) {
		if checkLazyVerdicts(t, e.Path, data) {
			t.Errorf("%s: validation needed a lazy interior", e.Path)
		}
		if lt, err := jsontree.ParseShaped(data, jsontree.Limits{}, notebookShape()); err == nil {
			ft, _ := jsontree.Parse(data, jsontree.Limits{})
			lazyNodes += len(lt.Nodes)
			fullNodes += len(ft.Nodes)
		}
		n++
	}
	t.Logf("%d files; %d nodes recorded of %d values", n, lazyNodes, fullNodes)
}

// The same on hand-made notebooks with problems in every kind of place,
// lazy places included (an invalid value where the schema is open has no
// problem to report; one where it is not is reported the same).
func TestLazyVerdictsInvalid(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkLazyVerdicts(t, p, data)
	}
	cell := func(md string) string {
		return `{"nbformat": 4, "nbformat_minor": 5, "metadata": {"x": [1, {"a": [2]}]}, "cells": [` + md + `]}`
	}
	for _, s := range []string{
		cell(`{"cell_type": "code", "id": "a", "metadata": {"tags": [1, [2], {"a": 1}], "jupyter": {"source_hidden": [1]}, "y": {"z": [1]}}, "source": [1, [2]], "outputs": [{"output_type": "stream", "name": "stdout", "text": [[1]]}], "execution_count": null}`),
		cell(`{"cell_type": "code", "id": "a", "metadata": {}, "source": "", "outputs": [{"output_type": "display_data", "data": {"text/plain": [["x"]], "application/json": {"a": [1]}, "image/png": {"b": 1}}, "metadata": {"image/png": {"width": [1]}}}], "execution_count": null}`),
		cell(`{"cell_type": "markdown", "id": "a", "metadata": {"tags": ["a", "a"]}, "source": "", "attachments": {"a.png": {"image/png": [1, {"x": 2}]}, "b": [1]}}`),
		cell(`{"cell_type": "weird", "id": "a", "metadata": {"k": [1]}, "source": {"a": [1]}}`),
		cell(`[1, {"a": [1]}]`),
		`{"nbformat": 4, "nbformat_minor": 99, "metadata": {"kernelspec": {"name": [1]}}, "cells": [{"cell_type": "x", "metadata": {"tags": [[1]]}, "y": [1]}]}`,
		`{"nbformat": 3, "nbformat_minor": 0, "metadata": {"a": [1]}, "worksheets": [{"cells": [{"cell_type": "code", "input": [1, [2]], "outputs": [{"output_type": "pyout", "png": [1], "metadata": {"a": [1]}}], "language": "python", "collapsed": false}], "metadata": {"b": [1]}}]}`,
		`{"nbformat": 4, "nbformat_minor": 0, "metadata": {"language_info": {"name": "python", "codemirror_mode": {"name": [1]}}}, "cells": []}`,
		`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": {"a": [1]}}`,
		`{"nbformat": 4, "nbformat_minor": 5, "metadata": [1, {"a": 2}], "cells": [], "extra": {"a": [1]}}`,
	} {
		if checkLazyVerdicts(t, s, []byte(s)) {
			t.Logf("fell back: %s", s)
		}
	}
}

// FuzzLazyVerdicts: for any input, the lazy tape's verdicts are the full
// tape's.
func FuzzLazyVerdicts(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range files {
		data, _ := os.ReadFile(p)
		f.Add(data)
	}
	f.Add([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {"x": [1]}, "cells": [{"cell_type": "code", "metadata": {"tags": [[1]]}, "outputs": [{"output_type": "display_data", "data": {"application/json": [1]}, "metadata": {}}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLazyVerdicts(t, "input", data)
	})
}

// Containers where the schema wants a scalar of an enum (a stream's name,
// a cell or output type) are refused without reading them.
func TestLazyEnumPlaces(t *testing.T) {
	big := `{"x": [` + strings.TrimSuffix(strings.Repeat("0, ", 1000), ", ") + `]}`
	for _, s := range []string{
		`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "id": "a", "metadata": {}, "source": "", "execution_count": null, "outputs": [{"output_type": "stream", "name": ` + big + `, "text": ""}]}]}`,
		`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": ` + big + `, "id": "a", "metadata": {}, "source": ""}]}`,
		`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "id": "a", "metadata": {}, "source": "", "execution_count": null, "outputs": [{"output_type": ` + big + `}]}]}`,
	} {
		if checkLazyVerdicts(t, s, []byte(s)) {
			t.Errorf("validation read a lazy container: %.120s", s)
		}
	}
}

package nbformat_test

// Tests that duplicate cell ids are found as Python finds them, whatever their
// spelling.

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// Duplicate cell ids are found as Python finds them: by the ids' values,
// whatever their spelling (escapes), each duplicate reported at its cell.
// The expected places come from Python's json module and nbformat's
// isvalid over the same bytes.
func TestValidateDuplicateIDsLikePython(t *testing.T) {
	t.Parallel()
	py := "/usr/bin/python3"
	if _, err := exec.LookPath(py); err != nil || exec.Command(py, "-c", "import nbformat").Run() != nil {
		t.Skip("Python nbformat not available")
	}
	idLists := [][]string{
		{`"a"`, `"b"`, `"c"`},
		{`"a"`, `"\u0061"`},
		{`"ab-1"`, `"b"`, `"ab-1"`, `"\u0062"`, `"ab\u002d1"`},
		{`"x\"y"`, `"x\u0022y"`, `"xy"`},
		{`"\u00e9t\u00e9"`, `"été"`, `"ete"`},
	}
	const script = `
import json, sys, nbformat
for line in sys.stdin:
    nb = json.loads(line)
    seen, dups = set(), []
    for i, c in enumerate(nb["cells"]):
        if c["id"] in seen:
            dups.append("/cells/%d/id" % i)
        seen.add(c["id"])
    print(json.dumps({"dups": dups, "valid": nbformat.validator.isvalid(nb)}))
`
	var docs []string
	for _, ids := range idLists {
		var cells []string
		for _, id := range ids {
			cells = append(cells, fmt.Sprintf(`{"cell_type": "markdown", "id": %s, "metadata": {}, "source": ""}`, id))
		}
		docs = append(docs, `{"cells": [`+strings.Join(cells, ", ")+`], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	}
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(strings.Join(docs, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(docs) {
		t.Fatalf("python printed %d lines for %d notebooks", len(lines), len(docs))
	}
	for i, doc := range docs {
		var want struct {
			Dups  []string
			Valid bool
		}
		if err := json.Unmarshal([]byte(lines[i]), &want); err != nil {
			t.Fatal(err)
		}
		nb, err := nbformat.Unmarshal([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		verr := nbformat.Validate(nb)
		if (verr == nil) != want.Valid {
			t.Errorf("%s: Validate = %v, Python isvalid = %v", doc, verr, want.Valid)
		}
		var got []string
		for _, p := range nbformat.Problems(verr) {
			if p.Keyword == "unique" {
				got = append(got, string(p.Pointer))
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want.Dups) {
			t.Errorf("%s: duplicates at %v, Python: %v", doc, got, want.Dups)
		}
	}
}

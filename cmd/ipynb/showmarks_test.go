package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// A row longer than --width keeps its mark: a long prompt still shows
// that it has a reply, a long cell that it has outputs; --json's
// output_bytes is the row's out(N B), and its outputs how many there are.
func TestShowKeepsMarks(t *testing.T) {
	long := strings.Repeat("why is the sky blue ", 10)
	nb := `{"cells": [
 {"cell_type": "markdown", "id": "p1", "metadata": {"solveit_ai": true}, "source": "` + long + `\n\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\nRayleigh."},
 {"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {}, "outputs": [{"name": "stdout", "output_type": "stream", "text": "a\n"}, {"name": "stdout", "output_type": "stream", "text": "b\n"}], "source": "` + long + `"}
], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	r := ipynb(t, ".", nb, "show", "--width", "40", "-")
	rows := strings.Split(r.stdout, "\n")
	if len(rows) < 4 || !strings.HasSuffix(rows[1], "… ⇒ reply(9)") || !regexp.MustCompile(`^c1:c:why.*… ⇒ out\(\d+ B\)$`).MatchString(rows[3]) {
		t.Fatalf("rows at --width 40:\n%s", r.stdout)
	}
	for _, row := range rows[1:4] {
		if n := utf8.RuneCountInString(row); n > 40 {
			t.Errorf("row of %d characters: %q", n, row)
		}
	}
	j := ipynb(t, ".", nb, "show", "--json", "-")
	var got []struct {
		Outputs int `json:"outputs"`
		Bytes   int `json:"output_bytes"`
	}
	if err := json.Unmarshal([]byte(j.stdout), &got); err != nil || len(got) != 2 {
		t.Fatalf("--json: %v\n%s", err, j.stdout)
	}
	// The outputs as encoding/json writes them.
	want, _ := json.Marshal([]any{
		map[string]any{"name": "stdout", "output_type": "stream", "text": "a\n"},
		map[string]any{"name": "stdout", "output_type": "stream", "text": "b\n"},
	})
	if got[1].Outputs != 2 || got[1].Bytes != len(want) || !strings.HasSuffix(rows[3], fmt.Sprintf(" ⇒ out(%d B)", len(want))) {
		t.Errorf("outputs %d, output_bytes %d, row %q; want 2, %d", got[1].Outputs, got[1].Bytes, rows[3], len(want))
	}
}

package main

// Merges of one large text output (over 1 MiB: base is reduced and its output read apart; and of 200 kB, base read whole) that both sides changed: merged as git merge-file merges the text, or both sides' outputs between markers.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bigTextNotebook is a notebook whose one code cell has one display_data
// output whose text/plain is text, one JSON string.
func bigTextNotebook(t *testing.T, text string) []byte {
	t.Helper()
	nb := map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}, "cells": []any{
		map[string]any{"cell_type": "markdown", "id": "m1", "metadata": map[string]any{}, "source": "# Lines"},
		map[string]any{"cell_type": "code", "id": "c1", "execution_count": 1, "metadata": map[string]any{}, "source": "show(lines)",
			"outputs": []any{map[string]any{"output_type": "display_data", "metadata": map[string]any{}, "data": map[string]any{"text/plain": text}}}},
	}}
	data, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(data, '\n')
}

// outputTexts returns the text of each output of the code cell of the
// notebook at path: a stream's text or a display's text/plain, joined.
func outputTexts(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Outputs []struct {
				Text json.RawMessage `json:"text"`
				Data map[string]json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatal(err)
	}
	joined := func(raw json.RawMessage) string {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		var list []string
		if err := json.Unmarshal(raw, &list); err != nil {
			t.Fatalf("%s: not a text", raw)
		}
		return strings.Join(list, "")
	}
	var out []string
	for _, o := range nb.Cells[1].Outputs {
		if o.Text != nil {
			out = append(out, joined(o.Text))
		} else {
			out = append(out, joined(o.Data["text/plain"]))
		}
	}
	return out
}

// Both sides changed a large text output: where git merge-file merges
// the text cleanly, the merge holds the text it gives (exit 0); where it
// conflicts (both changed its first line, or a line in its middle, or
// rewrote every line), ours' output and theirs' between marker outputs
// (exit 1).
func TestMergeBigTextOutput(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, size := range []int{1200000, 200000} {
		var lines []string
		for i := 0; len(strings.Join(lines, "")) < size; i++ {
			lines = append(lines, fmt.Sprintf("B line %d %s\n", i, strings.Repeat("y", 60)))
		}
		set := func(i int, s string) []string {
			out := append([]string(nil), lines...)
			out[i] = s
			return out
		}
		all := func(by string) []string {
			out := make([]string, len(lines))
			for i, l := range lines {
				out[i] = strings.Replace(l, "B", by, 1)
			}
			return out
		}
		last := len(lines) - 1
		cases := []struct {
			name         string
			ours, theirs []string
			clean        bool
		}{
			{"apart", set(5, "ours\n"), set(last-5, "theirs\n"), true},
			{"first line", set(0, "ours\n"), set(0, "theirs\n"), false},
			{"last line", set(last, "ours\n"), set(last, "theirs\n"), false},
			{"middle line", set(last/2, "ours\n"), set(last/2, "theirs\n"), false},
			{"every line", all("Z"), all("Y"), false},
		}
		base := strings.Join(lines, "")
		for _, c := range cases {
			t.Run(fmt.Sprintf("%d/%s", size, c.name), func(t *testing.T) {
				dir := t.TempDir()
				ours, theirs := strings.Join(c.ours, ""), strings.Join(c.theirs, "")
				for name, text := range map[string]string{"base": base, "ours": ours, "theirs": theirs} {
					if err := os.WriteFile(filepath.Join(dir, name+".ipynb"), bigTextNotebook(t, text), 0o644); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				var want []string
				if c.clean {
					cmd := exec.Command("git", "merge-file", "-p", "ours.txt", "base.txt", "theirs.txt")
					cmd.Dir = dir
					merged, err := cmd.Output()
					if err != nil {
						t.Fatalf("git merge-file: %v", err)
					}
					want = []string{string(merged)}
				} else {
					want = []string{"<<<<<<< ours\n", ours, "=======\n", theirs, ">>>>>>> theirs\n"}
				}
				status := exitFindings
				if c.clean {
					status = exitOK
				}
				out := filepath.Join(dir, "out.ipynb")
				cmd := exec.Command(binary, "merge", "-o", out, "base.ipynb", "ours.ipynb", "theirs.ipynb")
				cmd.Dir = dir
				msg, err := cmd.CombinedOutput()
				if st := exitStatus(err); st != status {
					t.Fatalf("exit %d, want %d: %s", st, status, msg)
				}
				got := outputTexts(t, out)
				if len(got) != len(want) {
					t.Fatalf("%d outputs, want %d", len(got), len(want))
				}
				for i := range want {
					if got[i] != want[i] {
						t.Errorf("output %d: %d bytes, not the %d wanted", i, len(got[i]), len(want[i]))
					}
				}
			})
		}
	}
}

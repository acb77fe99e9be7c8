package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/nbdialog/ipynb/internal/browsertest"
)

// A cell both sides moved to different places, resolved in the browser:
// the page names the three places, and choosing theirs saves the cell at
// theirs' place with its record gone. The cells' text is hostile markup
// (a script, an image whose error handler calls the trap server): the
// page runs none of it and fetches nothing.
func TestBrowserWebMergeMovedOnBothSides(t *testing.T) {
	dir := t.TempDir()
	var url string
	tab := browsertest.Open(t, func(u string) bool { return strings.HasPrefix(u, url) || strings.HasPrefix(u, "data:") })
	hostile := `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2; fetch('` + tab.Trap() + `/img')">`
	write := func(name, order string) {
		var cells []any
		for _, id := range strings.Fields(order) {
			cells = append(cells, map[string]any{"cell_type": "markdown", "id": id, "metadata": map[string]any{}, "source": "cell " + id + " " + hostile})
		}
		b, err := json.Marshal(map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}, "cells": cells})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("base.ipynb", "a b c d")
	write("ours.ipynb", "b c a d")
	write("theirs.ipynb", "b c d a")
	url, wait := webProcess(t, dir, "--merge", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	tab.Navigate(url)
	tab.Wait(`document.querySelector(".nb-status").textContent.includes("0 of 1")`)
	title := browsertest.Eval[string](tab, `document.querySelector("section.nb-conflict .nb-dhead").innerText`)
	if !strings.Contains(title, "moved on both sides") {
		t.Fatalf("conflict title %q", title)
	}
	body := browsertest.Eval[string](tab, `document.querySelector("section.nb-conflict").innerText`)
	for _, want := range []string{"cell 3, after the cell of id c", "cell 4, after the cell of id d"} {
		if !strings.Contains(body, want) {
			t.Errorf("the conflict does not show %q:\n%s", want, body)
		}
	}
	tab.Screenshot("merge-moved", true)
	tab.Do(chromedp.Click(chromedp.CSS(`section.nb-conflict button[data-choice=theirs]`)))
	tab.Wait(`document.querySelector(".nb-status").textContent.startsWith("1 of 1 conflicts resolved · notebook valid")`)
	tab.Do(chromedp.Click(chromedp.CSS(`button.nb-save`)))
	tab.Wait(`document.querySelector(".nb-saved").textContent.startsWith("saved into ours.ipynb")`)
	if got := browsertest.Eval[any](tab, `window.__pwned === undefined ? null : window.__pwned`); got != nil {
		t.Errorf("a notebook's markup ran in the page (window.__pwned = %v)", got)
	}
	if code := wait(); code != 0 {
		t.Errorf("exit status %d, want 0 (resolved)", code)
	}
	data, err := os.ReadFile(filepath.Join(dir, "ours.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			ID       string         `json:"id"`
			Metadata map[string]any `json:"metadata"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("saved file: %v\n%s", err, data)
	}
	var order []string
	for _, c := range nb.Cells {
		order = append(order, c.ID)
		if _, ok := c.Metadata["ipynb_conflicts"]; ok {
			t.Errorf("cell %s still has its record", c.ID)
		}
	}
	if strings.Join(order, " ") != "b c d a" {
		t.Errorf("saved order %v, want theirs' b c d a", order)
	}
	tab.NoRequests()
}

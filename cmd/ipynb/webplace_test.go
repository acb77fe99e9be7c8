package main

// Tests of a cell both sides placed differently, resolved in the browser
// through ipynb web.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/nbdialog/ipynb/internal/browsertest"
)

// A cell whose place both sides chose differently (moved on both sides;
// added on both sides at different places), resolved in the browser: the
// page names the places (base's as none for an added cell), and choosing
// theirs saves the cell at theirs' place with its record gone. The cells'
// text is hostile markup (a script, an image whose error handler calls the
// trap server): the page runs none of it and fetches nothing.
func TestBrowserWebMergeCellPlacedApart(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, base, ours, theirs string
		title                    string
		shown                    []string
		screenshot               string
	}{
		{"moved on both sides", "a b c d", "b c a d", "b c d a", "moved on both sides",
			[]string{"cell 3, after the cell of id c", "cell 4, after the cell of id d"}, "merge-moved"},
		{"added on both sides at different places", "a b c", "a x b c", "a b x c", "added on both sides at different places",
			[]string{"(none: added on both sides)", "cell 2, after the cell of id a", "cell 3, after the cell of id b"}, "merge-added-apart"},
	} {
		t.Run(c.name, func(t *testing.T) {
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
			write("base.ipynb", c.base)
			write("ours.ipynb", c.ours)
			write("theirs.ipynb", c.theirs)
			url, wait := webProcess(t, dir, "--merge", "base.ipynb", "ours.ipynb", "theirs.ipynb")
			tab.Navigate(url)
			tab.Wait(`document.querySelector(".nb-status").textContent.includes("0 of 1")`)
			title := browsertest.Eval[string](tab, `document.querySelector("section.nb-conflict .nb-dhead").innerText`)
			if !strings.Contains(title, c.title) {
				t.Fatalf("conflict title %q", title)
			}
			body := browsertest.Eval[string](tab, `document.querySelector("section.nb-conflict").innerText`)
			for _, want := range c.shown {
				if !strings.Contains(body, want) {
					t.Errorf("the conflict does not show %q:\n%s", want, body)
				}
			}
			tab.Screenshot(c.screenshot, true)
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
			for _, cell := range nb.Cells {
				order = append(order, cell.ID)
				if _, ok := cell.Metadata["ipynb_conflicts"]; ok {
					t.Errorf("cell %s still has its record", cell.ID)
				}
			}
			if strings.Join(order, " ") != c.theirs {
				t.Errorf("saved order %v, want theirs' %s", order, c.theirs)
			}
			tab.NoRequests()
		})
	}
}

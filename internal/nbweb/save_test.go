package nbweb

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nbText is a notebook of one code cell with source src, as JSON.
func nbText(t *testing.T, src string) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{},
		"cells": []any{map[string]any{"cell_type": "code", "id": "c1", "metadata": map[string]any{}, "source": src, "execution_count": nil, "outputs": []any{}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// mergeFiles writes a merge's three notebooks (both sides changed the
// one cell) into dir and returns their paths.
func mergeFiles(t *testing.T, dir string) [3]string {
	var paths [3]string
	for i, side := range []string{"base", "ours", "theirs"} {
		paths[i] = filepath.Join(dir, side+".ipynb")
		if err := os.WriteFile(paths[i], nbText(t, "x = '"+side+"'"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}

func newTestMerge(t *testing.T, paths [3]string, target string) (*mergeApp, *bytes.Buffer) {
	t.Helper()
	var stderr bytes.Buffer
	app, st := newMergeApp(reader{stdin: strings.NewReader(""), stderr: &stderr}, paths, target)
	if app == nil {
		t.Fatalf("newMergeApp: %d: %s", st, stderr.String())
	}
	a := app.(*mergeApp)
	if len(a.conflicts) != 1 {
		t.Fatalf("%d conflicts, want 1", len(a.conflicts))
	}
	return a, &stderr
}

const theirsChosen = `{"resolutions": [{"choice": "theirs", "text": "x = 'theirs'\n"}]}`

// Saving into -o FILE that did not exist when the page opened creates it;
// whatever was put at its name meanwhile — a file, a link to a file, a
// dangling link — is left alone, nothing is written through a link, and
// the page is told.
func TestSaveIntoNewFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		what string
		put  func(dir, target string)
	}{
		{"nothing put there", nil},
		{"a file put there", func(dir, target string) { os.WriteFile(target, []byte("someone's"), 0o644) }},
		{"a link to a file", func(dir, target string) {
			os.WriteFile(filepath.Join(dir, "victim"), []byte("someone's"), 0o644)
			os.Symlink(filepath.Join(dir, "victim"), target)
		}},
		{"a dangling link", func(dir, target string) { os.Symlink(filepath.Join(dir, "victim"), target) }},
	} {
		t.Run(tc.what, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "merged.ipynb")
			a, _ := newTestMerge(t, mergeFiles(t, dir), target)
			if tc.put != nil {
				tc.put(dir, target)
			}
			ans, _ := a.action("save", []byte(theirsChosen))
			got := ans.(mergeAnswer)
			if tc.put == nil {
				data, err := os.ReadFile(target)
				if got.Error != "" || err != nil || !bytes.Contains(data, []byte("x = 'theirs'")) {
					t.Fatalf("save: %+v, file %q %v", got, data, err)
				}
				if a.status() != exitOK {
					t.Errorf("exit %d after a resolved save", a.status())
				}
				return
			}
			if !strings.Contains(got.Error, "left alone") {
				t.Errorf("save answered %+v, want it refused", got)
			}
			switch data, err := os.ReadFile(filepath.Join(dir, "victim")); {
			case err == nil && string(data) != "someone's":
				t.Errorf("written through the link: its target became %q", data)
			case err == nil && tc.what == "a dangling link":
				t.Error("the dangling link's target was created")
			}
			if fi, err := os.Lstat(target); err == nil && fi.Mode().IsRegular() {
				if data, _ := os.ReadFile(target); string(data) != "someone's" {
					t.Errorf("the file put there became %q", data)
				}
			}
			if a.status() == exitOK {
				t.Error("exit 0 though nothing was saved")
			}
		})
	}
}

package nbhtml

// Tests that every page the package makes starts with a strict Content-
// Security-Policy, its scripts allowed by hash.

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
)

// directives parses a Content-Security-Policy into its directives.
func directives(csp string) map[string][]string {
	ds := map[string][]string{}
	for _, d := range strings.Split(csp, ";") {
		f := strings.Fields(d)
		if len(f) > 0 {
			ds[f[0]] = f[1:]
		}
	}
	return ds
}

var (
	cspMeta   = regexp.MustCompile(`^<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="([^"]*)">\n`)
	scriptEls = regexp.MustCompile(`(?s)<script\b[^>]*>(.*?)</script>`)
)

// strictCSP fails t unless csp is strict: nothing from anywhere by
// default; scripts only by hash (no 'unsafe-inline', 'unsafe-eval',
// 'strict-dynamic', 'self', hosts or schemes); no base URL, no form
// submission, no frames but srcdoc ones, no plugins; images and fonts
// only from data URLs; requests (connect-src) only to the page's origin,
// and only when connect is set.
func strictCSP(t *testing.T, what, csp string, connect bool) map[string][]string {
	t.Helper()
	ds := directives(csp)
	want := map[string][]string{
		"default-src": {"'none'"}, "img-src": {"data:"}, "font-src": {"data:"}, "style-src": {"'unsafe-inline'"},
		"frame-src": {"'none'"}, "child-src": {"'none'"}, "base-uri": {"'none'"}, "form-action": {"'none'"},
	}
	for k, v := range want {
		if !slices.Equal(ds[k], v) {
			t.Errorf("%s: %s %q, want %q (policy %q)", what, k, ds[k], v, csp)
		}
	}
	for _, src := range ds["script-src"] {
		if src != "'none'" && !(strings.HasPrefix(src, "'sha256-") && strings.HasSuffix(src, "'")) {
			t.Errorf("%s: script-src allows %s (policy %q)", what, src, csp)
		}
	}
	if ds["script-src"] == nil {
		t.Errorf("%s: no script-src (policy %q)", what, csp)
	}
	if c, has := ds["connect-src"]; has != connect || has && !slices.Equal(c, []string{"'self'"}) {
		t.Errorf("%s: connect-src %q (present %v), want 'self' only when the page is live", what, c, has)
	}
	for k := range ds {
		if _, known := want[k]; !known && k != "script-src" && k != "connect-src" && k != "frame-ancestors" {
			t.Errorf("%s: unexpected directive %s", what, k)
		}
	}
	return ds
}

// scriptHashes are the CSP sources of a page's scripts.
func scriptHashes(page []byte) []string {
	var hs []string
	for _, m := range scriptEls.FindAllSubmatch(page, -1) {
		sum := sha256.Sum256(m[1])
		hs = append(hs, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	return hs
}

// Every page the package makes — notebook pages (plain, lazy, live), diff
// pages (plain, live), the merge page — starts with a strict policy
// (right after the charset, before anything it could govern) that
// allows exactly the page's own scripts, and ServedCSP, the header of
// `ipynb web`, is as strict, allows the scripts of every live page, and
// forbids framing.
func TestEveryPageCSP(t *testing.T) {
	t.Parallel()
	nb := notebookJSON(t, note("# hi <script>x()</script>"), code("1", 1, display(map[string]any{"text/html": "<script>y()</script><b>b</b>"})), raw("r"))
	nb2 := notebookJSON(t, note("# hi"), code("2", 2), raw("r"))
	render := func(f func(*bytes.Buffer) error) []byte {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	d, d2 := readNotebook(t, nb), readNotebook(t, nb2)
	changes, err := convert.Diff(nb, nb2)
	if err != nil {
		t.Fatal(err)
	}
	pages := []struct {
		what string
		live bool
		page []byte
	}{
		{"notebook", false, render(func(b *bytes.Buffer) error { return Notebook(b, d, Options{}) })},
		{"lazy notebook", false, render(func(b *bytes.Buffer) error { return Notebook(b, d, Options{Lazy: 1}) })},
		{"live notebook", true, render(func(b *bytes.Buffer) error { return Notebook(b, d, Options{Live: true, Lazy: 1}) })},
		{"diff", false, render(func(b *bytes.Buffer) error { return Diff(b, d, d2, changes, DiffOptions{}) })},
		{"live diff", true, render(func(b *bytes.Buffer) error { return Diff(b, d, d2, changes, DiffOptions{Live: true}) })},
		{"merge", true, render(func(b *bytes.Buffer) error {
			return Merge(b, []MergeConflict{{Title: "<script>t()</script>", Text: true, Base: "a", Ours: "b", Theirs: "c", Merged: "m",
				Choices: []MergeChoice{{Value: "ours", Label: "ours", Text: "</textarea><script>z()</script>"}}}}, MergeOptions{Target: "<script>"})
		})},
	}
	served := strictCSP(t, "ServedCSP", ServedCSP(), true)
	if fa := served["frame-ancestors"]; !slices.Equal(fa, []string{"'none'"}) {
		t.Errorf("ServedCSP: frame-ancestors %q, want 'none'", fa)
	}
	for _, p := range pages {
		m := cspMeta.FindSubmatch(p.page)
		if m == nil {
			t.Errorf("%s: the page does not start with its policy:\n%.300s", p.what, p.page)
			continue
		}
		ds := strictCSP(t, p.what, html.UnescapeString(string(m[1])), p.live)
		if _, has := ds["frame-ancestors"]; has {
			t.Errorf("%s: frame-ancestors in a meta policy (browsers ignore it there)", p.what)
		}
		hs := scriptHashes(p.page)
		got := slices.DeleteFunc(slices.Clone(ds["script-src"]), func(s string) bool { return s == "'none'" })
		slices.Sort(hs)
		slices.Sort(got)
		if !slices.Equal(hs, got) {
			t.Errorf("%s: script-src %q, want exactly the page's own scripts %q", p.what, got, hs)
		}
		if p.live {
			for _, h := range hs {
				if !slices.Contains(served["script-src"], h) {
					t.Errorf("%s: ServedCSP does not allow its script %s: the served page would not work", p.what, h)
				}
			}
		}
		if bytes.Contains(p.page, []byte("<script>x()")) || bytes.Contains(p.page, []byte("<script>t()")) || bytes.Contains(p.page, []byte("<script>z()")) {
			t.Errorf("%s: a planted script is in the page as a script", p.what)
		}
	}
}

package nbhtml

// Tests of pages of corpus notebooks (golden pages, one section per cell, in
// the browser) and of diff pages of real merges.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/browsertest"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// Pages of real notebooks: every corpus file gives a page of one section
// per cell; a few small ones are kept as golden pages (their <main>, the
// part that does not change with the style sheet: -update rewrites them);
// a sample is opened in the browser.

// goldenFiles are small, stable corpus notebooks: a dialog with prompts,
// attachments, SVG, execution counts, raw cells, another language.
var goldenFiles = []string{
	"AnswerDotAI__solveit_demos/crafts_and_templates_demo/How This Works.ipynb",
	"jupyter__nbconvert/tests/exporters/files/attachment.ipynb",
	"jupyter__nbconvert/tests/exporters/files/svg.ipynb",
	"jupyter__nbconvert/tests/exporters/files/prompt_numbers.ipynb",
	"jupyter__nbconvert/tests/exporters/files/rawtest.ipynb",
	"dotnet__interactive/samples/notebooks/fsharp/Docs/Math-and-LaTeX.ipynb",
}

// renderFile renders a corpus file as the command does.
func renderFile(t *testing.T, path string, data []byte) []byte {
	t.Helper()
	d, err := convert.Unmarshal(data, convert.ReadOptions{})
	if err != nil {
		return nil // not readable as a dialog: the readers' tests cover it
	}
	d.Name = strings.TrimSuffix(filepath.Base(path), ".ipynb")
	var b bytes.Buffer
	if err := Notebook(&b, d.Dialog, Options{}); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b.Bytes()
}

// mainOf is a page's <main> element.
func mainOf(page []byte) []byte {
	i := bytes.Index(page, []byte("<main"))
	j := bytes.LastIndex(page, []byte("</main>"))
	if i < 0 || j < i {
		return nil
	}
	return page[i : j+len("</main>\n")]
}

func TestGoldenPages(t *testing.T) {
	t.Parallel()
	dir := corpus.Dir(t)
	for _, f := range goldenFiles {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		got := mainOf(renderFile(t, f, data))
		golden := filepath.Join("testdata", "golden", strings.ReplaceAll(filepath.Base(f), " ", "_")+".html")
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o777)
			if err := os.WriteFile(golden, got, 0o666); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (go test -run TestGoldenPages -update writes it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: page differs from %s (go test -run TestGoldenPages -update to accept):\n%s", f, golden, firstDiff(got, want))
		}
	}
}

func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ":\n got " + al[i] + "\nwant " + bl[i]
		}
	}
	return "lengths differ"
}

// cellCount is the number of cells of a notebook, read with
// encoding/json (version 4 cells, or version 3 worksheets' cells).
func cellCount(data []byte) (int, bool) {
	var nb struct {
		Cells      []json.RawMessage `json:"cells"`
		Worksheets []struct {
			Cells []json.RawMessage `json:"cells"`
		} `json:"worksheets"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return 0, false
	}
	n := len(nb.Cells)
	for _, w := range nb.Worksheets {
		n += len(w.Cells)
	}
	return n, true
}

// Every corpus notebook of the tier's sample read as a dialog (of up to
// 50 kB; every one with IPYNB_LONG=1) makes a page of valid UTF-8 with
// one section per cell of the file.
func TestCorpusPages(t *testing.T) {
	t.Parallel()
	n := 0
	long := testtier.Full()
	for e, data := range corpus.Sample(t) {
		if len(data) > 50_000 && !long {
			continue
		}
		page := renderFile(t, e.Path, data)
		if page == nil {
			continue
		}
		n++
		if !utf8.Valid(page) {
			t.Errorf("%s: page is not UTF-8", e.Path)
		}
		want, ok := cellCount(data)
		got := bytes.Count(page, []byte(`<section class="nb-cell `))
		if ok && got != want {
			t.Errorf("%s: %d sections, want %d cells", e.Path, got, want)
		}
		if bytes.Contains(mainOf(page), []byte("<script")) {
			t.Errorf("%s: a <script> element in the page's cells", e.Path)
		}
		if bytes.Contains(page, []byte("This Markdown is shown as its source")) {
			t.Errorf("%s: Markdown shown as its source (over a budget of mdbudget.go)", e.Path)
		}
	}
	t.Logf("%d pages", n)
}

// A sample of the corpus in the browser: one section per cell, every
// image decoded, every frame sandboxed, no request, no script error.
func TestBrowserCorpusSample(t *testing.T) {
	t.Parallel()
	testtier.Long(t)
	tab := browsertest.Open(t, nil)
	picked := 0
	for e, data := range corpus.Files(t) {
		if len(data) > 400_000 || !(strings.Contains(string(data), "image/png") || strings.Contains(string(data), "text/html") || picked%9 == 0) {
			continue
		}
		if picked++; picked > 24 {
			break
		}
		page := renderFile(t, e.Path, data)
		if page == nil {
			continue
		}
		p := filepath.Join(t.TempDir(), "page.html")
		os.WriteFile(p, page, 0o666)
		tab.OpenFile(p)
		want, _ := cellCount(data)
		type facts struct {
			Sections, Broken, Frames, Unsandboxed, Images int
		}
		tab.Wait(`[...document.images].every(i => i.complete)`)
		f := browsertest.Eval[facts](tab, `({Sections: document.querySelectorAll("section.nb-cell").length,
			Images: document.images.length,
			Broken: [...document.images].filter(i => i.naturalWidth == 0).length,
			Frames: document.querySelectorAll("iframe").length,
			Unsandboxed: [...document.querySelectorAll("iframe")].filter(f => f.getAttribute("sandbox") !== "").length})`)
		if f.Sections != want || f.Broken > 0 || f.Unsandboxed > 0 {
			t.Errorf("%s: %+v, want %d sections, no broken image, every frame sandboxed", e.Path, f, want)
		}
		if got := browsertest.Eval[string](tab, `String(window.__pwned)`); got != "undefined" {
			t.Errorf("%s: window.__pwned = %s", e.Path, got)
		}
	}
	tab.NoRequests()
}

// The diff pages of real revisions (../shared/merges: base to ours, and
// to theirs; the first 15 merges, all with IPYNB_LONG=1): a section per
// change, each change listed, no <script> among the cells.
func TestDiffPagesOfRealMerges(t *testing.T) {
	t.Parallel()
	shared := corpus.Shared()
	if shared == "" {
		t.Skip("no ../shared")
	}
	dir := filepath.Join(shared, "merges")
	manifest, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skipf("no real merges: %v", err)
	}
	pages := 0
	for n, line := range strings.Split(string(manifest), "\n")[1:] {
		if n >= 15 && !testtier.Full() {
			break // the long tier (IPYNB_LONG=1) takes all
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 6 {
			continue
		}
		read := func(id string) []byte {
			b, err := os.ReadFile(filepath.Join(dir, "blobs", id+".ipynb"))
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		base := read(cols[3])
		for _, side := range []string{cols[4], cols[5]} {
			b := read(side)
			changes, err := convert.Diff(base, b)
			if err != nil {
				continue // not readable: the readers' tests
			}
			da, _ := convert.Unmarshal(base, convert.ReadOptions{})
			db, _ := convert.Unmarshal(b, convert.ReadOptions{})
			var page bytes.Buffer
			if err := Diff(&page, da.Dialog, db.Dialog, changes, DiffOptions{NameA: "base", NameB: side}); err != nil {
				t.Fatal(err)
			}
			pages++
			body := mainOf(page.Bytes())
			if got := bytes.Count(body, []byte(`<section class="nb-dcell `)); got != len(changes) {
				t.Errorf("%s %s: %d sections for %d changes", cols[2], side, got, len(changes))
			}
			if got := bytes.Count(page.Bytes(), []byte(`<li><a href="#nb-d`)); got != len(changes) {
				t.Errorf("%s %s: %d changes listed of %d", cols[2], side, got, len(changes))
			}
			if bytes.Contains(body, []byte("<script")) {
				t.Errorf("%s %s: a <script> among the cells", cols[2], side)
			}
		}
	}
	t.Logf("%d pages", pages)
}

package nbhtml

// Tests that highlighting is chroma's (style sheet, lexers, registry) and stays
// within the page's budget.

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

var update = flag.Bool("update", false, "rewrite golden files and the copies of chroma's files")

// The style sheet is chroma's github style as chroma writes it.
func TestChromaCSS(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := chromahtml.New(chromahtml.WithClasses(true)).WriteCSS(&b, styles.Get("github")); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("assets/chroma.css", b.Bytes(), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if chromaCSS != b.String() {
		t.Errorf("assets/chroma.css is not chroma's github style sheet; run go test -run TestChromaCSS -update")
	}
}

// The lexers are chroma's own files, byte for byte.
func TestLexersAsChroma(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/alecthomas/chroma/v2").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "lexers", "embedded")
	files, _ := filepath.Glob("lexers/*.xml")
	if len(files) < 30 {
		t.Fatalf("%d lexers", len(files))
	}
	for _, f := range files {
		want, err := os.ReadFile(filepath.Join(dir, filepath.Base(f)))
		if err != nil {
			t.Errorf("%s: not one of chroma's lexers: %v", f, err)
			continue
		}
		if *update {
			os.WriteFile(f, want, 0o666)
		}
		if got, _ := os.ReadFile(f); !bytes.Equal(got, want) {
			t.Errorf("%s differs from chroma's; run go test -run TestLexersAsChroma -update", f)
		}
	}
}

// Code is highlighted as chroma's own registry highlights it, for the
// languages of notebooks.
func TestHighlightAsChroma(t *testing.T) {
	t.Parallel()
	f := chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true))
	for _, c := range []struct{ lang, code string }{
		{"python", "import os\nprint(f\"{os.sep!r}\")  # comment\n%matplotlib inline\n"},
		{"python3", "def f(x):\n    return x ** 2\n"},
		{"julia", "function f(x::Int)\n    x^2\nend\n"},
		{"R", "x <- c(1, 2, 3)\nmean(x)\n"},
		{"C#", "var x = new List<int> { 1 };\n"},
		{"bash", "for f in *.ipynb; do echo \"$f\"; done\n"},
		{"html", "<p style=\"x\">a</p><script>var a = 1;</script>\n"},
		{"sql", "SELECT * FROM t WHERE a = 'x';\n"},
	} {
		got, ok := highlighted(c.lang, c.code)
		if !ok {
			t.Errorf("%s: not highlighted", c.lang)
			continue
		}
		l := lexers.Get(c.lang)
		if l == nil {
			l = lexers.Get(strings.TrimRight(strings.ToLower(c.lang), "0123456789"))
		}
		it, err := chroma.Coalesce(l).Tokenise(nil, c.code)
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		f.Format(&want, styles.Get("github"), it)
		if got != want.String() {
			t.Errorf("%s:\n got %s\nwant %s", c.lang, got, want.String())
		}
	}
	if _, ok := highlighted("brainfuck-ish", "x"); ok {
		t.Error("an unknown language was highlighted")
	}
}

// A page highlights at most maxPageHighlight bytes of code, in page
// order: the cells and fences after the budget is spent are plain (and
// escaped), code too long to highlight spends none of it.
func TestHighlightBudget(t *testing.T) {
	t.Parallel()
	if h := newHighlighter(); h.left != maxPageHighlight {
		t.Fatalf("a page starts with %d bytes to highlight, want %d", h.left, maxPageHighlight)
	}
	h := &highlighter{left: 100}
	lit := func(s string) bool { return strings.Contains(s, `<span class="`) }
	code := "x = 1 # <b>\n" // 12 bytes
	long := strings.Repeat("y = 2\n", maxHighlight/6+1)
	var got []bool
	for _, c := range []string{code, long, code, code, code, code, code, code, code, code, code, code} {
		out := h.code("python", c)
		if strings.Contains(out, "<b>") {
			t.Fatal("code not escaped")
		}
		got = append(got, lit(out))
	}
	want := []bool{true, false, true, true, true, true, true, true, true, false, false, false}
	if !slices.Equal(got, want) {
		t.Errorf("highlighted %v, want %v (8 of 12 bytes fit 100; the long one plain and free)", got, want)
	}
}

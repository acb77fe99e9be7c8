package main

// Tests of the command's user interface: help, --version, places of problems
// and syntax errors as Python's, progress lines, fmt's output.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// "ipynb help CMD" prints exactly what "ipynb CMD --help" prints.
func TestHelpCommandEqualsFlag(t *testing.T) {
	t.Parallel()
	for _, c := range commands {
		a := ipynb(t, shipped, "", "help", c.name)
		b := ipynb(t, shipped, "", c.name, "--help")
		if a != b || a.code != 0 || !strings.HasPrefix(a.stdout, "usage: ipynb "+c.name) {
			t.Errorf("help %s = %+v, %s --help = %+v", c.name, a, c.name, b)
		}
	}
}

// --version names the module version and commit that Go's build info
// records for the binary (what `go version -m` reads from it).
func TestVersion(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "version", "-m", binary).Output()
	if err != nil {
		t.Skipf("go version -m: %v", err)
	}
	var modVersion, rev string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && f[0] == "mod" {
			modVersion = f[2]
		}
		if len(f) >= 2 && f[0] == "build" && strings.HasPrefix(f[1], "vcs.revision=") {
			rev = strings.TrimPrefix(f[1], "vcs.revision=")
		}
	}
	if modVersion == "" {
		t.Fatalf("no module version in:\n%s", out)
	}
	r := ipynb(t, shipped, "", "--version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "ipynb "+modVersion) {
		t.Errorf("--version = %+v, want ipynb %s …", r, modVersion)
	}
	if rev != "" && !strings.Contains(r.stdout, rev[:12]) {
		t.Errorf("--version = %q, want the commit %s", r.stdout, rev[:12])
	}
}

// Every schema problem check reports is placed at the pointer's value:
// the bytes at path:line:col are the JSON of the value the pointer names
// (resolved independently with encoding/json).
func TestCheckProblemLocations(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(shipped, "invalid.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	r := ipynb(t, shipped, "", "check", "--json", "invalid.ipynb")
	files, _ := checkLines(t, r.stdout)
	var whole any
	if err := json.Unmarshal(data, &whole); err != nil {
		t.Fatal(err)
	}
	probs := files[0].Problems
	if len(probs) == 0 {
		t.Fatal("no problems reported")
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	for _, p := range probs {
		if p.Line < 1 || p.Line > len(lines) || p.Column < 1 || p.Column > len(lines[p.Line-1]) {
			t.Errorf("%s: place %d:%d outside the file", p.Pointer, p.Line, p.Column)
			continue
		}
		off := p.Column - 1
		for _, l := range lines[:p.Line-1] {
			off += len(l)
		}
		dec := json.NewDecoder(bytes.NewReader(data[off:]))
		var atPlace any
		if err := dec.Decode(&atPlace); err != nil {
			t.Errorf("%s: no JSON value at %d:%d: %v", p.Pointer, p.Line, p.Column, err)
			continue
		}
		want := resolve(t, whole, p.Pointer)
		if a, b := mustJSON(t, atPlace), mustJSON(t, want); a != b {
			t.Errorf("%s: value at %d:%d is %s, pointer names %s", p.Pointer, p.Line, p.Column, a, b)
		}
	}
	// The text form gives the same places as path:line:col.
	text := ipynb(t, shipped, "", "check", "invalid.ipynb").stdout
	for _, p := range probs {
		want := "  invalid.ipynb:" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column) + ": " + p.Pointer + ": "
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
}

func resolve(t *testing.T, v any, ptr string) any {
	t.Helper()
	if ptr == "" {
		return v
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i >= len(x) {
				t.Fatalf("pointer %s does not resolve", ptr)
			}
			v = x[i]
		default:
			t.Fatalf("pointer %s does not resolve", ptr)
		}
	}
	return v
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A syntax error is reported as path:line:col: message, where line and
// column are where Python's json module stops too (its JSONDecodeError
// lineno/colno; columns agree for ASCII input).
func TestSyntaxErrorPlace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := map[string]string{
		"a.ipynb": "{\"nbformat\": 4,\n \"cells\": [oops]}",
		"b.ipynb": "{\n\n   \"x\": 1,,\n}",
		"c.ipynb": "{\"a\": \"unterminated",
	}
	want := map[string]string{ // from python3 -c 'json.loads(...)'
		"a.ipynb": "2:12",
		"b.ipynb": "3:11",
		"c.ipynb": "1:7",
	}
	for name, body := range cases {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		r := ipynb(t, dir, "", "check", name)
		if !strings.HasPrefix(r.stdout, "error "+name+":"+want[name]+": ") {
			t.Errorf("check %s = %q, want error %s:%s: …", name, r.stdout, name, want[name])
		}
		r = ipynb(t, dir, "", "fmt", "--check", name)
		if !strings.HasPrefix(r.stderr, name+":"+want[name]+": ") || r.code != 1 {
			t.Errorf("fmt --check %s: %+v, want %s:%s: … on stderr", name, r, name, want[name])
		}
	}
}

// Python's own positions for TestSyntaxErrorPlace's inputs, when Python is
// here: the table above must agree with json.JSONDecodeError.
func TestSyntaxErrorPlaceMatchesPython(t *testing.T) {
	t.Parallel()
	py, err := nbtest.AnyPython()
	if err != nil {
		t.Skip("no python3")
	}
	script := `import json,sys
for s in sys.argv[1:]:
    try:
        json.loads(s)
    except json.JSONDecodeError as e:
        print("%d:%d" % (e.lineno, e.colno))`
	out, err := exec.Command(py, "-c", script, "{\"nbformat\": 4,\n \"cells\": [oops]}", "{\n\n   \"x\": 1,,\n}", "{\"a\": \"unterminated").Output()
	if err != nil {
		t.Skipf("python3: %v", err)
	}
	if got := strings.Join(strings.Fields(string(out)), " "); got != "2:12 3:11 1:7" {
		t.Errorf("Python places %q, the test's table says 2:12 3:11 1:7", got)
	}
}

// The progress line never wraps: on a terminal of W columns every line
// drawn is at most W-1 characters, keeps the end of the path, and the
// line is cleared at the end.
func TestProgressFitsTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	long := filepath.Join(dir, strings.Repeat("a-very-long-folder-name/", 8))
	if err := os.MkdirAll(long, 0o755); err != nil {
		t.Fatal(err)
	}
	nb, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range screenful + 5 {
		if err := os.WriteFile(filepath.Join(long, "nb"+strconv.Itoa(i)+".ipynb"), nb, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, width := range []int{40, 80, 200} {
		var stdout, stderr bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, stderrTTY: true, termWidth: width}
		if code := run(e, []string{"check", dir}); code != 0 {
			t.Fatalf("check: exit %d\n%s", code, stderr.String())
		}
		drawn := stderr.String()
		if !strings.HasSuffix(drawn, "\r\x1b[K") {
			t.Errorf("width %d: progress not cleared at the end: %q", width, drawn[max(0, len(drawn)-40):])
		}
		steps := 0
		for _, seg := range strings.Split(drawn, "\r\x1b[K") {
			if seg == "" {
				continue
			}
			steps++
			if n := utf8.RuneCountInString(seg); n > width-1 {
				t.Errorf("width %d: a %d-character progress line: %q", width, n, seg)
			}
			if !regexp.MustCompile(`^\[\d+/\d+\] .*\.ipynb$`).MatchString(seg) {
				t.Errorf("width %d: progress line %q lost its counter or file name", width, seg)
			}
		}
		if steps != screenful+5 {
			t.Errorf("width %d: %d progress lines, want %d", width, steps, screenful+5)
		}
	}
}

// A file name cannot drive the terminal through the progress line.
func TestProgressEscapesNames(t *testing.T) {
	t.Parallel()
	if got := visible("a\x1b]0;pwned\x07b\r.ipynb"); strings.ContainsAny(got, "\x1b\x07\r") {
		t.Errorf("visible = %q", got)
	}
}

// Plain fmt formats: every valid notebook, whatever wrote it, comes out as
// exactly the bytes Python nbformat writes for it (testdata/canonical,
// made by scripts/reference/nbformat_canonical.py).
func TestFmtFormats(t *testing.T) {
	t.Parallel()
	names, err := filepath.Glob(filepath.Join(shipped, "canonical", "*.ipynb"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no canonical references: %v", err)
	}
	for _, ref := range names {
		name := filepath.Base(ref)
		dir := work(t, name)
		if r := ipynb(t, dir, "", "fmt", name); r.code != 0 {
			t.Errorf("fmt %s: %+v", name, r)
		}
		got, _ := os.ReadFile(filepath.Join(dir, name))
		want, _ := os.ReadFile(ref)
		if !bytes.Equal(got, want) {
			t.Errorf("fmt %s differs from Python nbformat's bytes", name)
		}
		// Formatting is idempotent: a second run changes nothing.
		if r := ipynb(t, dir, "", "fmt", "--check", name); r.code != 0 || r.stdout != "" {
			t.Errorf("fmt --check after fmt %s: %+v", name, r)
		}
	}
	// An invalid notebook is healed, then laid out: the result is valid and
	// equals Python's bytes for the healed notebook (keep-style heal, then
	// canonical: two independent steps giving the same bytes).
	dir := work(t, "invalid.ipynb")
	if r := ipynb(t, dir, "", "fmt", "invalid.ipynb"); r.code != 0 {
		t.Fatalf("fmt invalid.ipynb: %+v", r)
	}
	if r := ipynb(t, dir, "", "check", "invalid.ipynb"); r.code != 0 {
		t.Errorf("fmt left an invalid notebook: %s", r.stdout)
	}
	two := work(t, "invalid.ipynb")
	ipynb(t, two, "", "fmt", "--keep-style", "invalid.ipynb")
	ipynb(t, two, "", "fmt", "--canonical", "invalid.ipynb")
	a, _ := os.ReadFile(filepath.Join(dir, "invalid.ipynb"))
	b, _ := os.ReadFile(filepath.Join(two, "invalid.ipynb"))
	if !bytes.Equal(a, b) {
		t.Error("fmt differs from --keep-style then --canonical")
	}
}

// checkLines parses check --json output: one object per file, then the
// summary line.
func checkLines(t *testing.T, out string) (files []checkResult, summary map[string]int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, l := range lines {
		if i == len(lines)-1 {
			var s struct{ Summary map[string]int }
			if err := json.Unmarshal([]byte(l), &s); err != nil || s.Summary == nil {
				t.Fatalf("last line %q is not the summary: %v", l, err)
			}
			return files, s.Summary
		}
		var r checkResult
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.Path == "" {
			t.Fatalf("line %d %q is not a file's result: %v", i+1, l, err)
		}
		files = append(files, r)
	}
	t.Fatal("no output")
	return nil, nil
}

// Errors about a notebook's structure are placed too (path:line:col), at
// the offending value — or the object lacking a member — as Python's json
// module finds it: a top level that is not an object, an nbformat that is
// not an integer, unsupported or missing. Expected places are computed
// by Python from the same bytes (skipped without Python).
func TestStructureErrorPlace(t *testing.T) {
	t.Parallel()
	cases := []struct{ input, pointer string }{
		{"  [1]", ""},
		{"\n \"x\"", ""},
		{"{\"cells\": [],\n \"nbformat\": {\"a\": 1}}", "/nbformat"},
		{"{\"cells\": [],\n\n   \"nbformat\": 7}", "/nbformat"},
		{"{\"cells\": [],\n  \"nbformat\": Infinity}", "/nbformat"},
		{"{\n \"cells\": []}", ""}, // nbformat missing: the object
	}
	// Python: the offset of the value the pointer names (by re-encoding
	// the parsed prefix up to it), as line and column.
	script := `import json, sys
data, ptr = sys.argv[1], sys.argv[2]
dec = json.JSONDecoder()
i = len(data) - len(data.lstrip())
for tok in [t for t in ptr.split("/")[1:]]:
    obj, _ = dec.raw_decode(data, i)
    # find the member's value: scan the object's members in order
    j = data.index("{", i) + 1
    while True:
        while data[j] in " \n\t\r,": j += 1
        key, j = json.decoder.scanstring(data, j + 1)
        while data[j] in " \n\t\r:": j += 1
        if key == tok:
            i = j
            break
        _, j = dec.raw_decode(data, j)
line = data.count("\n", 0, i) + 1
col = i - (data.rfind("\n", 0, i) + 1) + 1
print("%d:%d" % (line, col))`
	for _, c := range cases {
		out, err := exec.Command("/usr/bin/python3", "-c", script, c.input, c.pointer).Output()
		if err != nil {
			t.Skip("python3:", err)
		}
		want := "error <stdin>:" + strings.TrimSpace(string(out)) + ": "
		r := ipynb(t, ".", c.input, "check", "-")
		if !strings.HasPrefix(r.stdout, want) {
			t.Errorf("check of %q: %q, want it to start %q", c.input, r.stdout, want)
		}
	}
}

// fmt on a notebook that starts with a UTF-8 byte-order mark (which
// Python's json module refuses) removes the mark and writes Jupyter's
// layout: for a file Python nbformat wrote, exactly its bytes again.
func TestFmtRemovesBOM(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb")) // written by Python nbformat
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range [][]string{{"fmt"}, {"fmt", "--keep-style"}} {
		dir := t.TempDir()
		path := filepath.Join(dir, "bom.ipynb")
		if err := os.WriteFile(path, append([]byte("\xef\xbb\xbf"), want...), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := ipynb(t, dir, "", append(mode, "bom.ipynb")...); r.code != 0 || r.stdout != "bom.ipynb\n" {
			t.Errorf("%v: %+v", mode, r)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
			t.Errorf("%v: the result is not the notebook without its mark", mode)
		}
	}
}

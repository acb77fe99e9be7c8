package nbformat_test

// Tests of canonical output's depth limit: it refuses exactly the nestings
// Python nbformat's writer fails on.

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
	"github.com/nbdialog/ipynb/nbformat"
)

// depthShape is a row of testdata/canonical_depth.tsv: a template notebook
// with "@" where a chain of nested objects and arrays goes, and the
// shortest chain Python nbformat's writer fails on.
type depthShape struct {
	name, pattern, template string
	limit                   int
}

func depthShapes(t *testing.T) []depthShape {
	f, err := os.Open(filepath.Join("..", "testdata", "canonical_depth.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var shapes []depthShape
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 4 {
			t.Fatalf("bad row %q", sc.Text())
		}
		limit, err := strconv.Atoi(cols[2])
		if err != nil {
			t.Fatal(err)
		}
		shapes = append(shapes, depthShape{cols[0], cols[1], cols[3], limit})
	}
	if len(shapes) < 40 {
		t.Fatalf("only %d shapes", len(shapes))
	}
	return shapes
}

// chain is n nested values repeating pattern ("d": {"k": …}, "l": […])
// from the outside in, with 1 at the bottom (as nbformat_depth.py builds
// it).
func chain(pattern string, n int) string {
	var open, close strings.Builder
	closes := make([]byte, 0, n)
	for j := range n {
		if pattern[j%len(pattern)] == 'd' {
			open.WriteString(`{"k": `)
			closes = append(closes, '}')
		} else {
			open.WriteString("[")
			closes = append(closes, ']')
		}
	}
	for i := len(closes) - 1; i >= 0; i-- {
		close.WriteByte(closes[i])
	}
	return open.String() + "1" + close.String()
}

// Canonical output refuses (ErrNotCanonical) exactly the notebooks Python
// nbformat's writer fails on with RecursionError: for every shape of the
// table (nesting of objects, arrays and both, under notebook metadata,
// cell metadata, output data and metadata, attachments, unknown members),
// a chain one shorter than the limit is written and the limit and one
// more are refused, with a pointer that resolves. Version 3 shapes (names
// "v3…") follow Python's v3 reader and writer, including inside the
// members strip_transient removes, where only the reader recurses.
func TestCanonicalDepthLimit(t *testing.T) {
	t.Parallel()
	for _, sh := range depthShapes(t) {
		t.Run(sh.name+"/"+sh.pattern, func(t *testing.T) {
			for n := sh.limit - 1; n <= sh.limit+1; n++ {
				in := strings.Replace(sh.template, `"@"`, chain(sh.pattern, n), 1)
				nb, err := nbformat.Unmarshal([]byte(in))
				if err != nil {
					t.Fatal(err)
				}
				_, err = nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
				var fe *nbformat.FormatError
				switch {
				case n < sh.limit && err != nil:
					t.Errorf("chain of %d (limit %d): %v", n, sh.limit, err)
				case n >= sh.limit && !errors.Is(err, nbformat.ErrNotCanonical):
					t.Errorf("chain of %d (limit %d): %v, want ErrNotCanonical", n, sh.limit, err)
				case n >= sh.limit && (!errors.As(err, &fe) || !resolves([]byte(in), string(fe.Pointer))):
					t.Errorf("chain of %d: pointer of %v does not resolve", n, err)
				}
			}
		})
	}
}

// Random shapes near the limit (objects with several members, arrays with
// several items, scalars and empty containers at the bottom, in every
// place of a notebook) get Python's verdict (skipped without Python).
func TestCanonicalDepthAgreesWithPython(t *testing.T) {
	t.Parallel()
	testtier.Long(t)
	py := pythonNbformat(t)
	var shapes []depthShape // version 4 ones: the reference script writes only those
	for _, sh := range depthShapes(t) {
		if !strings.HasPrefix(sh.name, "v3") {
			shapes = append(shapes, sh)
		}
	}
	rng := rand.New(rand.NewPCG(9, 10))
	leaves := []string{"1", `"s"`, "null", "true", "[]", "{}", "1.5", `["a", {}]`}
	var value func(depth int) string
	value = func(depth int) string {
		if depth == 0 {
			return leaves[rng.IntN(len(leaves))]
		}
		var sib []string
		for range rng.IntN(3) {
			sib = append(sib, value(min(rng.IntN(3), depth-1)))
		}
		inner := value(depth - 1)
		pos := rng.IntN(len(sib) + 1)
		items := append(append(append([]string{}, sib[:pos]...), inner), sib[pos:]...)
		if rng.IntN(2) == 0 {
			return "[" + strings.Join(items, ", ") + "]"
		}
		var b strings.Builder
		b.WriteString("{")
		for i, it := range items {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `"k%d": %s`, i, it)
		}
		b.WriteString("}")
		return b.String()
	}
	dir := t.TempDir()
	warmup := `{"cells": [{"cell_type": "code", "execution_count": 1, "id": "w", "metadata": {"b": true, "f": 1.5, "n": null, "l": [1], "s": "x", "d": {"a": false}}, "outputs": [], "source": ["a\n", "b"]}], "metadata": {"x": [null, true, 1, 1.5, "s", [], {}]}, "nbformat": 4, "nbformat_minor": 5}`
	if err := os.WriteFile(filepath.Join(dir, "0000-warmup.ipynb"), []byte(warmup), 0o644); err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	for i := range 240 {
		sh := shapes[rng.IntN(len(shapes))]
		in := strings.Replace(sh.template, `"@"`, value(480+rng.IntN(30)), 1)
		name := fmt.Sprintf("%04d-%s.ipynb", i+1, sh.name)
		docs[name] = in
		if err := os.WriteFile(filepath.Join(dir, name), []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(py, referenceScript(t, "nbformat_canonical.py"), dir, t.TempDir()).Output()
	if err != nil {
		t.Fatal(err)
	}
	fails, writes := 0, 0
	for _, line := range strings.Split(string(out), "\n") {
		st, name, ok := strings.Cut(line, " ")
		in, known := docs[name]
		if !ok || !known {
			continue
		}
		nb, err := nbformat.Unmarshal([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		_, err = nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
		if pyFails := st == "skip-error"; pyFails != (err != nil) {
			t.Errorf("%s: Python says %s, canonical Marshal says %v", name, st, err)
		}
		if st == "skip-error" {
			fails++
		} else {
			writes++
		}
	}
	t.Logf("%d refused, %d written, as Python", fails, writes)
	if fails < 40 || writes < 40 {
		t.Errorf("unbalanced sample: %d refused, %d written", fails, writes)
	}
}

package ipynb

// A test that the generated files are what the //go:generate lines of
// generate.go make.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// The generated files are fresh: running the //go:generate lines of
// generate.go, with their outputs redirected into a temporary folder and
// the pinned go-jsonschema of go.mod, gives exactly the committed
// schema/notebook.schema.json, nbformat/schema_gen.go,
// nbformat/codec_gen.go, nbformat/codec_synth_gen_test.go,
// internal/nbmap/map_gen.go and internal/nbshape/shape_gen.go (as .ci/run
// checks with go generate; this test checks it from go test too). In the
// long tier only (IPYNB_LONG=1: see internal/testtier); skipped when the
// go command or the generator's module is not available.
func TestGeneratedCodeIsFresh(t *testing.T) {
	testtier.Long(t)
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	if out, err := exec.Command(goCmd, "mod", "download", "github.com/atombender/go-jsonschema").CombinedOutput(); err != nil {
		t.Skipf("cannot download the pinned go-jsonschema: %v\n%s", err, out)
	}
	src, err := os.ReadFile("generate.go")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	// Committed file → its temporary stand-in, for every output and for
	// inputs produced by an earlier line.
	redirect := map[string]string{}
	var outputs []string
	for _, line := range strings.Split(string(src), "\n") {
		args, ok := strings.CutPrefix(line, "//go:generate ")
		if !ok {
			continue
		}
		fields := strings.Fields(args)
		if len(fields) < 3 || fields[0] != "go" || fields[1] != "run" {
			t.Fatalf("unexpected //go:generate line %q", line)
		}
		for i := 2; i < len(fields); i++ {
			if (fields[i] == "-o" || fields[i] == "-out") && i+1 < len(fields) {
				committed := fields[i+1]
				if _, again := redirect[committed]; !again {
					redirect[committed] = filepath.Join(tmp, filepath.Base(committed))
					outputs = append(outputs, committed)
				}
				fields[i+1] = redirect[committed]
				i++
			} else if r, ok := redirect[fields[i]]; ok {
				fields[i] = r
			}
		}
		cmd := exec.Command(goCmd, fields[1:]...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(fields, " "), err, out)
		}
	}
	if len(outputs) != 6 {
		t.Fatalf("generate.go has outputs %q, want the generation schema, schema_gen.go, codec_gen.go, codec_synth_gen_test.go, map_gen.go and shape_gen.go", outputs)
	}
	for _, committed := range outputs {
		want, err := os.ReadFile(committed)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(redirect[committed])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: go generate ./... makes something else; run it and commit the result", committed)
		}
	}
}

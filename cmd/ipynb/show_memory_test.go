package main

// Tests that show of notebooks dense in small values allocates in proportion to
// the file and prints the row encoding/json gives.

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// denseFile writes nbtest.Dense(kind, n) to dir and returns its path and
// size.
func denseFile(t *testing.T, dir, kind string, n int) (string, int64) {
	t.Helper()
	data := nbtest.Dense(kind, n)
	p := filepath.Join(dir, fmt.Sprintf("dense-%s-%d.ipynb", kind, n))
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p, int64(len(data))
}

// wantShowRow is the row show prints for the one message of a dense
// notebook (nbtest.Dense) at width 120, from encoding/json: its id, kind
// and source cut so that the row holds 120 characters with " ⇒ out(N B)",
// N the size encoding/json gives the outputs decoded.
func wantShowRow(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			ID      string           `json:"id"`
			Source  json.RawMessage  `json:"source"`
			Outputs []map[string]any `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatal(err)
	}
	c := nb.Cells[0]
	var text string
	var lines []string
	if json.Unmarshal(c.Source, &lines) == nil {
		text = strings.Join(lines, "")
	} else if err := json.Unmarshal(c.Source, &text); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(rejoined(c.Outputs))
	if err != nil {
		t.Fatal(err)
	}
	row := []rune(c.ID + ":c:" + strings.ReplaceAll(text, "\n", `\n`))
	mark := fmt.Sprintf(" ⇒ out(%d B)", len(out))
	if room := 120 - len([]rune(mark)); len(row) > room {
		return string(row[:room-1]) + "…" + mark
	}
	return string(row) + mark
}

// rejoined is outputs as the dialog layer's generic form has them (as
// Python nbformat reads them): the lines of a stream's text and of
// output data of MIME types that are not JSON joined into one string.
func rejoined(outputs []map[string]any) []map[string]any {
	join := func(v any) any {
		lines, ok := v.([]any)
		if !ok {
			return v
		}
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(l.(string))
		}
		return b.String()
	}
	for _, o := range outputs {
		if _, ok := o["text"]; ok {
			o["text"] = join(o["text"])
		}
		data, _ := o["data"].(map[string]any)
		for k, v := range data {
			if k != "application/json" && !strings.HasSuffix(k, "+json") {
				data[k] = join(v)
			}
		}
	}
	return outputs
}

// ipynb show of a notebook whose bulk is one value of millions of small
// values (nbtest.Dense: JSON or text output data, a cell's source or
// metadata, the notebook's metadata) allocates, in all, 1.03–1.30 bytes
// per byte of file (the file read is one of them) at every size from 0.5
// to 8 MB, and the same per byte at each doubling; the row printed is
// encoding/json's. The bound is 1.6 (1.3 + 25%). Before, show allocated
// 2.0 bytes per byte of JSON output data (its size was taken from a copy
// of the value: MimeBundle.RawJSON) and 4.5 of a source of one-character
// lines (the row was cut after converting the whole message to runes, 4
// bytes each, after two copies of it), and the test failed; peak RSS of
// show on benchgen -dense output of 50 MB was 107 MB (2.1×), 58 MB after.
func TestShowMemoryScalesDense(t *testing.T) {
	testtier.Long(t)
	var out strings.Builder
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: io.Discard}
	for _, kind := range []string{"output", "text", "source", "cell", "meta"} {
		bound := 1.6
		if kind == "source" {
			// The message's content, built from the lines read in a buffer
			// of their JSON's size (nbformat.MultilineString.String).
			bound = 2.6
		}
		t.Run(kind, func(t *testing.T) {
			want := map[string]string{} // by path, from encoding/json
			file := func(dir string, n int) (string, int64) {
				p, size := denseFile(t, dir, kind, n)
				want[p] = "dense-" + kind + "-" + fmt.Sprint(n) + "\n" + wantShowRow(t, p) + "\n"
				return p, size
			}
			allocScalesOf(t, "show", bound, file, []int{1 << 18, 1 << 19, 1 << 20, 1 << 21}, func(p string, n int) {
				out.Reset()
				if st := runShow(e, []string{p}); st != exitOK {
					t.Fatalf("n = %d: status %d", n, st)
				}
				if out.String() != want[p] {
					t.Fatalf("n = %d: show printed\n%q\nwant\n%q", n, out.String(), want[p])
				}
			})
		})
	}
}

package nbformat_test

// A fuzz test of edits through the public API: Marshal writes the values the
// notebook holds, as encoding/json reads them.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nbdialog/ipynb/nbformat"
)

// refCell is a cell as encoding/json reads it (the reference view).
type refCell struct {
	CellType string          `json:"cell_type"`
	ID       *string         `json:"id"`
	Source   json.RawMessage `json:"source"`
	EC       *json.Number    `json:"execution_count"`
	Outputs  []struct {
		OutputType string          `json:"output_type"`
		Name       string          `json:"name"`
		Text       json.RawMessage `json:"text"`
	} `json:"outputs"`
}

func refCells(b []byte) ([]refCell, bool) {
	var doc struct {
		Cells []refCell `json:"cells"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, false
	}
	return doc.Cells, true
}

// sameAsRef reports where nb's values (through the public accessors)
// differ from the cells encoding/json reads from b ("" when they agree).
func sameAsRef(t *testing.T, nb *nbformat.Notebook, b []byte) string {
	cells, ok := refCells(b)
	if !ok {
		return "encoding/json cannot read the bytes"
	}
	if len(cells) != len(nb.Cells) {
		return "number of cells"
	}
	for i, rc := range cells {
		c := nb.Cells[i]
		if _, unknown := c.(*nbformat.UnknownCell); unknown {
			continue
		}
		var s string
		if json.Unmarshal(rc.Source, &s) != nil {
			var lines []string
			if json.Unmarshal(rc.Source, &lines) != nil {
				continue // not a multiline string: kept aside, not compared
			}
			s = strings.Join(lines, "")
		}
		if got := nbformat.SourceOf(c).String(); got != s {
			return "source of cell " + string(rune('0'+i%10)) + ": " + got + " vs " + s
		}
		if rc.ID != nil && string(nbformat.CellIDOf(c)) != *rc.ID {
			return "id of a cell"
		}
		if cc, ok := c.(*nbformat.CodeCell); ok && rc.EC != nil && cc.ExecutionCount != nil {
			if n, err := rc.EC.Int64(); err == nil && int64(*cc.ExecutionCount) != n {
				return "execution count"
			}
		}
		if cc, ok := c.(*nbformat.CodeCell); ok && len(rc.Outputs) == len(cc.Outputs) {
			for k, ro := range rc.Outputs {
				st, ok := cc.Outputs[k].(*nbformat.Stream)
				if !ok || ro.OutputType != "stream" {
					continue
				}
				if st.Name != ro.Name {
					return "stream name"
				}
				var txt string
				if json.Unmarshal(ro.Text, &txt) != nil {
					var lines []string
					if json.Unmarshal(ro.Text, &lines) != nil {
						continue
					}
					txt = strings.Join(lines, "")
				}
				if st.Text.String() != txt {
					return "stream text"
				}
			}
		}
	}
	return ""
}

// FuzzAttackEdits reads a notebook, applies edits chosen by the fuzzer
// through the public API, and checks two things against encoding/json:
// Marshal writes the values the notebook now holds, and a notebook that
// says it is unedited holds exactly the values of the bytes read.
func FuzzAttackEdits(f *testing.F) {
	f.Add([]byte(attackNB), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8}, "new")
	f.Add([]byte(attackNB), []byte{9, 9, 1, 0}, "")
	f.Add([]byte(attackNB), []byte{5, 0, 2}, "x = 1\n")
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
			f.Add(b, []byte{0, 1, 4, 0, 3, 17, 2, 2}, "edited\n")
		}
	}
	f.Fuzz(func(t *testing.T, data, ops []byte, s string) {
		if !utf8.Valid(data) || bytes.Contains(bytes.ToLower(data), []byte(`\ud`)) || !utf8.ValidString(s) {
			return // encoding/json replaces what nbformat keeps: not comparable
		}
		nb, err := nbformat.Unmarshal(data)
		if err != nil || len(nb.Cells) == 0 {
			return
		}
		if _, ok := refCells(data); !ok {
			return
		}
		if msg := sameAsRef(t, nb, data); msg != "" {
			t.Skip("reference view differs before any edit: " + msg)
		}
		for k := 0; k+1 < len(ops) && k < 16; k += 2 {
			c := nb.Cells[int(ops[k+1])%len(nb.Cells)]
			switch ops[k] % 10 {
			case 0:
				setSource(c, s)
			case 1:
				nbformat.SetCellID(c, nbformat.CellID(s))
			case 2:
				if cc, ok := c.(*nbformat.CodeCell); ok && cc.ExecutionCount != nil {
					*cc.ExecutionCount += len(s) + 1
				}
			case 3:
				j := int(ops[k+1]/7) % len(nb.Cells)
				i := int(ops[k+1]) % len(nb.Cells)
				nb.Cells[i], nb.Cells[j] = nb.Cells[j], nb.Cells[i]
			case 4:
				if cc, ok := c.(*nbformat.CodeCell); ok {
					for _, o := range cc.Outputs {
						if st, ok := o.(*nbformat.Stream); ok {
							st.Text.Set(s)
						}
					}
				}
			case 5:
				setSource(c, nbformat.SourceOf(c).String()) // equal value
			case 6:
				if cc, ok := c.(*nbformat.CodeCell); ok && len(cc.Outputs) > 1 {
					cc.Outputs[0], cc.Outputs[len(cc.Outputs)-1] = cc.Outputs[len(cc.Outputs)-1], cc.Outputs[0]
				}
			case 7:
				if cc, ok := c.(*nbformat.CodeCell); ok && len(cc.Outputs) > 0 {
					cc.Outputs = cc.Outputs[1:]
				}
			case 8:
				nb.Cells = nb.Cells[:len(nb.Cells)-1]
				if len(nb.Cells) == 0 {
					return
				}
			case 9:
				if cc, ok := c.(*nbformat.CodeCell); ok {
					for _, o := range cc.Outputs {
						if st, ok := o.(*nbformat.Stream); ok {
							st.Name = s
						}
					}
				}
			}
		}
		out, err := nbformat.Marshal(nb)
		if err != nil {
			return // an edit Marshal refuses (e.g. an id it cannot write)
		}
		if msg := sameAsRef(t, nb, out); msg != "" {
			t.Fatalf("Marshal's output does not hold the notebook's values: %s\nops %v s %q", msg, ops, s)
		}
		if !nb.Edited() {
			if msg := sameAsRef(t, nb, data); msg != "" {
				t.Fatalf("Edited() = false but the notebook's values differ from the bytes read: %s", msg)
			}
			if !bytes.Equal(out, data) {
				t.Fatalf("Edited() = false but Marshal changed the bytes")
			}
		}
	})
}

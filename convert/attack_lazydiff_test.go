package convert_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// lazyScenarios are sequences of calls a Go caller makes on a dialog read
// from a notebook, each ending in bytes written. Run against two builds of
// the module (TestLazyDiffManifest), they must write the same bytes.
var lazyScenarios = []struct {
	name string
	run  func(data []byte) ([]byte, error)
}{
	{"marshal", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil {
			return nil, err
		}
		return convert.Marshal(d)
	}},
	{"marshal-edit-first", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil || len(d.Messages) == 0 {
			return nil, err
		}
		if _, err := convert.Marshal(d); err != nil {
			return nil, err
		}
		d.Messages[0].Content += "\nx"
		return convert.Marshal(d)
	}},
	{"edit-last-twice", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil || len(d.Messages) == 0 {
			return nil, err
		}
		m := d.Messages[len(d.Messages)-1]
		m.Content += "y"
		a, err := convert.Marshal(d)
		if err != nil {
			return nil, err
		}
		m.Content = strings.TrimSuffix(m.Content, "y")
		b, err := convert.Marshal(d)
		return append(a, b...), err
	}},
	{"swap", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil || len(d.Messages) < 2 {
			return nil, err
		}
		n := len(d.Messages)
		d.Messages[0], d.Messages[n-1] = d.Messages[n-1], d.Messages[0]
		return convert.Marshal(d)
	}},
	{"remove-add", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil || len(d.Messages) < 2 {
			return nil, err
		}
		d.Random = dialog.Seeded(7)
		d.Messages = append(d.Messages[:1:1], d.Messages[2:]...)
		d.Add(dialog.Note, "added ü")
		return convert.Marshal(d)
	}},
	{"meta-inplace", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil {
			return nil, err
		}
		for _, m := range d.Messages {
			if m.Meta != nil {
				m.Meta["lazy"] = 1
				break
			}
		}
		return convert.Marshal(d)
	}},
	{"dialog-meta", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil {
			return nil, err
		}
		if d.Meta == nil {
			d.Meta = map[string]any{}
		}
		d.Meta["lazy"] = "m"
		return convert.Marshal(d)
	}},
	{"outputs-moved", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil {
			return nil, err
		}
		var code []*dialog.Message
		for _, m := range d.Messages {
			if m.Kind == dialog.Code && len(m.Outputs) > 0 {
				code = append(code, m)
			}
		}
		if len(code) < 2 {
			return nil, nil
		}
		code[0].Outputs, code[1].Outputs = code[1].Outputs, code[0].Outputs
		return convert.Marshal(d)
	}},
	{"output-remade", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil {
			return nil, err
		}
		for _, m := range d.Messages {
			if len(m.Outputs) > 0 {
				g, err := m.Outputs[0].Map()
				if err != nil {
					return nil, err
				}
				if md, ok := g["metadata"].(map[string]any); ok {
					md["lazy"] = true
				} else {
					g["metadata"] = map[string]any{"lazy": true}
				}
				m.Outputs[0] = dialog.NewOutput(g)
				break
			}
		}
		return convert.Marshal(d)
	}},
	{"map-mutate-nested", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil || len(d.Messages) == 0 {
			return nil, err
		}
		for _, m := range d.Messages {
			for _, o := range m.Outputs {
				g, err := o.Map()
				if err != nil {
					return nil, err
				}
				mutateGeneric(g)
			}
		}
		a, err := convert.Marshal(d)
		if err != nil {
			return nil, err
		}
		d.Messages[0].Content += "q"
		b, err := convert.Marshal(d)
		if err != nil {
			return nil, err
		}
		nb, err := convert.Options{}.ToNotebook(d)
		if err != nil {
			return nil, err
		}
		c, err := nbformat.Marshal(nb)
		return append(append(a, b...), c...), err
	}},
	{"tonotebook-change-then-marshal", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil {
			return nil, err
		}
		nb, err := convert.Options{}.ToNotebook(d)
		if err != nil {
			return nil, err
		}
		changeNotebook(nb)
		a, err := nbformat.Marshal(nb)
		if err != nil {
			return nil, err
		}
		b, err := convert.Marshal(d)
		if err != nil {
			return nil, err
		}
		nb2, err := convert.Options{}.ToNotebook(d)
		if err != nil {
			return nil, err
		}
		c, err := nbformat.Marshal(nb2)
		return append(append(a, b...), c...), err
	}},
	{"marshal-then-tonotebook-change", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil {
			return nil, err
		}
		if _, err := convert.Marshal(d); err != nil {
			return nil, err
		}
		nb, err := convert.Options{}.ToNotebook(d)
		if err != nil {
			return nil, err
		}
		changeNotebook(nb)
		if _, err := nbformat.Heal(nb); err != nil {
			return nil, err
		}
		a, err := nbformat.Marshal(nb)
		if err != nil {
			return nil, err
		}
		if len(d.Messages) > 0 {
			d.Messages[0].Content += "z"
		}
		b, err := convert.Marshal(d)
		return append(a, b...), err
	}},
	{"tonotebook-swap-cells", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil {
			return nil, err
		}
		nb, err := convert.Options{}.ToNotebook(d)
		if err != nil {
			return nil, err
		}
		if n := len(nb.Cells); n > 1 {
			nb.Cells[0], nb.Cells[n-1] = nb.Cells[n-1], nb.Cells[0]
		}
		a, err := nbformat.Marshal(nb)
		if err != nil {
			return nil, err
		}
		b, err := convert.Marshal(d)
		return append(a, b...), err
	}},
	{"tonotebook-dup-cell", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil {
			return nil, err
		}
		nb, err := convert.Options{}.ToNotebook(d)
		if err != nil {
			return nil, err
		}
		if len(nb.Cells) > 0 {
			nb.Cells = append(nb.Cells, nb.Cells[0])
		}
		a, err := nbformat.Marshal(nb)
		if err != nil {
			return nil, err
		}
		if _, err := nbformat.Heal(nb); err != nil {
			return nil, err
		}
		b, err := nbformat.Marshal(nb)
		return append(a, b...), err
	}},
	{"two-dialogs-share", func(data []byte) ([]byte, error) {
		d1, err := convert.Unmarshal(data)
		if err != nil {
			return nil, err
		}
		d2, err := convert.Unmarshal(data)
		if err != nil || len(d1.Messages) == 0 {
			return nil, err
		}
		d2.Messages = append(d2.Messages, d1.Messages[0])
		d1.Messages[0].Content += "w"
		a, err := convert.Marshal(d2)
		if err != nil {
			return nil, err
		}
		b, err := convert.Marshal(d1)
		return append(a, b...), err
	}},
	{"subset", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil || len(d.Messages) < 2 {
			return nil, err
		}
		n := len(d.Messages)
		o := convert.Options{Messages: []*dialog.Message{d.Messages[n-1], d.Messages[0]}}
		return o.Marshal(d)
	}},
	{"merge", func(data []byte) ([]byte, error) {
		d, err := convert.Unmarshal(data)
		if err != nil || len(d.Messages) < 2 {
			return nil, err
		}
		d.Messages[0].Content += "\nours"
		ours, err := convert.Marshal(d)
		if err != nil {
			return nil, err
		}
		d2, err := convert.Unmarshal(data)
		if err != nil {
			return nil, err
		}
		d2.Messages[len(d2.Messages)-1].Content += "\ntheirs"
		theirs, err := convert.Marshal(d2)
		if err != nil {
			return nil, err
		}
		r, err := convert.Merge(data, ours, theirs, dialog.MergeOptions{})
		if err != nil {
			return nil, err
		}
		r2, err := convert.Merge(data, data, theirs, dialog.MergeOptions{})
		if err != nil {
			return nil, err
		}
		return append(r.Data, r2.Data...), nil
	}},
}

// mutateGeneric changes every map and slice inside g in place.
func mutateGeneric(g any) {
	switch g := g.(type) {
	case map[string]any:
		for k, v := range g {
			if s, ok := v.(string); ok {
				g[k] = s + "~"
			} else {
				mutateGeneric(v)
			}
		}
		g["mut"] = 1
	case []any:
		for i, v := range g {
			if s, ok := v.(string); ok {
				g[i] = s + "~"
			} else {
				mutateGeneric(v)
			}
		}
	}
}

// changeNotebook changes a notebook handed out in place: the first cell's
// source, its metadata, and the first output's text or data.
func changeNotebook(nb *nbformat.Notebook) {
	for _, c := range nb.Cells {
		switch c := c.(type) {
		case *nbformat.CodeCell:
			c.Source.Set(c.Source.String() + "#")
			if c.Metadata.AdditionalProperties == nil {
				c.Metadata.AdditionalProperties = map[string]any{}
			}
			c.Metadata.AdditionalProperties["lazyc"] = 1
			for _, o := range c.Outputs {
				if s, ok := o.(*nbformat.Stream); ok {
					s.Text.Set(s.Text.String() + "!")
					break
				}
			}
			return
		case *nbformat.MarkdownCell:
			c.Source.Set(c.Source.String() + "#")
			return
		case *nbformat.RawCell:
			c.Source.Set(c.Source.String() + "#")
			return
		}
	}
}

// TestLazyDiffManifest writes, for every corpus file and scenario, the
// digest of what it writes (or its error) to $LAZYATTACK_OUT: run in two
// trees, the manifests are compared with diff.
func TestLazyDiffManifest(t *testing.T) {
	out := os.Getenv("LAZYATTACK_OUT")
	if out == "" {
		t.Skip("LAZYATTACK_OUT not set")
	}
	var lines []string
	for e, data := range corpus.Files(t) {
		for _, s := range lazyScenarios {
			got, err := s.run(data)
			line := fmt.Sprintf("%s\t%s\t", filepath.ToSlash(e.Path), s.name)
			if err != nil {
				line += "error: " + err.Error()
			} else {
				line += fmt.Sprintf("%x %d", sha256.Sum256(got), len(got))
			}
			lines = append(lines, line)
			if os.Getenv("LAZYATTACK_KEEP") != "" && err == nil {
				p := filepath.Join(filepath.Dir(out), "keep", s.name, filepath.ToSlash(e.Path))
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, got, 0o644)
			}
		}
	}
	sort.Strings(lines)
	if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

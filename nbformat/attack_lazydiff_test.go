package nbformat_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// nbLazyScenarios are sequences of nbformat calls a Go caller makes on a
// notebook read (edits, Heal, writes), each giving what it wrote. Run
// against two builds of the module (TestNbLazyDiffManifest), they must
// give the same.
var nbLazyScenarios = []struct {
	name string
	run  func(data []byte) (string, error)
}{
	{"heal", func(data []byte) (string, error) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			return "", err
		}
		return healWrite(nb)
	}},
	{"bom-heal-edit", func(data []byte) (string, error) {
		nb, err := nbformat.Unmarshal(append([]byte("\xef\xbb\xbf"), data...))
		if err != nil {
			return "", err
		}
		a, err := healWrite(nb)
		if err != nil {
			return a, err
		}
		editSource(nb, 0)
		b, err := healWrite(nb)
		return a + b, err
	}},
	{"edit-first-heal", func(data []byte) (string, error) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			return "", err
		}
		editSource(nb, 0)
		a, err := write(nb)
		if err != nil {
			return a, err
		}
		b, err := healWrite(nb)
		return a + b, err
	}},
	{"swap-heal", func(data []byte) (string, error) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil || len(nb.Cells) < 2 {
			return "", err
		}
		n := len(nb.Cells)
		nb.Cells[0], nb.Cells[n-1] = nb.Cells[n-1], nb.Cells[0]
		a, err := write(nb)
		if err != nil {
			return a, err
		}
		b, err := healWrite(nb)
		return a + b, err
	}},
	{"heal-edit-heal", func(data []byte) (string, error) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			return "", err
		}
		a, err := healWrite(nb)
		if err != nil {
			return a, err
		}
		editSource(nb, len(nb.Cells)-1)
		b, err := write(nb)
		if err != nil {
			return a + b, err
		}
		c, err := healWrite(nb)
		return a + b + c, err
	}},
	{"outputs-lent-during-heal", func(data []byte) (string, error) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			return "", err
		}
		kept := slices.Clone(nb.Cells)
		for i, c := range nb.Cells {
			if code, ok := c.(*nbformat.CodeCell); ok && len(code.Outputs) > 0 {
				nb.Cells[i] = &nbformat.CodeCell{CellType: "code", Outputs: code.Outputs, Metadata: nbformat.CodeCellMetadata{}}
			}
		}
		a, err := healWrite(nb)
		if err != nil {
			return a, err
		}
		nb.Cells = kept
		b, err := write(nb)
		return a + b, err
	}},
	{"two-notebooks-share", func(data []byte) (string, error) {
		nb1, err := nbformat.Unmarshal(data)
		if err != nil {
			return "", err
		}
		nb2, _ := nbformat.Unmarshal(data)
		nb2.Cells = append(nb2.Cells, nb1.Cells...)
		a, err := healWrite(nb2)
		if err != nil {
			return a, err
		}
		editSource(nb1, 0)
		b, err := write(nb2)
		if err != nil {
			return a + b, err
		}
		c, err := healWrite(nb1)
		return a + b + c, err
	}},
	{"copy-shares-source", func(data []byte) (string, error) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil || len(nb.Cells) == 0 {
			return "", err
		}
		cp := &nbformat.Notebook{}
		*cp = *nb
		cp.Cells = slices.Clone(nb.Cells)
		cp.Cells = append(cp.Cells, cp.Cells[0])
		a, err := healWrite(cp)
		if err != nil {
			return a, err
		}
		b, err := write(nb)
		return a + b, err
	}},
	{"output-meta-inplace", func(data []byte) (string, error) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			return "", err
		}
		for _, c := range nb.Cells {
			if code, ok := c.(*nbformat.CodeCell); ok {
				for _, o := range code.Outputs {
					switch o := o.(type) {
					case *nbformat.DisplayData:
						if o.Metadata != nil {
							o.Metadata["lazy"] = 1
							return healWrite(nb)
						}
					case *nbformat.ExecuteResult:
						if o.Metadata != nil {
							o.Metadata["lazy"] = 1
							return healWrite(nb)
						}
					}
				}
			}
		}
		return "", nil
	}},
	{"dup-cells-heal", func(data []byte) (string, error) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			return "", err
		}
		nb.Cells = append(nb.Cells, nb.Cells...)
		a, err := healWrite(nb)
		if err != nil {
			return a, err
		}
		nb.Cells = nb.Cells[:len(nb.Cells)/2]
		b, err := write(nb)
		return a + b, err
	}},
	{"upgrade-edit-heal", func(data []byte) (string, error) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat != 3 {
			return "", err
		}
		if err := nbformat.Upgrade(nb); err != nil {
			return "", err
		}
		a, err := write(nb)
		if err != nil {
			return a, err
		}
		editSource(nb, 0)
		b, err := healWrite(nb)
		return a + b, err
	}},
	{"canonical-after-heal", func(data []byte) (string, error) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			return "", err
		}
		if _, err := nbformat.Heal(nb); err != nil {
			return "", err
		}
		editSource(nb, 0)
		out, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
		return digest(out), err
	}},
}

func digest(b []byte) string { return fmt.Sprintf("%x:%d ", sha256.Sum256(b), len(b)) }

// write is Marshal, Validate's verdict and Edited, as text.
func write(nb *nbformat.Notebook) (string, error) {
	out, err := nbformat.Marshal(nb)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	sb.WriteString(digest(out))
	if verr := nbformat.Validate(nb); verr != nil {
		sb.WriteString("invalid:" + digest([]byte(verr.Error())))
	}
	fmt.Fprintf(&sb, "edited:%v ", nb.Edited())
	return sb.String(), nil
}

// healWrite is Heal, then write, with the repairs.
func healWrite(nb *nbformat.Notebook) (string, error) {
	rs, err := nbformat.Heal(nb)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	for _, r := range rs {
		sb.WriteString(r.String())
	}
	w, err := write(nb)
	return digest([]byte(sb.String())) + w, err
}

// editSource appends to the source of cell i.
func editSource(nb *nbformat.Notebook, i int) {
	if i < 0 || i >= len(nb.Cells) {
		return
	}
	switch c := nb.Cells[i].(type) {
	case *nbformat.CodeCell:
		c.Source.Set(c.Source.String() + "#")
	case *nbformat.MarkdownCell:
		c.Source.Set(c.Source.String() + "#")
	case *nbformat.RawCell:
		c.Source.Set(c.Source.String() + "#")
	}
}

// TestNbLazyDiffManifest writes, for every corpus file and scenario, the
// digest of what it gives to $LAZYATTACK_OUT: run in two trees, the
// manifests are compared with diff.
func TestNbLazyDiffManifest(t *testing.T) {
	out := os.Getenv("LAZYATTACK_OUT")
	if out == "" {
		t.Skip("LAZYATTACK_OUT not set")
	}
	var lines []string
	for e, data := range corpus.Files(t) {
		for _, s := range nbLazyScenarios {
			got, err := s.run(data)
			line := fmt.Sprintf("%s\t%s\t%s", filepath.ToSlash(e.Path), s.name, got)
			if err != nil {
				line += "error: " + err.Error()
			}
			lines = append(lines, line)
		}
	}
	sort.Strings(lines)
	if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

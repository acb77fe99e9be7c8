package convert

// The package's unexported functions and options, exported for the external
// tests.

import (
	"errors"
	"io/fs"
	"iter"
	"path/filepath"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// Options is, for the external tests, every option of reading, writing
// and saving in one struct (see options).
type Options = options

// ToDialog is the function ToDialog, for the tests.
func (o options) ToDialog(nb *nbformat.Notebook) (*File, error) { return o.toDialog(nb, nil) }

// Save is File.Save, for the tests.
func (o options) Save(f *File) error { return o.save(f) }

// ToCell converts one message to a new cell (the seed's mk_cell), for the
// tests.
func (o options) ToCell(m *dialog.Message) (nbformat.Cell, error) { return o.toCell(m) }

// ToMessage converts one cell to a message, for the tests.
func (o options) ToMessage(c nbformat.Cell) (*dialog.Message, error) {
	m := &dialog.Message{}
	if _, err := o.toMessage(m, c, nil, nil); err != nil {
		return nil, err
	}
	return m, nil
}

// Cells returns the cells of the notebook dir/<name>.ipynb between prefix
// and suffix cells (the seed's ipynb_cells), for the tests.
func Cells(dir, name string, prefix, suffix []nbformat.Cell) ([]nbformat.Cell, error) {
	nb, err := nbformat.ReadFile(filepath.Join(dir, ipynbName(name)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if nb.Nbformat == 3 {
		if err := nbformat.Upgrade(nb); err != nil {
			return nil, err
		}
	}
	if nb.Nbformat == 4 {
		if _, err := nbformat.Heal(nb); err != nil {
			return nil, err
		}
	}
	return append(append(append([]nbformat.Cell{}, prefix...), nb.Cells...), suffix...), nil
}

// ReduceBaseFrom sets the least size of base MergeTo reduces, for the
// tests, returning a function restoring it.
func ReduceBaseFrom(n int) (restore func()) {
	saved := reduceBaseFrom
	reduceBaseFrom = n
	return func() { reduceBaseFrom = saved }
}

// ReducedOutputs is the number of base's outputs MergeTo reads as ours'
// for these inputs, and whether its notebook metadata (see reducedBase),
// for the tests.
func ReducedOutputs(base, ours []byte) (int, bool) {
	_, r := reducedBase(base, ours)
	return len(r.outputs), r.meta
}

// Registry is the registry of a set of Descriptors (see registry), for
// the tests of Options.
type Registry = registry

// NewRegistry returns the registry of ds, for the tests.
func NewRegistry(ds ...Descriptor) (*Registry, error) { return newRegistry(ds...) }

// MustRegistry returns the registry of ds, which must not conflict, for
// the tests.
func MustRegistry(ds []Descriptor) *Registry {
	r, err := newRegistry(ds...)
	if err != nil {
		panic(err)
	}
	return r
}

// Register is register, for the tests.
func (r *registry) Register(ds ...Descriptor) error { return r.register(ds...) }

// All is each, for the tests.
func (r *registry) All() iter.Seq[Descriptor] { return r.each() }

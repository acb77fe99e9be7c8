package nbformat

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Reading a notebook allocates it, its tape and the first pieces of its
// values in one block (notebookBlock), which the decoder starts from.

// A spare is a zero value of type ti, or none (p nil).
type spare struct {
	ti *typeInfo
	p  unsafe.Pointer
}

// notebookBlock is what reading a notebook allocates in one block: the
// notebook, its source, the source's tape (see jsontree.Block.Tape) and
// order, room for the decoder's first variants, origins and regions, and
// the targets of the two pointers to structs nearly every notebook's
// metadata has (kernelspec and language_info: see decoder.spares), and
// the first blocks of the slabs of the targets of optional strings and
// flags (language_info has three; cells' metadata, collapsed and
// scrolled flags). A
// value in it keeps the whole block alive, as any value of the notebook
// keeps the tape's bytes alive: what the block holds is the notebook's.
type notebookBlock struct {
	nb           Notebook
	src          source
	tape         jsontree.Tape
	order        [64]int32
	variants     [64]variant
	blocks       [8]origin
	regions      [24]snapRegion
	kernelspec   Kernelspec
	languageInfo LanguageInfo
	strs         [4]string
	bools        [4]bool
}

// spareInfos describes the structs of notebookBlock's spares.
var spareInfos = sync.OnceValue(func() [2]*typeInfo {
	return [2]*typeInfo{infoOf(reflect.TypeFor[Kernelspec]()), infoOf(reflect.TypeFor[LanguageInfo]())}
})

// decodeNotebook decodes the notebook whose root object is t's root.
func decodeNotebook(t *jsontree.Tape) *Notebook { return decodeNotebookIn(new(notebookBlock), t) }

// decodeNotebookIn decodes the notebook whose root object is t's root
// into b (new: zero but for its tape, which t may be).
func decodeNotebookIn(b *notebookBlock, t *jsontree.Tape) *Notebook {
	ti := documentInfo() // first: it describes the types typeCount counts
	b.src.tape = t
	if n := typeCount(); n <= len(b.order) {
		b.src.order = b.order[:n]
	}
	b.src.blocks = b.blocks[:0]
	b.nb.src = &b.src
	d := newDecoder(t, &b.src)
	si := spareInfos()
	d.spares = [2]spare{{si[0], unsafe.Pointer(&b.kernelspec)}, {si[1], unsafe.Pointer(&b.languageInfo)}}
	d.variants = b.variants[:0]
	b.src.regions = b.regions[:0]
	d.track(&b.src.regions) // (in the source's block: a pointer into the decoder would move it to the heap)
	d.strs.seed(b.strs[:])
	d.bools.seed(b.bools[:])
	d.decodeStruct(unsafe.Pointer(&b.nb.Document), ti.plan, jsontree.Root)
	b.src.learnOrder(ti, jsontree.Root)
	d.close()
	return &b.nb
}

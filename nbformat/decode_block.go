package nbformat

// Reading a notebook: the notebook, its source and its tape allocated in
// one block, the document decoded into it.

import (
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Reading a notebook allocates it, its tape and the first pieces of its
// values in one block (notebookBlock), which the decoder starts from.

// notebookBlock is what reading a notebook allocates in one block: the
// notebook, its source, the source's tape (see jsontree.Block.Tape) and
// order, the decoder (cleared once the document is decoded), room for its
// first variants, and
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
	order        [len(structCodecs)]int32
	dec          decoder
	variants     [64]variant
	kernelspec   Kernelspec
	languageInfo LanguageInfo
	strs         [4]string
	bools        [4]bool
}

// decodeNotebook decodes the notebook whose root object is t's root.
func decodeNotebook(t *jsontree.Tape) *Notebook { return decodeNotebookIn(new(notebookBlock), t) }

// decodeNotebookIn decodes the notebook whose root object is t's root
// into b (new: zero but for its tape, which t may be).
func decodeNotebookIn(b *notebookBlock, t *jsontree.Tape) *Notebook {
	b.src.tape = t
	b.src.order = b.order[:]
	b.nb.src = &b.src
	d := &b.dec
	*d = decoder{t: t, src: &b.src}
	d.spares = [2]any{&b.kernelspec, &b.languageInfo}
	d.variants = b.variants[:0]
	d.strs.seed(b.strs[:])
	d.bools.seed(b.bools[:])
	d.decStruct(&b.nb.Document, jsontree.Root)
	*d = decoder{} // (its slabs' free rest is not the notebook's)
	return &b.nb
}

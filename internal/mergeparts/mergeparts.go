// Package mergeparts lets the ipynb command give package convert's
// MergeTo a way to read parts of base again, rather than base whole: an
// internal hook, not part of any public API.
package mergeparts

import (
	"io"

	"github.com/nbdialog/ipynb/dialog"
)

// MergeTo is set by package convert (at init): it is convert.MergeTo,
// but where the merge needs base's own outputs (both sides re-ran their
// cells: neither holds them), it reads each as it looks at it by calling
// part with the offset and length of its bytes in base as first read
// (one output in memory at a time), not base whole again. part's bytes
// must be those first read (else the merge fails with an error wrapping
// convert.ErrChanged naming base, once some of it may be written); an
// error of part is returned as it is. A nil part is MergeTo itself.
var MergeTo func(w io.Writer, read func(input string) ([]byte, error), part func(off, n int64) ([]byte, error), opt dialog.MergeOptions) ([]dialog.Conflict, error)

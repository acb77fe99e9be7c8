package convert

import (
	"unsafe"

	"github.com/nbdialog/ipynb/dialog"
)

// readCell is a message read and its snapshot, side by side: a dialog
// read holds all of them in one block (origin.cells), so that reading a
// notebook allocates its messages and snapshots at once, and finding a
// message's snapshot is arithmetic rather than a map (see origin.snap).
type readCell struct {
	msg  dialog.Message
	snap snapshot
}

// snap returns the snapshot of message m (nil when m was not read, or
// org is nil): the one beside it in org.cells when m is one of those
// messages, else the one org.snaps records.
//
// Finding m in org.cells compares addresses: m's, as an integer, with the
// bounds of the block gives the only index m can have, and m is that
// element exactly when &org.cells[i].msg == m. No pointer is made from an
// integer (only the index is computed, then used on the slice, bounds
// checked), so a wrong guess can only miss, never read other memory; and
// org.cells keeps the block alive, at an address the collector never
// changes (Go's heap objects do not move), so the bounds stay those of
// the live block for as long as org exists. TestSnapOfForeignMessages
// checks that messages outside the block (copies, other dialogs', new
// ones, pointers just past the block's end) are not taken for its own.
func (org *origin) snap(m *dialog.Message) *snapshot {
	if org == nil || m == nil {
		return nil
	}
	if n := len(org.cells); n > 0 {
		base := uintptr(unsafe.Pointer(&org.cells[0].msg))
		p := uintptr(unsafe.Pointer(m))
		if p >= base {
			if i := (p - base) / unsafe.Sizeof(readCell{}); i < uintptr(n) && &org.cells[i].msg == m {
				return &org.cells[i].snap
			}
		}
	}
	return org.snaps[m]
}

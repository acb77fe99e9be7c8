package convert

import (
	"sync"

	"github.com/nbdialog/ipynb/dialog"
)

// readCell is a message read and its snapshot, side by side: a dialog
// read holds all of them in one block (origin.cells), so that reading a
// notebook allocates its messages and snapshots at once.
type readCell struct {
	msg  dialog.Message
	snap snapshot
}

// cellIndex finds a message's place in origin.cells: built at its first
// need, once (concurrent writes of one dialog share it).
type cellIndex struct {
	once sync.Once
	at   map[*dialog.Message]int
}

// snap returns the snapshot of message m (nil when m was not read, or
// org is nil): see snapAt.
func (org *origin) snap(m *dialog.Message) *snapshot { return org.snapAt(-1, m) }

// snapAt returns the snapshot of message m, which is likely message i of
// the dialog as read (i < 0: no guess): the one beside it in org.cells
// when m is one of those messages, else the one org.snaps records. A
// right guess costs a comparison; otherwise m is looked up in the index
// of org.cells, made at the first miss.
func (org *origin) snapAt(i int, m *dialog.Message) *snapshot {
	if org == nil || m == nil {
		return nil
	}
	if i >= 0 && i < len(org.cells) && &org.cells[i].msg == m {
		return &org.cells[i].snap
	}
	if len(org.cells) > 0 {
		org.index.once.Do(func() {
			org.index.at = make(map[*dialog.Message]int, len(org.cells))
			for k := range org.cells {
				org.index.at[&org.cells[k].msg] = k
			}
		})
		if k, ok := org.index.at[m]; ok {
			return &org.cells[k].snap
		}
	}
	return org.snaps[m]
}

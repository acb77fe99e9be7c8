package convert

import "github.com/nbdialog/ipynb/internal/nbimpl"

// takeSnapshot takes the snapshot of nbformat's unedited check for the
// notebook org read (see readNotebook and nbimpl.TakeSnapshot), once: the
// memory of its values as decoded, which lets nbformat tell a notebook
// sharing it (a copy written over it, one handed out) that is still as
// read from its memory alone. The notebooks this package reads for
// dialogs are read without it: a dialog written back unchanged is written
// from the bytes read (see asRead), and never needs it. This is the one
// place it is taken; nil and in-place origins are left alone (see below).
//
// It must be taken while the notebook is exactly as read: a change made
// before would be recorded as the notebook read. It is taken before
// anything changes a value reachable from the notebook, hands one out, or
// consults the snapshot (nbformat's Marshal, MarshalTo, Validate, Heal and
// Edited, of the notebook or of a copy sharing it). Every path from the
// read to the take:
//
//   - Reading (readNotebook: Unmarshal, ReadFile, the read-back of a file
//     written by commit, the three inputs of Merge), then toDialog, only
//     reads the notebook: the messages' metadata maps are new maps whose
//     values are scalars or json.RawMessage sharing the bytes read, which
//     no one may change (and which the snapshot compares by identity); a
//     map shared with a message's snapshot (metaMap's same) is internal,
//     never changed; texts are strings; outputs are readOutput handles,
//     whose fields are unexported and whose Decode builds new maps;
//     attachments are copied. A version 3 notebook's upgrade (upgradedCopy)
//     replaces what it changes on a copy, and the ids toDialog sets go
//     into the upgrade's own cells, never into the notebook read.
//   - The dialog handed to the caller holds only those values, and the
//     origin, whose fields the caller cannot reach.
//   - asRead (Marshal and ToNotebook of a dialog unchanged since read)
//     compares messages with their snapshots and asks for the bytes read
//     and their validation (nbimpl.ReadBytes): the typed notebook is
//     neither changed nor checked.
//   - Every other write takes the snapshot first: Marshal (and so
//     WriteFile, Write and Save) when asRead declines, before convert
//     builds its copy, fills it and heals it; ToNotebook always, before
//     asRead hands out a copy sharing the cells read (readCopy) or convert
//     a notebook holding the cells and outputs read (or, for a valid
//     version 3 notebook unchanged, the notebook read itself), which the
//     caller may change in place; so a change the caller makes to what
//     ToNotebook returned is never recorded as read. The first write of
//     a dialog takes it, so no write runs before the take: what a write
//     changes (its copy's own fields and cells, Heal's repairs, which
//     replace shared values rather than change them) comes after it.
//   - Merges: mergeDialogs takes ours' and theirs' snapshots before
//     validating them and before ours' notebook is changed in place
//     (takeCell, adopt, copyHidden; the origin written over it is
//     inPlace, left alone here, as its notebook is no longer as read).
//     Base's notebook is only read, and its snapshot never needed.
//
// Concurrent writes of one dialog (two goroutines calling Marshal or
// ToNotebook) are safe: nbformat takes it once, the other callers waiting
// for it, and checks read it only once taken.
func (org *origin) takeSnapshot() {
	if org == nil || org.inPlace {
		return
	}
	nbimpl.TakeSnapshot(org.nb)
}

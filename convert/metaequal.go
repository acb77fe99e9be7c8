package convert

import (
	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/nbmap"
)

// Metadata compared with the typed metadata it was read from: a snapshot
// of a message's or a dialog's metadata can be the typed metadata itself
// (which no one changes: see metaMap), rather than a deep copy of the map
// made from it, when nbmap.MetaMap reads it (metaMapFast's fast path).

// sameAsTyped reports whether m equals (as jsonvalue.Equal compares them,
// m's values first) the object metaMap gives for md, a pointer to a
// generated metadata struct, without making it: ok is false when
// nbmap.MetaMap does not read md (metaMap gives ToMap's object), and the
// caller must compare with that object.
func sameAsTyped(m map[string]any, md any) (same, ok bool) {
	return nbmap.MetaEqual(m, md)
}

// sameMeta reports whether meta is the dialog's metadata as read (as
// jsonvalue.Equal compares them).
func (org *origin) sameMeta(meta map[string]any) bool {
	if org.metaTyped {
		// (MetaMap read it when it was read, and it has not changed.)
		if same, ok := nbmap.MetaEqual(meta, &org.work.Metadata); ok {
			return same
		}
	}
	return jsonvalue.Equal(meta, org.metaAsRead())
}

// metaAsRead returns the dialog's metadata as read: the copy kept, or one
// made anew from the notebook's (metaTyped), which the caller may keep.
func (org *origin) metaAsRead() map[string]any {
	if !org.metaTyped {
		return org.meta
	}
	meta, _, err := metaMap(&org.work.Metadata)
	if err != nil {
		return nil // (read once without error: never)
	}
	return meta
}

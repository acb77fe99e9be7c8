package dialog

import (
	"maps"
	"slices"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
	"github.com/nbdialog/ipynb/internal/textdiff"
)

// ChangeKind says how a message changed between two dialogs.
type ChangeKind int

// The kinds of changes.
const (
	// Added: only in the second dialog.
	Added ChangeKind = iota + 1
	// Removed: only in the first.
	Removed
	// Changed: in both, in the same place relative to the others, with
	// different parts (Change.Parts).
	Changed
	// Moved: in both, out of the common order; Parts says what else
	// changed (0: nothing).
	Moved
)

// String returns "added", "removed", "changed" or "moved".
func (k ChangeKind) String() string {
	switch k {
	case Added:
		return "added"
	case Removed:
		return "removed"
	case Changed:
		return "changed"
	case Moved:
		return "moved"
	}
	return "ChangeKind(?)"
}

// Part is a set of message parts, as bits.
type Part uint

// The parts of a message a Change can name.
const (
	PartKind Part = 1 << iota
	PartContent
	PartReply // a prompt's reply
	PartOutputs
	PartCount // the execution count
	PartAttachments
	PartMeta  // metadata; Change.Keys says which keys
	PartAttrs // host attributes; Change.Keys names them "attr:NAME"
	// PartID: the id, when messages matched by content (DiffOptions.Unkeyed)
	// have different ids and one of them is not unkeyed: an id removed,
	// added, or replaced by one made up.
	PartID
)

var partNames = []string{"kind", "content", "reply", "outputs", "count", "attachments", "metadata", "attributes", "id"}

// String lists the parts: "content, outputs".
func (p Part) String() string {
	var names []string
	for i, n := range partNames {
		if p&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

// A Change is one difference between two dialogs.
type Change struct {
	Kind ChangeKind
	// ID is the message's id (in B, or in A for a removed message); ""
	// for a change of the dialog (notebook) metadata.
	ID string
	// A and B are the message before and after (nil when absent).
	A, B *Message
	// AIndex and BIndex are its positions (-1 when absent).
	AIndex, BIndex int
	// Parts that differ between A and B.
	Parts Part
	// Keys are the metadata keys that differ (top-level, sorted), then
	// the attributes that differ as "attr:NAME".
	Keys []string
}

// DiffOptions configures Diff. The zero value is ready to use.
type DiffOptions struct {
	// Unkeyed: see MergeOptions.Unkeyed.
	Unkeyed func(*Message) bool
	// PairText: see MergeOptions.PairText (Diff pairs messages as Merge
	// does).
	PairText func(*Message) string
}

// Diff lists what changed from a to b: messages matched as Merge matches
// them (by id, or by content where opt says ids are unkeyed), in b's order
// with removed messages where they were, then the dialog metadata (ID "",
// Kind Changed, Parts PartMeta) if it changed. Equal dialogs give none;
// a nil dialog is an empty one.
func Diff(a, b *Dialog, opt DiffOptions) []Change {
	o := opt
	if a == nil {
		a = &Dialog{}
	}
	if b == nil {
		b = &Dialog{}
	}
	am, bm := a.Messages, b.Messages
	mb := matchSides(am, bm, o.Unkeyed, o.PairText) // b index → a index
	keyA := make([]int, len(am))
	for i := range am {
		keyA[i] = i
	}
	keyB := make([]int, len(bm))
	for j := range bm {
		keyB[j] = mb[j]
		if keyB[j] < 0 {
			keyB[j] = len(am) + j
		}
	}
	inB := make([]bool, len(am))
	for _, i := range mb {
		if i >= 0 {
			inB[i] = true
		}
	}
	common := textdiff.MatchUnique(keyA, keyB)
	var out []Change
	j := 0
	emitB := func(upto int) {
		for ; j < upto; j++ {
			i := mb[j]
			if i < 0 {
				out = append(out, Change{Kind: Added, ID: bm[j].ID, B: bm[j], AIndex: -1, BIndex: j})
				continue
			}
			if common[i] >= 0 && common[i] == j {
				if parts, keys := o.messageParts(am[i], bm[j]); parts != 0 {
					out = append(out, Change{Kind: Changed, ID: bm[j].ID, A: am[i], B: bm[j], AIndex: i, BIndex: j, Parts: parts, Keys: keys})
				}
				continue
			}
			parts, keys := o.messageParts(am[i], bm[j])
			out = append(out, Change{Kind: Moved, ID: bm[j].ID, A: am[i], B: bm[j], AIndex: i, BIndex: j, Parts: parts, Keys: keys})
		}
	}
	for i := range am {
		if common[i] >= 0 {
			emitB(common[i] + 1)
			continue
		}
		if !inB[i] {
			out = append(out, Change{Kind: Removed, ID: am[i].ID, A: am[i], AIndex: i, BIndex: -1})
		}
	}
	emitB(len(bm))
	if !jsonvalue.EqualObjects(nonNilMap(a.Meta), nonNilMap(b.Meta)) {
		out = append(out, Change{Kind: Changed, AIndex: -1, BIndex: -1, Parts: PartMeta, Keys: changedKeys(a.Meta, b.Meta, "")})
	}
	return out
}

// messageParts compares two versions of a message.
func (o DiffOptions) messageParts(a, b *Message) (Part, []string) {
	var p Part
	if a.ID != b.ID && (o.Unkeyed == nil || !o.Unkeyed(a) || !o.Unkeyed(b)) {
		p |= PartID
	}
	if a.Kind != b.Kind {
		p |= PartKind
	}
	if a.Content != b.Content {
		p |= PartContent
	}
	if a.Reply() != b.Reply() {
		p |= PartReply
	}
	if !sameOutputs(withoutReply(a), withoutReply(b)) {
		p |= PartOutputs
	}
	if !sameCount(a.ExecutionCount, b.ExecutionCount) {
		p |= PartCount
	}
	if !sameAttachments(a.Attachments, b.Attachments) {
		p |= PartAttachments
	}
	keys := changedKeys(a.Meta, b.Meta, "")
	if len(keys) > 0 {
		p |= PartMeta
	}
	attrs := changedKeys(a.Attrs, b.Attrs, "attr:")
	if len(attrs) > 0 {
		p |= PartAttrs
	}
	return p, append(keys, attrs...)
}

// changedKeys lists the top-level keys whose values differ, sorted, with
// a prefix.
func changedKeys(a, b map[string]any, prefix string) []string {
	var keys []string
	all := maps.Clone(a)
	if all == nil {
		all = map[string]any{}
	}
	maps.Copy(all, b)
	for _, k := range slices.Sorted(maps.Keys(all)) {
		va, inA := a[k]
		vb, inB := b[k]
		if inA != inB || !jsonvalue.Equal(va, vb) {
			keys = append(keys, prefix+k)
		}
	}
	return keys
}

package dialog

import (
	"fmt"

	"github.com/nbdialog/ipynb/internal/textdiff"
)

// OutputStrategy decides what a merge keeps of a code message's derived
// data — its outputs and execution count — when both sides changed them
// differently. Changes made on one side only are always applied, and
// under every strategy a message deleted on one side and only re-run on
// the other (outputs or count changed, nothing else) is deleted without a
// conflict (what people commit; nbdime does so).
type OutputStrategy int

// The output strategies. The zero value, OutputsConflict, is the default.
const (
	// OutputsConflict keeps both sides' outputs, ours then theirs, each
	// run introduced by a stream output holding a conflict marker line
	// ("<<<<<<< ours", "=======", ">>>>>>> theirs"), and reports a
	// Conflict; execution counts both changed differently keep ours' and
	// are a Conflict too (Part PartCount, recorded beside the cell).
	OutputsConflict OutputStrategy = iota
	// OutputsOurs keeps ours' outputs and execution count.
	OutputsOurs
	// OutputsTheirs keeps theirs'.
	OutputsTheirs
	// OutputsClear removes the outputs and the execution count.
	OutputsClear
)

var strategyNames = []string{"conflict", "ours", "theirs", "clear"}

// String returns the strategy's name: "conflict", "ours", "theirs" or
// "clear".
func (s OutputStrategy) String() string {
	if s >= 0 && int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return fmt.Sprintf("OutputStrategy(%d)", int(s))
}

// MergeOptions configures Merge. The zero value is ready to use.
type MergeOptions struct {
	// Outputs decides outputs and execution counts both sides changed
	// (default OutputsConflict).
	Outputs OutputStrategy
	// MarkerSize is the length of conflict marker runs (default 7, as
	// git's conflict-marker-size).
	MarkerSize int
	// OursLabel and TheirsLabel follow the markers (defaults "ours" and
	// "theirs").
	OursLabel, TheirsLabel string
	// Unkeyed, if set, reports messages whose ids carry no identity —
	// made up when they were read from a notebook without cell ids
	// (before nbformat 4.5). Such messages are matched by content
	// alignment instead of by id. Nil: every id is an identity.
	Unkeyed func(*Message) bool
	// Equal, if set, is asked too whether two versions of a message are
	// the same (after the message's own fields compare equal): for
	// callers that keep more of a message than its fields, such as
	// package convert, which compares the parts of cells a message does
	// not show (an empty attachments object, members unknown to the
	// schema). Nil: the fields decide.
	Equal func(a, b *Message) bool
	// PairText, if set, gives another text of a message, which the
	// merge compares too where it pairs versions of a message by how
	// alike their texts are (messages whose ids are Unkeyed, a message
	// given another id or kind): the more alike of the Contents and of
	// those texts counts. For callers whose Content joins lines the
	// message's file holds apart, such as package convert: a version 3
	// heading is one markdown line in its upgrade, and is compared by its
	// file's lines too. What is merged is Content. Nil: Content only.
	PairText func(*Message) string
	// KindMeta, if set, gives the metadata a message carries by being of
	// a kind (package convert: a prompt's "solveit_ai": true, which a
	// prompt's Meta does not hold but a code or raw cell's may). The
	// merge compares each version's Meta with its kind's added, so that
	// a kind change is no change of such a key, and leaves out of the
	// merged Meta what the merged kind carries.
	KindMeta map[Kind]map[string]any
	// Separator, if set, is how the caller's files hold a prompt's
	// question and reply in one text (package convert: ReplySeparator).
	// Where base's message is not a prompt and its text holds Separator,
	// a side that made it a prompt split that text in two: its question,
	// Separator and its reply are merged as one text with the other
	// side's (which did not make it a prompt), then split at the first
	// Separator again. Empty: only a side that changed nothing of base's
	// text but the split is merged so.
	Separator string
	// Trace, if set, is called for each message of the merged dialog, in
	// order, with its versions in base, ours and theirs (nil where a side
	// has none): for callers that write the result beside one side's
	// bytes, as package convert does.
	Trace func(merged, base, ours, theirs *Message)
}

func (o MergeOptions) markers() textdiff.Markers {
	mk := textdiff.Markers{Size: o.MarkerSize, Ours: o.OursLabel, Theirs: o.TheirsLabel}
	if mk.Size <= 0 {
		mk.Size = 7
	}
	if mk.Ours == "" {
		mk.Ours = "ours"
	}
	if mk.Theirs == "" {
		mk.Theirs = "theirs"
	}
	return mk
}

// A Conflict is a part of a merge that could not be decided: both sides
// changed it differently (or one deleted what the other edited). The
// merged dialog holds a resolution that shows the conflict: where the
// value is text, both versions between conflict markers in the text
// itself (InText: a message's content or reply, both output lists between
// marker outputs, messages both sides put in one place between marker
// messages); otherwise ours' value (see Merge), the conflict recorded
// beside it by package convert's Merge in the cell's metadata (see
// package convert: "ipynb_conflicts").
type Conflict struct {
	// ID is the message's id in the merged dialog; "" for the dialog's
	// (notebook) metadata.
	ID string
	// What names the conflicting part: "content", "reply", "kind",
	// "outputs", "execution count", "id", "metadata key K", "attribute
	// K", "attachment K", "outputs of a message that is no longer code"
	// (and "execution count of …", "reply of a message that is no longer
	// a prompt", "attachment K of a message that is now code"), "deleted
	// by ours, edited by theirs" (or the reverse), "added on both sides",
	// "replaced on both sides", "moved on both sides" (to different
	// places), "added on both sides at different places", "notebook
	// metadata key K". Nested metadata keys are written
	// as a path: "metadata key a/b".
	What string
	// Part is the part of the message that conflicts (one of the Part
	// bits: PartKind, PartContent, PartReply, PartOutputs, PartCount,
	// PartAttachments, PartMeta, PartAttrs, PartID), PartMeta for the
	// notebook metadata, or 0 for the message as a whole (deleted and
	// edited, added, replaced, moved or added apart on both sides).
	Part Part
	// Key locates the value inside Part: the metadata key and the keys
	// nested under it (PartMeta), the attribute and keys under it
	// (PartAttrs), the attachment id (PartAttachments); nil otherwise.
	Key []string
	// InText reports that the merged message shows both versions in its
	// text (see above), so that nothing needs recording beside it.
	InText bool
	// Base, Ours and Theirs are the message's three versions (nil where
	// a side has none); all nil for notebook metadata.
	Base, Ours, Theirs *Message
	// Values holds the conflicting values of a metadata key, attribute
	// or attachment: base, ours, theirs (nil where absent); for a
	// message moved on both sides, or added on both sides at different
	// places, its places: its index (an int) among base's (nil where
	// added), ours' and theirs' messages.
	Values [3]any
}

// String describes the conflict: "message ID: what", or what alone for
// the notebook metadata.
func (c Conflict) String() string {
	if c.ID == "" {
		return c.What
	}
	return "message " + c.ID + ": " + c.What
}

// Merge merges the changes ours and theirs made to base, three-way.
//
// Messages are matched by id (by content where opt.Unkeyed says ids are
// made up). A made-up id is no change of a message's id: a message whose
// versions on both sides have made-up ids keeps base's (where that is
// none either, ours'), and one side's made-up id gives way to the
// other's. Every change made on one side only is applied: inserted,
// deleted and moved messages, and a message's kind, content, reply,
// outputs, execution count, attachments, and metadata and attributes key
// by key (recursively into nested objects, whether maps or raw JSON hold
// them; values compare as JSON values, so re-indenting or reordering is
// no change). Where both sides edited a message's text (content, or a
// prompt's reply) the edits are merged line by line (diff3) and only
// overlapping edits conflict. Outputs and execution counts changed on
// both sides follow opt.Outputs. The dialog metadata (Meta) is merged key
// by key. Messages inserted by both sides at one place come ours first;
// where both sides deleted messages and each put messages of its own in
// their place, both sides' new messages are kept, ours' then theirs',
// between raw messages holding one conflict marker line each (a
// conflict, "replaced on both sides"). A message deleted on one side and
// edited on the other is kept, its content showing the edited text
// against nothing between markers whose labels add "(edited this cell)"
// and "(deleted this cell)"; a message deleted on one side and only
// re-run on the other is deleted.
//
// A message moved on one side is where that side put it. One both sides
// moved to different places is where ours' order puts it, and is a
// Conflict ("moved on both sides", Part 0, not InText) whose Values are
// its places, which package convert records in the cell's metadata.
// Among the messages base, ours and theirs all have, a side moved a
// message when no longest subsequence of that side's order that keeps
// base's order holds it (of two neighbours that swapped places, neither
// moved in this sense: either may have), and the places differ
// when the message before it there (or none, first) is another on ours
// than on theirs. Both sides moving it after the same message, one side
// moving it and the other editing it, and compatible moves of different
// messages merge cleanly. Where a side's order does not say which of
// some messages it moved (a swap), the merge takes it to have moved the
// others than those the other side moved, so that a swap never undoes
// the other side's move.
//
// A message both sides added (of one id, or equal where ids are made up)
// comes once. Where the message before it among those base, ours and
// theirs all have (or none, first) is the same on both sides it merges
// cleanly, at ours' place among the messages added there; otherwise it
// is where ours put it, and is a Conflict ("added on both sides at
// different places", Part 0, not InText) whose Values are its places
// (base's nil), recorded by package convert as a moved message's are.
//
// What both sides changed differently and has no text — the kind, a
// metadata value, an attribute, an attachment, an execution count, an id
// — keeps ours' value and is a Conflict that package convert records in
// the cell's metadata. A part that the merged kind has no place for (a
// reply of what is no longer a prompt, outputs and count of what is no
// longer code, attachments of what is now code) is left out and is a
// Conflict too when a side changed it, so that nothing either side
// changed is lost without a conflict saying so.
//
// The merged dialog takes ours' Name, Path, ModTime and Random, and has no
// Source. Messages one side left as they were, and that merge unchanged,
// are that side's *Message values themselves (not copies): treat the
// inputs as read-only while using the result. The conflicts come in
// message order, notebook metadata last. A nil dialog is an empty one (a
// nil base merges two dialogs made independently). Merge never fails:
// every result can be written.
func Merge(base, ours, theirs *Dialog, opt MergeOptions) (*Dialog, []Conflict) {
	if base == nil {
		base = &Dialog{}
	}
	if ours == nil {
		ours = &Dialog{}
	}
	if theirs == nil {
		theirs = &Dialog{}
	}
	mg := &merger{opt: opt, mk: opt.markers()}
	return mg.merge(base, ours, theirs)
}

// Error: the one error type of the package, its cause in its fields.

package convert

import (
	"fmt"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// An Error reports an operation of the package that failed, with its
// cause in fields: Op says what failed, and which of the other fields
// tell where and why.
//
//   - Op "merge": an input of Merge, MergeTo or Diff is not a readable
//     notebook. Input is "base", "ours" or "theirs" ("a" or "b" for
//     Diff); Err says why and where (an *nbformat.SyntaxError with line
//     and column, or an error with a JSON Pointer; use errors.As).
//   - Op "write": a value given to a message or to the notebook metadata
//     has no valid place in a notebook, and writing would have removed or
//     replaced it to make the notebook valid. Message is the message's id
//     ("" for notebook metadata), Pointer where the value is in the
//     notebook being written, What the repair healing would have made;
//     Err is [ErrInvalidValue].
//   - Op "save": a Save with SaveOptions.MergeOnChange whose merge with
//     the file on disk left conflicts; nothing was written. Path is the
//     file, Conflicts the conflicts, Merged the merged notebook, conflicts
//     marked in their cells (it is valid: a caller may write it anyway, or
//     show it); Err is [ErrChanged].
//   - Op "descriptor": two Descriptors of the options share an attribute
//     or a key. Descriptor is the later one, Existing the earlier, What
//     "attribute" or "key"; Err is nil.
//
// Unwrap returns Err, so that errors.Is matches the sentinels.
type Error struct {
	Op string

	Input string // "merge": the input that is not a notebook

	Message string           // "write": the message's id
	Pointer nbformat.Pointer // "write": where, in the notebook being written
	What    string           // "write": the repair; "descriptor": "attribute" or "key"

	Path      string            // "save": the file
	Conflicts []dialog.Conflict // "save": what the merge could not decide
	Merged    []byte            // "save": the merged notebook

	Descriptor, Existing Descriptor // "descriptor": the later and the earlier

	Err error // the cause
}

// Error returns the message of the failure Op names, starting with
// "convert: ".
func (e *Error) Error() string {
	switch e.Op {
	case "merge":
		return "convert: merge: " + e.Input + ": " + trimPrefix(e.Err)
	case "write":
		where := "notebook metadata"
		if e.Message != "" {
			where = "message " + e.Message
		}
		return fmt.Sprintf("convert: %s: %s: %s: %v (declare the key with a Descriptor to convert it, or give a valid value)", where, e.Pointer, e.What, ErrInvalidValue)
	case "save":
		first := "none"
		if len(e.Conflicts) > 0 {
			first = e.Conflicts[0].String()
		}
		return fmt.Sprintf("convert: save %s: the file changed on disk and merging with it left %d conflicts (first: %s)", e.Path, len(e.Conflicts), first)
	case "descriptor":
		name := e.Descriptor.Attr
		if e.What == "key" {
			name = e.Descriptor.Key
		}
		return fmt.Sprintf("convert: descriptor %s ↔ %s: %s %q is already registered (as %s ↔ %s)",
			e.Descriptor.Attr, e.Descriptor.Key, e.What, name, e.Existing.Attr, e.Existing.Key)
	}
	if e.Err != nil {
		return "convert: " + e.Op + ": " + trimPrefix(e.Err)
	}
	return "convert: " + e.Op
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// trimPrefix returns the message of err without a leading "convert: ".
func trimPrefix(err error) string {
	s := err.Error()
	const p = "convert: "
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}

package nbformat

// Nil cells and outputs in a notebook built in memory: found and refused by
// name.

import "fmt"

// A nil Cell or Output in a notebook — nil itself or a typed nil pointer
// such as (*CodeCell)(nil) — has no JSON to write: writing and validating
// report it as an error, comparing with the original calls it edited,
// and Heal and Upgrade refuse the notebook with the place named, before
// changing anything.

// isNilVariant reports whether x, a Cell or an Output, is nil or a nil
// pointer.
func isNilVariant(x any) bool {
	switch v := x.(type) {
	case nil:
		return true
	case *CodeCell:
		return v == nil
	case *MarkdownCell:
		return v == nil
	case *RawCell:
		return v == nil
	case *UnknownCell:
		return v == nil
	case *ExecuteResult:
		return v == nil
	case *DisplayData:
		return v == nil
	case *Stream:
		return v == nil
	case *ErrorOutput:
		return v == nil
	case *UnknownOutput:
		return v == nil
	}
	return false
}

// nilVariantError returns a *FormatError naming the first nil cell or
// output of nb, or nil if there is none.
func nilVariantError(nb *Notebook) error {
	for i, c := range nb.Cells {
		if isNilVariant(c) {
			return &FormatError{Pointer: Pointer(fmt.Sprintf("/cells/%d", i)), Msg: "nil cell in the notebook"}
		}
		code, ok := c.(*CodeCell)
		if !ok {
			continue
		}
		for j, o := range code.Outputs {
			if isNilVariant(o) {
				return &FormatError{Pointer: Pointer(fmt.Sprintf("/cells/%d/outputs/%d", i, j)), Msg: "nil output in the notebook"}
			}
		}
	}
	return nil
}

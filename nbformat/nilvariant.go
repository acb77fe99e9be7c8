package nbformat

import (
	"fmt"
	"reflect"
)

// A nil Cell or Output in a notebook — nil itself or a typed nil pointer
// such as (*CodeCell)(nil) — has no JSON to write: writing and validating
// report it as an error, comparing with the original calls it edited,
// and Heal and Upgrade refuse the notebook with the place named, before
// changing anything.

// isNilVariant reports whether x, a Cell or an Output, is nil or a nil
// pointer.
func isNilVariant(x any) bool {
	if x == nil {
		return true
	}
	v := reflect.ValueOf(x)
	return v.Kind() == reflect.Pointer && v.IsNil()
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

package nbformat

// Values that contain themselves: the error naming where the cycle is
// (the guard and the search are internal/jsoncycle's).

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsoncycle"
)

// A map or slice stored by the user (in AdditionalProperties or any
// member of type any) may contain itself. encoding/json refuses such a
// value with an error; so do Marshal, Validate and the conversions to
// generic JSON, instead of recursing until the stack is exhausted (the
// guard is internal/jsoncycle's: a value nested deeply without a cycle,
// up to the reader's MaxDepth, still writes).
//
// The error is a *FormatError whose cause (Err) is the
// *json.UnsupportedValueError encoding/json gives for the value, and
// whose Pointer names the place where the value met itself again: the
// first such place in the order of the structs' fields and of sorted map
// keys, found by a second walk over the value made only once writing has
// failed (cycleAt), so that writing tracks no path. The pointer is into
// the notebook for Marshal and Validate, and into the value converted for
// the conversions (MimeBundle.SetJSON, and those of package convert:
// relative to a cell's or the notebook's metadata or to an output).

// cycleError is the error for v, a value that contains itself, met at
// ptr ("" while not known).
func cycleError(v reflect.Value, ptr Pointer) *FormatError {
	return &FormatError{
		Pointer: ptr,
		Msg:     fmt.Sprintf("cannot write a %s that contains itself", v.Type()),
		Err:     &json.UnsupportedValueError{Value: v, Str: "encountered a cycle via " + v.Type().String()},
	}
}

// cycleAt returns err with the place of the cycle in root when err is a
// cycle's error whose place is not known yet: one of cycleGuard's, or
// encoding/json's for a value of another package's type. Other errors are
// returned as they are. It is called only on the error path of a write or
// conversion of root.
func cycleAt(err error, root any) error {
	var fe *FormatError
	var ue *json.UnsupportedValueError
	if err == nil || !errors.As(err, &ue) || !strings.HasPrefix(ue.Str, "encountered a cycle") ||
		errors.As(err, &fe) && fe.Pointer != "" {
		return err
	}
	ptr, v, ok := jsoncycle.Find(reflect.ValueOf(root), cycleStructs)
	if !ok {
		return err // not found again: the error as it is
	}
	return cycleError(v, Pointer(ptr))
}

// cycleStructs walks the members of a struct of this package for
// jsoncycle.Find: its fields and the values its AdditionalProperties keeps
// (by sorted key); text and mime bundles hold bytes only.
func cycleStructs(v reflect.Value, member func(tok string, v reflect.Value) bool) (found, handled bool) {
	if v.Type() == reflect.TypeFor[MultilineString]() || v.Type() == reflect.TypeFor[MimeBundle]() {
		return false, true
	}
	x, ok := structAt0(v)
	if !ok {
		return false, false
	}
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || name == "-" || name == "" {
			continue
		}
		if member(name, v.Field(i)) {
			return true, true
		}
	}
	extra := *x.extra()
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if !shadowedIn(x, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if member(k, reflect.ValueOf(extra[k])) {
			return true, true
		}
	}
	return false, true
}

// structAt0 returns the generated struct v is (a copy when v cannot be
// addressed).
func structAt0(v reflect.Value) (codecStruct, bool) {
	if v.CanAddr() {
		x, ok := v.Addr().Interface().(codecStruct)
		return x, ok
	}
	return generatedStruct(v.Interface())
}

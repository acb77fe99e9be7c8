// Package truthy tests values as Python tests them (bool(v)).
package truthy

import (
	"encoding/json"
	"reflect"
	"strconv"
)

// Of is Python's bool(v) for the values a notebook holds: nil, false,
// zero numbers, "" and empty lists and maps are false, everything else is
// true. Hosts written in Python (Solveit, the seed's module) test flags
// this way: a reply marked "is_ai_res": 1 is as much a reply as one marked
// true, and a flag stored as 0 is as unset as one stored as false.
func Of(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case int:
		return v != 0
	case float64:
		return v != 0
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		return err != nil || f != 0 // a number too large for float64 is not zero
	case map[string]any:
		return len(v) > 0
	case []any:
		return len(v) > 0
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return rv.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return rv.Uint() != 0
	case reflect.Float32, reflect.Float64:
		return rv.Float() != 0
	case reflect.Complex64, reflect.Complex128:
		return rv.Complex() != 0
	case reflect.Map, reflect.Slice, reflect.Array, reflect.String, reflect.Chan:
		return rv.Len() > 0
	case reflect.Pointer, reflect.Interface, reflect.Func:
		return !rv.IsNil()
	}
	return true
}

package nbformat

import (
	"reflect"

	"github.com/google/go-cmp/cmp"
)

// everyField has cmp compare unexported fields too, as reflect.DeepEqual
// does (ValidationError's offset, the errors inside it).
var everyField = cmp.Exporter(func(reflect.Type) bool { return true })

package nbformat

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
)

// The reading and writing code is driven by the generated structs' json
// tags, so a schema change that go generate brings in needs no handwritten
// change here. typeinfo describes, once per Go type, how a value maps to
// JSON.

type kind uint8

const (
	kOther kind = iota
	kString
	kInt
	kUint
	kFloat
	kBool
	kPtr
	kSlice
	kMap    // string-keyed
	kStruct // a generated struct (or Document)
	kAny    // interface{}: generic JSON
	kNumber // json.Number
	kMultiline
	kBundle
	kCell
	kOutput
	kRaw // json.RawMessage: generic JSON kept as its text
)

type typeInfo struct {
	id   int32 // distinct for each type described, from 0 up
	typ  reflect.Type
	kind kind
	elem *typeInfo // kPtr, kSlice, kMap
	plan *structPlan
	// size is typ.Size(): the width of a kInt, the stride of the
	// elements of a slice whose elem this is.
	size uintptr
	// direct names the types the decoder writes without reflection
	// (see decodeAt); directNone for the others.
	direct direct
}

// direct identifies the slice, map and pointer types the decoder builds
// with ordinary Go code rather than through reflect.
type direct uint8

const (
	directNone    direct = iota
	directStrings        // []string
	directCells          // []Cell
	directOutputs        // []Output
	directAnyMap         // map[string]any
	directBundles        // map[string]MimeBundle
	directString         // *string
	directInt            // *int
	directBool           // *bool
)

type fieldInfo struct {
	name     string // JSON key
	index    int
	offset   uintptr // the field's offset in its struct (for decodeAt)
	optional bool    // omitempty: absent when nil
	ti       *typeInfo
	typeTag  bool // cell_type / output_type: written as the variant's type when empty
}

// fieldNamed returns the index in fields of the field with JSON key
// name: a scan, faster than byName's hashing for the few fields generated
// structs have.
func (p *structPlan) fieldNamed(name []byte) (int, bool) {
	if len(p.fields) > 12 {
		i, ok := p.byName[string(name)]
		return i, ok
	}
	for i := range p.fields {
		if p.fields[i].name == string(name) {
			return i, true
		}
	}
	return -1, false
}

type structPlan struct {
	fields      []fieldInfo
	byName      map[string]int // JSON key → index in fields
	extra       int            // index of the AdditionalProperties field, or -1
	extraOffset uintptr        // its offset in the struct
}

var (
	typeInfos      sync.Map // reflect.Type → *typeInfo
	multilineType  = reflect.TypeFor[MultilineString]()
	bundleType     = reflect.TypeFor[MimeBundle]()
	cellType       = reflect.TypeFor[Cell]()
	outputType     = reflect.TypeFor[Output]()
	numberType     = reflect.TypeFor[json.Number]()
	rawType        = reflect.TypeFor[json.RawMessage]()
	anyType        = reflect.TypeFor[any]()
	genericMapType = reflect.TypeFor[map[string]any]()
)

// extraField is the generated name of the field that keeps members the
// schema does not name (see internal/cmd/flatten).
const extraField = "AdditionalProperties"

// infoOf returns the description of t, building it (and the descriptions
// it refers to) once. Descriptions are published only when complete, so
// concurrent readers never see a half-built one.
func infoOf(t reflect.Type) *typeInfo {
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	building := map[reflect.Type]*typeInfo{}
	ti := build(t, building)
	for k, v := range building {
		typeInfos.Store(k, v)
	}
	return ti
}

var (
	buildMu sync.Mutex
	nextID  atomic.Int32 // the next typeInfo.id (changed under buildMu)
)

func build(t reflect.Type, building map[reflect.Type]*typeInfo) *typeInfo {
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	if ti, ok := building[t]; ok {
		return ti // a recursive type: completed by the caller up the stack
	}
	ti := &typeInfo{typ: t, id: nextID.Add(1) - 1, size: t.Size(), direct: directOf(t)}
	building[t] = ti
	switch {
	case t == multilineType:
		ti.kind = kMultiline
	case t == bundleType:
		ti.kind = kBundle
	case t == cellType:
		ti.kind = kCell
	case t == outputType:
		ti.kind = kOutput
	case t == numberType:
		ti.kind = kNumber
	case t == rawType:
		ti.kind = kRaw
	default:
		switch t.Kind() {
		case reflect.String:
			ti.kind = kString
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			ti.kind = kInt
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			ti.kind = kUint
		case reflect.Float32, reflect.Float64:
			ti.kind = kFloat
		case reflect.Bool:
			ti.kind = kBool
		case reflect.Pointer:
			ti.kind = kPtr
			ti.elem = build(t.Elem(), building)
		case reflect.Slice:
			ti.kind = kSlice
			ti.elem = build(t.Elem(), building)
		case reflect.Map:
			if t.Key().Kind() == reflect.String {
				ti.kind = kMap
				ti.elem = build(t.Elem(), building)
			}
		case reflect.Interface:
			if t.NumMethod() == 0 {
				ti.kind = kAny
			}
		case reflect.Struct:
			ti.kind = kStruct
			ti.plan = planOf(t, building)
		}
	}
	return ti
}

// directOf returns how the decoder builds values of type t.
func directOf(t reflect.Type) direct {
	switch t {
	case reflect.TypeFor[[]string]():
		return directStrings
	case reflect.TypeFor[[]Cell]():
		return directCells
	case reflect.TypeFor[[]Output]():
		return directOutputs
	case genericMapType:
		return directAnyMap
	case reflect.TypeFor[map[string]MimeBundle]():
		return directBundles
	case reflect.TypeFor[*string]():
		return directString
	case reflect.TypeFor[*int]():
		return directInt
	case reflect.TypeFor[*bool]():
		return directBool
	}
	return directNone
}

func planOf(t reflect.Type, building map[reflect.Type]*typeInfo) *structPlan {
	p := &structPlan{byName: map[string]int{}, extra: -1}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Name == extraField && f.Type == genericMapType {
			p.extra, p.extraOffset = i, f.Offset
			continue
		}
		tag, ok := f.Tag.Lookup("json")
		if !ok || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fi := fieldInfo{
			name:     name,
			index:    i,
			offset:   f.Offset,
			optional: strings.Contains(","+opts+",", ",omitempty,"),
			ti:       build(f.Type, building),
			typeTag:  name == "cell_type" || name == "output_type",
		}
		p.byName[name] = len(p.fields)
		p.fields = append(p.fields, fi)
	}
	return p
}

// mustAssert is v.Interface().(T) without the copy Interface makes of an
// addressable value (v must hold a T).
func mustAssert[T any](v reflect.Value) T {
	x, ok := reflect.TypeAssert[T](v)
	if !ok {
		panic("nbformat: internal error: " + v.Type().String() + " is not " + reflect.TypeFor[T]().String())
	}
	return x
}

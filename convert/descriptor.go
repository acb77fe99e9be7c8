package convert

import (
	"fmt"
	"iter"

	"github.com/nbdialog/ipynb/internal/truthy"
)

// A Descriptor declares one host attribute that lives in cell metadata: on
// reading, the metadata key Key is promoted out of Message.Meta into
// Message.Attrs[Attr]; on writing it is demoted back, and omitted when its
// value is falsy (nil, false, zero, "", empty).
type Descriptor struct {
	Attr string // name in dialog.Message.Attrs, e.g. "bookmark"
	Key  string // top-level cell-metadata key, e.g. "bookmark"
	// ToFile converts the attribute's value to the value written (nil: as
	// it is). The result is written only if it is not falsy.
	ToFile func(any) any
	// FromFile converts the value read to the attribute's value (nil: as it
	// is).
	FromFile func(any) any
}

// Flag declares an attribute kept in memory as an int flag (0 or 1) and
// written as the JSON boolean true when set, as the nbformat schema types
// keys such as collapsed; false and 0 are omitted.
func Flag(attr, key string) Descriptor {
	return Descriptor{
		Attr:   attr,
		Key:    key,
		ToFile: func(v any) any { return truthy.Of(v) },
		FromFile: func(v any) any {
			if truthy.Of(v) {
				return 1
			}
			return 0
		},
	}
}

// registry is a set of Descriptors, no two sharing an attribute or a key:
// the Descriptors of the options, indexed. The zero value is empty and
// ready to use. Lookups are safe for concurrent use.
type registry struct {
	byAttr map[string]int
	byKey  map[string]int
	all    []Descriptor // registration order
}

// newRegistry returns a registry holding ds.
func newRegistry(ds ...Descriptor) (*registry, error) {
	r := &registry{}
	if err := r.register(ds...); err != nil {
		return nil, err
	}
	return r, nil
}

// register adds descriptors, all or none: it fails with an *Error of Op "descriptor"
// if any shares an attribute or key with a registered one or with another
// of ds, or with an error if one lacks an attribute or key.
func (r *registry) register(ds ...Descriptor) error {
	byAttr := map[string]Descriptor{}
	byKey := map[string]Descriptor{}
	for _, d := range r.all {
		byAttr[d.Attr], byKey[d.Key] = d, d
	}
	for _, d := range ds {
		if d.Attr == "" || d.Key == "" {
			return fmt.Errorf("convert: descriptor %q ↔ %q: attribute and key must not be empty", d.Attr, d.Key)
		}
		if old, ok := byAttr[d.Attr]; ok {
			return &Error{Op: "descriptor", Descriptor: d, Existing: old, What: "attribute"}
		}
		if old, ok := byKey[d.Key]; ok {
			return &Error{Op: "descriptor", Descriptor: d, Existing: old, What: "key"}
		}
		byAttr[d.Attr], byKey[d.Key] = d, d
	}
	if r.byAttr == nil {
		r.byAttr, r.byKey = map[string]int{}, map[string]int{}
	}
	for _, d := range ds {
		r.byAttr[d.Attr] = len(r.all)
		r.byKey[d.Key] = len(r.all)
		r.all = append(r.all, d)
	}
	return nil
}

// each yields the descriptors in registration order.
func (r *registry) each() iter.Seq[Descriptor] {
	return func(yield func(Descriptor) bool) {
		if r == nil {
			return
		}
		for _, d := range r.all {
			if !yield(d) {
				return
			}
		}
	}
}

// lookupAttr returns the descriptor of an attribute.
func (r *registry) lookupAttr(attr string) (Descriptor, bool) {
	if r == nil {
		return Descriptor{}, false
	}
	i, ok := r.byAttr[attr]
	if !ok {
		return Descriptor{}, false
	}
	return r.all[i], true
}

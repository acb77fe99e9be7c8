package nbformat

import "unsafe"

// box returns x as an interface value whose data is a new element of s,
// rather than a heap object of its own: what `any(x)` gives, without one
// allocation per value (strings and raw JSON in AdditionalProperties and
// generic maps are a fifth of the values a notebook's decoding allocates).
//
// An interface holding a value of a non-pointer type T is the pair (type
// of T, pointer to an immutable T); `any(x)` allocates that T and copies x
// into it. box builds the same pair around a T of its own: it takes the
// type word from an interface holding a T and points the data word at a
// new element of s, written once, here, before the interface exists. This
// is safe because
//   - the element is never written again: s hands it out once, and no Go
//     code can take the address of an interface's data (a reflect.Value of
//     an interface's content is not addressable), so it is as immutable as
//     the T `any(x)` allocates;
//   - the data word is an ordinary pointer into s's block, which the
//     garbage collector follows as it follows any interior pointer (the
//     block lives as long as one of its elements is referenced), and the
//     pair is assembled in a local variable and then copied as an `any`, so
//     every store of it into the heap is a typed store with write barriers;
//   - the layout of an empty interface, two words (type, data), is the one
//     reflect and the runtime use for every `any`; TestBoxIsAny checks that
//     a boxed value is indistinguishable from `any(x)` (type, value,
//     equality, type switches, reflect, and after a garbage collection).
func box[T any](s *slab[T], x T) any {
	p := s.next()
	*p = x
	var zero T
	var typed any = zero // T is a non-pointer type: its type word only is used
	e := eface{typ: (*eface)(unsafe.Pointer(&typed)).typ, data: unsafe.Pointer(p)}
	return *(*any)(unsafe.Pointer(&e))
}

// eface is the layout of an empty interface value.
type eface struct {
	typ, data unsafe.Pointer
}

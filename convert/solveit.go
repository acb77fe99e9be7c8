package convert

// Solveit returns a new registry of Solveit's cell attributes, for hosts
// that keep them as Solveit does (dialoghelper's meta_attrs). It is not a
// default: pass it in Options to opt in, and Register more descriptors on
// the returned registry as needed (each call returns a fresh one).
//
//	attribute          metadata key        in memory  in the file
//	skipped            skipped             0 or 1     true, or absent
//	pinned             pinned              0 or 1     true, or absent
//	o_collapsed        collapsed           0 or 1     true, or absent
//	i_collapsed        hide_input          0 or 1     true, or absent
//	heading_collapsed  heading_collapsed   as stored  as stored, if truthy
//	bookmark           bookmark            as stored  as stored, if truthy
//
// The four flags that Solveit stores as ints and dialoghelper writes as
// booleans (the nbformat schema types collapsed as one on code cells) are
// written as true, whatever truthy value a host holds; heading_collapsed
// and bookmark are written as held, as dialoghelper does; falsy values are
// left out of the file. Other keys
// Solveit writes (solveit_ai, time_run, nbdev) are not attributes: the
// prompt marker is the converter's own, and the rest rides in
// Message.Meta.
func Solveit() *Registry {
	r, err := NewRegistry(
		Flag("skipped", "skipped"),
		Flag("pinned", "pinned"),
		Flag("o_collapsed", "collapsed"),
		Flag("i_collapsed", "hide_input"),
		Descriptor{Attr: "heading_collapsed", Key: "heading_collapsed"},
		Descriptor{Attr: "bookmark", Key: "bookmark"},
	)
	if err != nil {
		panic(err) // the set above has no conflicts
	}
	return r
}

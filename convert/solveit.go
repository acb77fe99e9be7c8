package convert

// Solveit returns the Descriptors of Solveit's cell attributes, for hosts
// that keep them as Solveit does (dialoghelper's meta_attrs). They are not
// a default: pass them in options to opt in, appending more descriptors as
// needed (each call returns a fresh slice).
//
//	attribute          metadata key        in memory  in the file
//	skipped            skipped             0 or 1     true, or absent
//	pinned             pinned              0 or 1     true, or absent
//	o_collapsed        collapsed           0 or 1     true, or absent
//	i_collapsed        hide_input          0 or 1     true, or absent
//	heading_collapsed  heading_collapsed   0 or 1     true, or absent
//	bookmark           bookmark            as stored  as stored, if truthy
//
// The flags, which Solveit keeps as ints, are written as their file type,
// the boolean true, whatever truthy value a host holds (dialoghelper
// converts skipped, pinned, collapsed and hide_input so; the nbformat
// schema types collapsed as a boolean on code cells; heading_collapsed is
// the collapsible-headings extension's boolean); bookmark is written as
// held; falsy values are left out of the file. Other keys
// Solveit writes (solveit_ai, time_run, nbdev) are not attributes: the
// prompt marker is the converter's own, and the rest rides in
// Message.Meta.
func Solveit() []Descriptor {
	return []Descriptor{
		Flag("skipped", "skipped"),
		Flag("pinned", "pinned"),
		Flag("o_collapsed", "collapsed"),
		Flag("i_collapsed", "hide_input"),
		Flag("heading_collapsed", "heading_collapsed"),
		{Attr: "bookmark", Key: "bookmark"},
	}
}

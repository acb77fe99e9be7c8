package convert

import (
	"maps"

	"github.com/nbdialog/ipynb/nbformat"
)

// Cell metadata read without reflection: the cells' three metadata types,
// field by field, for the metadata most cells have (keys the schema does
// not type, and the flags "collapsed" and "scrolled"); what fastStruct
// gives by their plans, cheaper.

// cellMetaFields is the number of fields of CodeCellMetadata,
// MarkdownCellMetadata and RawCellMetadata that cellMeta knows: a field
// added to one of them (the schema changed, the code regenerated) makes
// directCellMeta false, and metadata is then read by the plans, which see
// every field (TestCellMetaKnowsEveryField fails until cellMeta learns it).
var cellMetaFields = [3]int{7, 4, 5}

// directCellMeta: cellMeta knows every field of the three types.
var directCellMeta = codeMetaType.NumField() == cellMetaFields[0] &&
	markdownMetaType.NumField() == cellMetaFields[1] && rawMetaType.NumField() == cellMetaFields[2]

// cellMeta is fastMeta of the metadata of a code, markdown or raw cell
// (known false for any other md, or when directCellMeta is false): the
// cell's extra keys, copied, with "collapsed" and "scrolled" when set (a
// typed member shadowing an extra key of its name, as in ToMap); ok is
// false when a typed member other than those two is set, or a value is not
// one ToMap keeps as it is (keptValue), fastMeta's plans then reading it.
// same is the extra keys' map when no typed member is set (see metaMap).
func cellMeta(md any) (meta, same map[string]any, ok, known bool) {
	if !directCellMeta {
		return nil, nil, false, false
	}
	var extra map[string]any
	var collapsed *bool
	var scrolled any
	switch md := md.(type) {
	case *nbformat.CodeCellMetadata:
		if md == nil || md.Execution != nil || md.Jupyter != nil || md.Name != nil || md.Tags != nil {
			return nil, nil, false, md != nil
		}
		extra, collapsed, scrolled = md.AdditionalProperties, md.Collapsed, md.Scrolled
	case *nbformat.MarkdownCellMetadata:
		if md == nil || md.Jupyter != nil || md.Name != nil || md.Tags != nil {
			return nil, nil, false, md != nil
		}
		extra = md.AdditionalProperties
	case *nbformat.RawCellMetadata:
		if md == nil || md.Format != nil || md.Jupyter != nil || md.Name != nil || md.Tags != nil {
			return nil, nil, false, md != nil
		}
		extra = md.AdditionalProperties
	default:
		return nil, nil, false, false
	}
	if scrolled != nil && !keptValue(scrolled) {
		return nil, nil, false, true
	}
	for _, x := range extra {
		if !keptValue(x) {
			return nil, nil, false, true
		}
	}
	if collapsed == nil && scrolled == nil {
		if len(extra) == 0 {
			// (Most cells: an empty object.)
			return make(map[string]any), extra, true, true
		}
		// A copy of the whole table (for a small map, its one group
		// copied) rather than each key inserted again.
		return maps.Clone(extra), extra, true, true
	}
	meta = make(map[string]any, len(extra)+2)
	for k, x := range extra {
		meta[k] = x
	}
	if collapsed != nil {
		meta["collapsed"] = *collapsed
	}
	if scrolled != nil {
		meta["scrolled"] = scrolled
	}
	return meta, nil, true, true
}

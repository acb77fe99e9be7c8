// Package mergecheck holds, in its tests only, the property test of the
// three-way notebook merge (issue 21, item 3): a generator of random
// edit pairs made on a base notebook, and a checker that judges a merge's
// result against base, ours and theirs without using this module's
// merge, JSON or notebook code (encoding/json, a JSON Schema validator
// and the nbformat schemas only).
//
// The invariant checked: the result is valid JSON and a valid notebook;
// every value one side changed is in the result's corresponding cell or
// inside a conflict marked in the file (markers in the cell's text or
// outputs, or a record in the cell's or notebook's metadata under
// "ipynb_conflicts"); a cell deleted on one side and unchanged on the
// other is gone, and kept with a marked conflict where the other side
// edited it; values unchanged on both sides are kept; a clean merge has
// no markers or records.
//
// The default tier runs a few hundred deterministic cases; IPYNB_LONG=1
// runs thousands. IPYNB_MERGEPROP_V3=1 adds nbformat 3 bases.
package mergecheck

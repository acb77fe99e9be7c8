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
// edited it; values unchanged on both sides are kept; one side's
// reordering is the result's, and a cell both sides moved, or added, to
// different places is at each side's place or carries a record naming it
// (see place_test.go, addplace_test.go); a clean merge has no markers or
// records.
//
// What the checker compares, and why (each a claim it does not make):
//
//   - A repair of git's markers ("ipynb fix" after git merge-file) is
//     judged against the sides read back from git's markers, not against
//     the notebooks git merged: the file is all the repair has, the lines
//     git merged cleanly are in all three sides, and a refusal (exit 2)
//     that leaves git's file as it was loses nothing where a side read
//     back is not JSON (see repair_test.go). A cell git's hunks put
//     twice in a side is one cell twice, and an id git's hunks gave to
//     another cell's text does not say which cell it is: the readings
//     (copies numbered by alignment, in order, the copy equal to base's
//     first, copies told apart by their ids, the copy in base's place of
//     a cell base has once, cells keyed by id with an
//     id's copies numbered in order, cells keyed by id but a side's
//     cell of a new id by its token (the side changed the id of a cell
//     whose id line git's hunks gave another text: keyByIDThenToken;
//     a side's one new id as its one lost id of base's:
//     keyByIDInOrderRenamed),
//     and cells by their place in git's
//     file: a cell whose opening brace and kind git merged cleanly is
//     one cell in all three sides, whatever token lines git's hunks gave
//     it, see fileKeys; or whose closing brace git merged cleanly, see
//     fileEndKeys) are all tried, and so are combinations reading
//     ours', theirs' and the result's copies each its own way (see
//     mixedReadings; base's copies held twice alike taken in order, too:
//     tokenKeysEqualTwinsInOrder; a copy of a token base has twice taken
//     as base's copy of its kind: tokenKeysSameKindFirst; a side's
//     copies of a token told apart by kind, the result's by equality to
//     a side's new copy: tokenKeysKindCopies; the two sides' copies of
//     a cell base holds more than once, without ids, as different ones
//     where the result holds the cell: alikeApartReadings). A side read
//     back that is JSON but no valid notebook (a markdown cell with
//     outputs) has no value cell by cell that a valid result could keep:
//     such a repair is judged by its text lines (each line a side added
//     is in the result), its validity and its marks (see linesKept). An
//     id a side gives two cells is not required of every copy in the
//     result (whose ids are unique): a copy may carry an id of its own
//     where another cell of the result keeps that id; and a cell whose
//     one change on a side is such an id (git's hunks gave it the other
//     cell's id line) holds no edit that the other side's deletion of
//     it loses (see idCopyOnly).
//   - A value both sides left as base had, shown in a conflict record
//     with that value, and a text both sides' versions of which are in a
//     record, are inside a marked conflict.
//   - "outputs": [] and "execution_count": null are no outputs and no
//     count, as a markdown cell without those members has none: a side
//     that cleared a cell's outputs while the other made it a note both
//     left it with none (see noneSpelled).
//   - A version 3 cell or pyout/display_data output without metadata
//     has the empty metadata, as nbformat's upgrade reads it (upgrade_cell,
//     upgrade_output): a side whose only change is that spelling (git's
//     hunks may give the line "metadata": {} to one side) changed nothing
//     (see noMetaSpelled).
//   - Output lists of one length on base and both sides are values output
//     by output (as git's line merge of the file merges them): an output
//     a side left as base has it is no change of its own, so the other
//     side's output there loses nothing of it.
//   - Cells between marker cells (a "replaced on both sides" region) are
//     inside a marked conflict: a cell one side edited and the other
//     deleted, shown there, is shown as conflicting.
//   - Real merges without ids: cells are paired by content, and where
//     more than one pairing of alike cells is as good (a side split a
//     cell, or rewrote several alike ones), the merge is accepted when
//     one of them finds no failure (see realpairs_test.go); equal cells
//     are interchangeable (see equalReadings); a side's cell may be read
//     as new (the base cell deleted, a cell inserted) as well as edited.
//     TestRealMergesJudgeCatchesOneSideLong shows that a merge returning
//     one side is caught on every real merge where the other side
//     changed cells even so.
//
// The default tier runs a few hundred deterministic cases; IPYNB_LONG=1
// runs thousands. IPYNB_MERGEPROP_V3=1 adds nbformat 3 bases.
package mergecheck

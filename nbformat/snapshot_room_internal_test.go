package nbformat

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
)

// record returns the bytes a snapshot recorded, its chunks joined.
func (s *snapshot) record() []byte {
	return bytes.Join(append([][]byte{s.first}, s.more...), nil)
}

// lastCellMetadata returns the AdditionalProperties of the metadata of
// nb's last cell, to be set (nil when it has no cell of a known type).
func lastCellMetadata(nb *Notebook) *map[string]any {
	if len(nb.Cells) == 0 {
		return nil
	}
	switch c := nb.Cells[len(nb.Cells)-1].(type) {
	case *CodeCell:
		return &c.Metadata.AdditionalProperties
	case *MarkdownCell:
		return &c.Metadata.AdditionalProperties
	case *RawCell:
		return &c.Metadata.AdditionalProperties
	}
	return nil
}

// A snapshot is recorded into the room given, kept at its size, and past
// it into chunks of its own: whatever the room, the record is as long
// (its bytes differ only in the order of maps' members), it matches the
// notebook as read, and a change at the end of the walk (the last cell's
// metadata), past the room, is seen.
func TestSnapshotRoomOfAnySize(t *testing.T) {
	for name, data := range snapshotInputs(t) {
		nb, err := Unmarshal(data)
		if err != nil || !nb.src.snap.ok {
			continue
		}
		size := len(nb.src.snap.record())
		for _, roomLen := range []int{0, 1, 8, size / 3, size - 1, size, size + 100, snapRoom(len(nb.src.tape.Nodes))} {
			what := fmt.Sprintf("%s, room %d for %d bytes", name, roomLen, size)
			room := make([]byte, max(0, roomLen))
			var s snapshot
			s.take(&nb.Document, nb.src.tape.Data, room, slices.Clone(nb.src.snap.regions))
			if !s.ok || s.size != size || len(s.record()) != size {
				t.Fatalf("%s: recorded %d bytes (ok %v), not the %d recorded at first", what, s.size, s.ok, size)
			}
			if roomLen >= 1<<10 && &s.first[0] != &room[0] {
				t.Fatalf("%s: the room is not the first chunk", what)
			}
			if roomLen >= size && (len(s.more) > 0 || len(s.first) != size) {
				t.Fatalf("%s: chunks of its own (%d) where the room sufficed", what, len(s.more))
			}
			if !s.matches(&nb.Document) {
				t.Fatalf("%s: the notebook as read does not match", what)
			}
			if m := lastCellMetadata(nb); m != nil {
				old := *m
				*m = map[string]any{"snapshot-room-test": 1}
				seen := !s.matches(&nb.Document)
				*m = old
				if !seen {
					t.Fatalf("%s: a change of the last cell's metadata is not seen", what)
				}
				if !s.matches(&nb.Document) {
					t.Fatalf("%s: changed back: no match", what)
				}
			}
		}
	}
}

// Recording into a room large enough allocates nothing (it allocated a
// copy of the record, and a 64 KiB scratch whenever sync.Pool missed),
// for notebooks whose strings are all the input's (others keep theirs
// alive in a list that may grow).
func TestSnapshotIntoRoomAllocatesNothing(t *testing.T) {
	if raceInternal {
		t.Skip("-race: instrumentation allocates")
	}
	checked := 0
	for name, data := range snapshotInputs(t) {
		nb, err := Unmarshal(data)
		if err != nil || !nb.src.snap.ok || len(nb.src.snap.keep) > len(nb.src.snap.keep0) {
			continue
		}
		room := make([]byte, nb.src.snap.size)
		var s snapshot
		regions := slices.Clone(nb.src.snap.regions)
		if allocs := testing.AllocsPerRun(10, func() { s.take(&nb.Document, nb.src.tape.Data, room, regions) }); allocs != 0 {
			t.Errorf("%s: a snapshot into room enough allocated %v times", name, allocs)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no notebook checked")
	}
}

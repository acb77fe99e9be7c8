package nbformat

import (
	"bytes"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbimpl"
)

// A notebook read by unmarshalLater has no snapshot until its owner takes
// it (source.takeSnapshot, nbimpl.TakeSnapshot): its checks walk its
// values meanwhile, and give the answers they give with the snapshot.
// The snapshot is recorded from the Document read, once, whichever
// notebook sharing the source asks, while other goroutines check the
// notebook (run under -race too); it then answers as the snapshot of the
// same bytes read by Unmarshal does. Counted with the package's counter
// of snapshots taken (the package's tests do not run in parallel).
func TestSnapshotTakenLater(t *testing.T) {
	n := 0
	for name, data := range snapshotInputs(t) {
		eager, err := Unmarshal(data)
		if err != nil {
			continue
		}
		for _, copyData := range []bool{true, false} {
			nb, err := UnmarshalOptions{}.unmarshalLater(bytes.Clone(data), copyData)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if nb.src.taken.Load() || nb.src.pending != &nb.Document || nb.src.snap.ok {
				t.Fatalf("%s: a snapshot before it was asked for", name)
			}
			// Before: the walk's answers.
			walk := walkSaysUnedited(nb)
			if nb.Edited() == walk && !(nb.dropBOM && nb.src.tape.BOM) {
				t.Errorf("%s: Edited %v before the snapshot, the walk says unedited %v", name, nb.Edited(), walk)
			}
			if out, err := Marshal(nb); walk && (err != nil || !bytes.Equal(out, data)) {
				t.Fatalf("%s: Marshal before the snapshot: %v", name, err)
			}
			// A copy sharing the source, changed, asks for it, while
			// others check both.
			cp := *nb
			cp.Cells = slices.Clone(nb.Cells)
			if len(cp.Cells) > 0 {
				cp.Cells = cp.Cells[1:]
			} else {
				cp.NbformatMinor++
			}
			before := snapshots.Load()
			var wg sync.WaitGroup
			for i := range 6 {
				wg.Go(func() {
					switch i % 3 {
					case 0:
						nbimpl.TakeSnapshot(&cp)
					case 1:
						nb.Edited()
					default:
						_, _ = Marshal(&cp)
					}
				})
			}
			wg.Wait()
			if got := snapshots.Load() - before; got != 1 {
				t.Errorf("%s: %d snapshots taken, want 1", name, got)
			}
			if !nb.src.taken.Load() || nb.src.pending != nil || nb.src.regions != nil {
				t.Fatalf("%s: the snapshot is not marked taken", name)
			}
			nbimpl.TakeSnapshot(nb)
			if got := snapshots.Load() - before; got != 1 {
				t.Errorf("%s: taken again", name)
			}
			if got, want := snapSaysUnedited(nb), snapSaysUnedited(eager); got != want {
				t.Errorf("%s: the snapshot taken later says unedited %v, Unmarshal's %v", name, got, want)
			}
			if snapSaysUnedited(&cp) {
				t.Errorf("%s: the changed copy matches the snapshot", name)
			}
			if !cp.Edited() {
				t.Errorf("%s: the changed copy is not edited", name)
			}
			// A change after the take is seen.
			if len(nb.Cells) > 0 {
				c := nb.Cells[0]
				nb.Cells[0] = &RawCell{CellType: CellTypeRaw, Source: Text("changed after the take")}
				if snapSaysUnedited(nb) || !nb.Edited() {
					t.Errorf("%s: a change after the take is not seen", name)
				}
				nb.Cells[0] = c
			}
			n++
		}
	}
	t.Logf("%d notebooks", n)
}

// TakeSnapshot does nothing for notebooks read with their snapshot, read
// without one for good (unmarshalParts) or built in memory.
func TestTakeSnapshotOfOtherNotebooks(t *testing.T) {
	data := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "raw", "id": "a", "metadata": {}, "source": "x"}]}`)
	eager, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := UnmarshalOptions{}.unmarshalParts(data)
	if err != nil {
		t.Fatal(err)
	}
	before := snapshots.Load()
	for _, nb := range []any{eager, parts, New(), (*Notebook)(nil), "not a notebook"} {
		nbimpl.TakeSnapshot(nb)
	}
	if n := snapshots.Load() - before; n != 0 {
		t.Errorf("%d snapshots taken", n)
	}
	if !eager.src.taken.Load() || parts.src.taken.Load() {
		t.Error("taken: Unmarshal's should be, unmarshalParts' not")
	}
}

// The room of a snapshot taken later is not set aside while reading (see
// unmarshalLater): reading without the snapshot allocates at least that
// room less than Unmarshal does (but for the rounding of the block to a
// size class), and taking it allocates about the room.
// Bytes from runtime.MemStats, the least of a few runs each (a collection
// empties the parser's pools, whose refill would count).
func TestSnapshotRoomDecidedLater(t *testing.T) {
	if raceInternal {
		t.Skip("-race instrumentation allocates")
	}
	for name, data := range testdataNotebooks(t) {
		nb, err := Unmarshal(data)
		if err != nil || len(data) > 64<<10 {
			continue
		}
		room := uint64(snapRoom(len(nb.src.tape.Nodes)))
		least := func(f func()) uint64 {
			best := ^uint64(0)
			for range 5 {
				var a, b runtime.MemStats
				runtime.ReadMemStats(&a)
				f()
				runtime.ReadMemStats(&b)
				best = min(best, b.TotalAlloc-a.TotalAlloc)
			}
			return best
		}
		var later *Notebook
		now := least(func() { _, _ = Unmarshal(data) })
		lazy := least(func() { later, _ = UnmarshalOptions{}.unmarshalLater(data, true) })
		// (Less a quarter: the block is rounded up to a size class.)
		if lazy+room-room/4 > now {
			t.Errorf("%s: read without the snapshot allocates %d bytes, Unmarshal %d: want about the room (%d) less", name, lazy, now, room)
		}
		take := least(func() {
			later, _ = UnmarshalOptions{}.unmarshalLater(data, true)
			later.src.takeSnapshot()
		}) - lazy
		if take < room || take > 2*room+1024 {
			t.Errorf("%s: taking the snapshot allocates %d bytes, the room is %d", name, take, room)
		}
	}
}

package nbformat

// Tests of the upgraded copy of a version 2 or 3 notebook: what Upgrade gives,
// the original left as read, few bytes per cell.

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// upgradedCopy is the upgrade of a copy of a version 2 or 3 notebook, as
// convert and internal/v3write make it (see Upgrade).
func upgradedCopy(nb *Notebook) (*Notebook, error) {
	if nb.Nbformat != 2 && nb.Nbformat != 3 {
		return nil, ErrUnsupportedVersion
	}
	cp := *nb
	if err := Upgrade(&cp); err != nil {
		return nil, err
	}
	return &cp, nil
}

// upgradedCopy gives what Upgrade gives on the notebook read again, and
// leaves the notebook it copies exactly as read, on every version 3 corpus
// notebook.
func TestUpgradedCopyIsUpgradeOfARereading(t *testing.T) {
	t.Parallel()
	n := 0
	for e, data := range corpus.Sample(t) {
		nb, err := Unmarshal(data)
		if err != nil || nb.Nbformat != 3 {
			continue
		}
		up, err := upgradedCopy(nb)
		if err != nil {
			t.Errorf("%s: %v", e.Path, err)
			continue
		}
		again, _ := Unmarshal(data)
		if err := Upgrade(again); err != nil {
			t.Fatalf("%s: %v", e.Path, err)
		}
		got, err1 := Marshal(up)
		want, err2 := Marshal(again)
		if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: the upgraded copy writes other bytes than the upgrade of a new reading (%v, %v)", e.Path, err1, err2)
		}
		if nb.Nbformat != 3 || nb.Edited() {
			t.Errorf("%s: upgrading a copy changed the notebook (nbformat %d)", e.Path, nb.Nbformat)
		}
		if out, err := Marshal(nb); err != nil || !bytes.Equal(out, data) {
			t.Errorf("%s: the notebook copied no longer writes its bytes (%v)", e.Path, err)
		}
		n++
	}
	t.Logf("%d version 3 notebooks", n)
	if _, err := upgradedCopy(New()); err == nil {
		t.Error("upgradedCopy of a version 4 notebook: no error")
	}
}

// The version 3 upgrade of a notebook read allocates
// nothing per cell but the tape, the JSON it writes and the cells'
// decoding: at most 3,000 bytes per cell of v3Cells, the least of seven
// runs, which no pool or scratch kept across runs can make larger.
func TestUpgradeBytesPerCell(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	bytesOf := func(n int) float64 {
		nb := v3Notebook(t, 3, v3Cells(n))
		least := uint64(0)
		for i := range 7 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if _, err := upgradedCopy(nb); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			if b := after.TotalAlloc - before.TotalAlloc; i == 0 || b < least {
				least = b
			}
		}
		return float64(least)
	}
	perCell := (bytesOf(600) - bytesOf(300)) / 300
	t.Logf("%.0f bytes per cell", perCell)
	if perCell > 3000 {
		t.Errorf("the upgrade allocates %.0f bytes per cell, want at most 3000", perCell)
	}
}

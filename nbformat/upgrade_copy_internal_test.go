package nbformat

import (
	"bytes"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
)

// upgradedCopy gives what Upgrade gives on the notebook read again, and
// leaves the notebook it copies exactly as read, on every version 3 corpus
// notebook.
func TestUpgradedCopyIsUpgradeOfARereading(t *testing.T) {
	n := 0
	for e, data := range corpus.Files(t) {
		nb, err := Unmarshal(data)
		if err != nil || nb.Nbformat != 3 {
			continue
		}
		up, err := upgradedCopy(nb, true)
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
	if _, err := upgradedCopy(New(), true); err == nil {
		t.Error("upgradedCopy of a version 4 notebook: no error")
	}
}

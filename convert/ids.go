package convert

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/nbdialog/ipynb/dialog"
)

// derivedID is the id of the message read from cell i when the file gives
// it none (or an invalid or repeated one): 8 hex digits of a SHA-256 hash
// of the position, kind and content, rehashed while the id is taken.
func derivedID(i int, m *dialog.Message, taken map[string]bool) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s\x00%s", i, m.Kind, m.Content)
	sum := h.Sum(nil)
	for {
		if id := hex.EncodeToString(sum[:4]); !taken[id] {
			return id
		}
		next := sha256.Sum256(sum)
		sum = next[:]
	}
}

func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

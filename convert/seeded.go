package convert

import (
	"encoding/binary"
	"io"
	"math/rand/v2"
)

// seeded returns a deterministic source of ids for dialog.Dialog.Random:
// ChaCha8 keyed by the seed in little-endian order.
func seeded(seed uint64) io.Reader {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	return rand.NewChaCha8(key)
}

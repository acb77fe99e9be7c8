package dialog

import (
	"encoding/hex"
	"io"
)

// newUUID4 returns the RFC 4122 version 4 UUID made of 16 bytes read from
// r, in its canonical form (8-4-4-4-12 lower-case hex digits): exactly
// what github.com/google/uuid's NewRandomFromReader(r).String() gives for
// the same bytes (TestNewUUID4AsGoogleUUID checks it against that
// package). It is made here rather than by that package because importing
// it links package net, and with net cgo and the C library, into every
// program using dialogs: 1.5 MB more resident memory for the ipynb
// command, whose peak on a 10 MB notebook is held to twice the file.
func newUUID4(r io.Reader) (string, error) {
	var u [16]byte
	if _, err := io.ReadFull(r, u[:]); err != nil {
		return "", err
	}
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // variant: RFC 4122
	var s [36]byte
	hex.Encode(s[0:8], u[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], u[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], u[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], u[8:10])
	s[23] = '-'
	hex.Encode(s[24:], u[10:])
	return string(s[:]), nil
}

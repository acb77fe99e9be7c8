// Package nbasread lets package convert reach the bytes a notebook was read
// from, and validate them without package nbformat first checking that
// the notebook is unedited (which convert knows of a notebook it parsed
// itself and gives no one): internal hooks, not part of any public API.
package nbasread

// Validate is set by package nbformat (at init): for an
// *nbformat.Notebook read from bytes, nbformat.Validate's answer for those
// bytes, as if the notebook were unedited (for one not read from bytes,
// or whose byte-order mark Heal removed, nbformat.Validate's answer).
var Validate func(nb any) error

// Bytes is set by package nbformat (at init): the bytes an
// *nbformat.Notebook was read from (nbformat.Unmarshal's copy, or the
// input itself with NoCopy), which no one changes; nil for one not read
// from bytes.
var Bytes func(nb any) []byte

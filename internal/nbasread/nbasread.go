// Package nbasread lets package convert validate the bytes a notebook was
// read from without package nbformat first checking that the notebook is
// unedited (which convert knows of a notebook it parsed itself and gives
// no one): an internal hook, not part of any public API.
package nbasread

// Validate is set by package nbformat (at init): for an
// *nbformat.Notebook read from bytes, nbformat.Validate's answer for those
// bytes, as if the notebook were unedited (for one not read from bytes,
// or whose byte-order mark Heal removed, nbformat.Validate's answer).
var Validate func(nb any) error

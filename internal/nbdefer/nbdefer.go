// Package nbdefer lets package convert put into a notebook it writes an
// output that package nbformat makes only when it writes or compares it
// (so that a notebook written whole holds one cell's such outputs at a
// time): an internal hook, not part of any public API.
package nbdefer

// Output is set by package nbformat (at init): it returns an
// nbformat.Output of output type typ that build makes (an nbformat.Output
// that is not itself made so) each time the writer reaches it, one
// cell's outputs at a time, for writing or comparing them. Only the
// writer knows such an output: it may be put into a notebook that is
// marshalled and then dropped, never one that is healed, validated,
// upgraded or handed to a caller. An error of build fails the write.
var Output func(typ string, build func() (any, error)) any

package nbformat

// The errors of reading and validating: SyntaxError, FormatError,
// ValidationError and their sentinels.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Sentinel errors, matched with errors.Is:
//
//	if errors.Is(err, nbformat.ErrUnsupportedVersion) { ... }
var (
	// ErrUnsupportedVersion: the nbformat major version is not one this
	// package reads (or, for Upgrade and canonical output, handles).
	ErrUnsupportedVersion = errors.New("unsupported nbformat version")
	// ErrLimit: the input breaks a limit of UnmarshalOptions.
	ErrLimit = errors.New("limit exceeded")
)

// A SyntaxError reports input that is not JSON (or breaks a size or depth
// limit while being scanned), with its place: file (if known), line and
// column (1-based, columns in bytes) and byte offset.
type SyntaxError struct {
	File   string
	Offset int64
	Line   int
	Column int
	Msg    string
	Limit  bool // a limit was exceeded; errors.Is(err, ErrLimit) holds
}

func (e *SyntaxError) Error() string {
	var b strings.Builder
	b.WriteString("nbformat: ")
	writePlace(&b, e.File, e.Line, e.Column)
	b.WriteString(e.Msg)
	return b.String()
}

// writePlace writes "file:line:column: " (the form compilers and editors
// use), leaving out the parts that are unknown.
func writePlace(b *strings.Builder, file string, line, col int) {
	switch {
	case file != "" && line > 0:
		fmt.Fprintf(b, "%s:%d:%d: ", file, line, col)
	case file != "":
		b.WriteString(file)
		b.WriteString(": ")
	case line > 0:
		fmt.Fprintf(b, "%d:%d: ", line, col)
	}
}

// Is makes errors.Is(err, ErrLimit) hold for limit errors.
func (e *SyntaxError) Is(target error) bool { return e.Limit && target == ErrLimit }

func syntaxError(file string, data []byte, err error) error {
	var se *jsontree.SyntaxError
	if !errors.As(err, &se) {
		return fmt.Errorf("nbformat: %w", err)
	}
	line, col := jsontree.Position(data, se.Offset)
	return &SyntaxError{File: file, Offset: se.Offset, Line: line, Column: col, Msg: se.Msg, Limit: se.Limit}
}

// A FormatError reports JSON that is not a notebook this package can read:
// a top level that is not an object (Pointer ""), no integer nbformat, an
// unsupported version, too many cells; also a notebook that has no
// canonical form ([ErrNotCanonical]), and a value that cannot be written:
// a nil cell or output, a value that contains itself (Err is then the
// *json.UnsupportedValueError encoding/json gives for it).
// Pointer locates the problem (RFC 6901).
type FormatError struct {
	File    string
	Pointer Pointer
	Msg     string
	Err     error // a sentinel such as ErrUnsupportedVersion, a *json.UnsupportedValueError, or nil
}

func (e *FormatError) Error() string {
	var b strings.Builder
	b.WriteString("nbformat: ")
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Pointer == "" {
		b.WriteString("(top level)")
	} else {
		b.WriteString(string(e.Pointer))
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

func (e *FormatError) Unwrap() error { return e.Err }

// withFile records the file name in errors from reading it.
func withFile(name string, err error) error {
	var se *SyntaxError
	var fe *FormatError
	switch {
	case errors.As(err, &se):
		se.File = name
	case errors.As(err, &fe):
		fe.File = name
	default:
		return fmt.Errorf("nbformat: %s: %w", name, err)
	}
	return err
}

// A ValidationError is one way a notebook does not match the nbformat
// schema of its version. Keyword tells problems apart without reading Msg
// ("required" for a missing member, "additionalProperties" for a member
// not allowed, "type" for a wrong JSON type, "unique" or "uniqueItems"
// for a repeated value, another keyword for a value breaking another
// rule); whether an error holds validation problems at all is [Problems]
// != nil, or errors.As with a *ValidationError. A notebook whose version
// has no schema gives one problem with Keyword "nbformat", whose Err is
// [ErrUnsupportedVersion]:
//
//	for _, p := range nbformat.Problems(err) {
//		if p.Keyword == "required" { ... p.Member is missing at p.Pointer ... }
//	}
type ValidationError struct {
	// Pointer locates the offending value (RFC 6901), e.g.
	// "/cells/3/outputs/0/output_type". For a missing member ("required")
	// it is the object that lacks it, as in Python's jsonschema; the
	// member's own place is Pointer + "/" + Member (with "~" and "/" in
	// Member escaped as "~0" and "~1", RFC 6901). For a member not
	// allowed ("additionalProperties") it is that member.
	Pointer Pointer
	// Keyword is the JSON Schema keyword that failed: "required",
	// "additionalProperties", "type", "enum", "pattern", "minimum",
	// "oneOf", "anyOf", "uniqueItems", …; "unique" for a repeated cell id
	// and "nbformat" for a version without a schema.
	Keyword string
	// Member is the name of the missing member for "required" problems
	// and of the member not allowed for "additionalProperties" problems;
	// "" otherwise.
	Member string
	// Msg says what is wrong, in words.
	Msg string
	// Err is ErrUnsupportedVersion for Keyword "nbformat", nil otherwise.
	Err error
	// Line and Column (1-based, columns in bytes) place the offending
	// value in the bytes the notebook was read from. They are 0 when the
	// notebook was edited since it was read (the pointer still locates the
	// problem in what Marshal writes).
	Line, Column int

	offset int64 // of the value in the validated bytes; -1: not known
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("nbformat: ")
	writePlace(&b, "", e.Line, e.Column)
	if e.Pointer == "" {
		b.WriteString("(top level)")
	} else {
		b.WriteString(string(e.Pointer))
	}
	b.WriteString(": ")
	b.WriteString(e.Keyword)
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns Err.
func (e *ValidationError) Unwrap() error { return e.Err }

// causeOf is the sentinel for a failing schema keyword: only a version
// without a schema has one.
func causeOf(keyword string) error {
	if keyword == "nbformat" {
		return ErrUnsupportedVersion
	}
	return nil
}

// newValidationError builds a problem with its cause (its offset not yet
// known).
func newValidationError(ptr Pointer, keyword, member, msg string) *ValidationError {
	return &ValidationError{Pointer: ptr, Keyword: keyword, Member: member, Msg: msg, Err: causeOf(keyword), offset: -1}
}

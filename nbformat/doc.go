// Package nbformat reads, writes, validates and upgrades Jupyter notebooks
// (.ipynb files) with byte-for-byte fidelity.
//
// # Types
//
// The types are generated from the official nbformat 4.5 JSON schema
// (schema_gen.go, by go-jsonschema from a derivative of the schema; see the
// module's generate.go) and completed by handwritten code:
//
//   - [Notebook] embeds the generated [Document] (Cells, Metadata,
//     Nbformat, NbformatMinor) and remembers the bytes it was read from.
//   - [Cell] is a sealed interface over the generated [CodeCell],
//     [MarkdownCell] and [RawCell], plus [UnknownCell] for anything else;
//     [Output] likewise over [ExecuteResult], [DisplayData], [Stream],
//     [ErrorOutput] and [UnknownOutput]. Their Type returns the typed
//     [CellType] or [OutputType]; each marshals and unmarshals with
//     encoding/json as the JSON it is in a notebook.
//   - [MultilineString] is text stored as a string or a list of lines;
//     [MimeBundle] is output data keyed by MIME type. Both, and
//     [Notebook], marshal and unmarshal with encoding/json as the JSON
//     they are in a notebook. (The metadata structs alone do not: their
//     AdditionalProperties reach encoding/json only through the notebook,
//     cell or output that holds them.)
//   - Every generated struct has an AdditionalProperties map: unknown
//     metadata keys live there (read and write them freely), and so do
//     members whose JSON does not fit the schema's type, so nothing read is
//     ever lost. [Member] and [SetMember] read and write a member as JSON
//     text, whatever form it is held in; the rest of this item says what
//     the forms are. Metadata the schema does not type is held as generic JSON,
//     read lazily: a number, string, boolean or null decoded (see [Decode]
//     for the Go types), an array or object as a json.RawMessage holding
//     its bytes as read, decoded only when you ask (Decode(raw)). A file
//     dense in small values therefore costs little memory. Such a
//     RawMessage shares the notebook's memory: never modify it; to change a
//     value, store a new one (any type Decode returns, a json.RawMessage
//     of valid JSON, or anything encoding/json writes). The same holds for
//     the other places that hold generic JSON: untyped fields such as
//     Scrolled, and output metadata. Strings read (ids, names, keys) share
//     that memory too, so a string kept from a notebook keeps the bytes
//     the notebook was read from alive. Likewise the cells and outputs of
//     a notebook read are allocated together, a block per type: a cell
//     kept after the notebook is dropped keeps the cells of its type
//     alive.
//
// # Fidelity contracts
//
//  1. [Marshal] of a notebook read by [Unmarshal] and left unedited returns
//     exactly the bytes read, whatever wrote them: Jupyter, VS Code, Colab,
//     one-line Kaggle files, any indentation, unsorted keys, \u escapes,
//     CRLF line endings, base64 stored as lists of lines, NaN, big or
//     oddly spelled numbers, no final newline.
//  2. After an edit, Marshal changes only the bytes of what was edited: an
//     edited cell's bytes change, nothing else does. New and changed parts
//     are written in the file's own style (indentation, line endings, key
//     order, escaping, how text is split into lines), detected from the
//     file. No ids are invented and nothing is reformatted.
//  3. [MarshalOptions] with Canonical gives exactly the bytes Python
//     nbformat writes (nbformat.write), for any notebook it can write.
//  4. [Validate] checks the notebook against the official schema of its own
//     version, gives Python nbformat's strict verdict (isvalid, without its
//     silent id repair), reports every problem with a JSON Pointer, and
//     changes nothing.
//
// # Errors
//
// Reading fails with a [*SyntaxError] (line, column and byte offset) for
// input that is not JSON, or a [*FormatError] (JSON Pointer) for JSON that
// is not a readable notebook; limits ([UnmarshalOptions]) bound the work
// done on hostile input. Validation problems are [*ValidationError] values.
// All messages start with "nbformat: ".
//
// # Implementation map
//
// The package holds the types and the operations on them; the work over
// JSON bytes is done below it, in internal packages that know nothing of
// the types (each takes a tape, jsontree's parse of the bytes):
//
//	nbformat               types, Unmarshal/Marshal, Validate, Heal, Upgrade
//	├─ internal/jsontree   the tape: one parse of the bytes, containers read lazily
//	├─ internal/nbstyle    a file's style, detected; texts joined or viewed from their JSON
//	├─ internal/nbcanon    Python nbformat's canonical bytes, and where it fails
//	├─ internal/nbvalid    the schema check (internal/draft04), as problems
//	├─ internal/nbv3       the version 2 and 3 upgrade, tape to version 4 JSON
//	├─ internal/nbshape    which containers reading records (types and schemas)
//	├─ internal/nbrebuild  Heal's tape side: cells and outputs rebuilt as JSON
//	├─ internal/jsoncycle  the guard against values that contain themselves
//	├─ internal/nbread     reading a stream within MaxBytes, refusing non-JSON early
//	├─ internal/zerocopy   zero-copy string views (the one use of unsafe)
//	└─ internal/{cellid,jsonpointer,jsonvalue,lines,mimetype,jsonsize}, schema
//
// Inside the package, the code that reads, compares and writes each
// generated struct is generated too (codec_gen.go, by
// internal/cmd/gencodec from schema_gen.go) over one handwritten
// algorithm per operation: codec.go (the model), codec_decode.go,
// codec_equal.go (with codec_equal_values.go), codec_encode.go. A value read
// remembers the node it came from (Notebook's source; the cells' and
// outputs' unexported src, which internal/cmd/retag adds): "unedited" is
// the generated comparison of a value with that node, and the writer
// copies the bytes of every value still equal to its node. The other
// files, by concern: reading (notebook, read, decode*, shape), writing
// (marshal, encode, rawjson, match, equal, fill, cycle),
// canonical, validate, heal*, upgrade, the types (cell, output,
// multiline, mimebundle, pointer, errors, nilvariant), encoding/json of
// notebooks, cells, outputs, texts and bundles (marshaljson), AdditionalProperties members as JSON
// (member_api). Package convert and the ipynb command use the public API
// (UnmarshalOptions.NoCopy to keep the bytes they read) and internal/nbread;
// texts and JSON data they size or view without copies they take as read
// (MultilineString.RawJSON, MimeBundle.RawJSON) and measure or view in
// internal/jsonsize and internal/nbstyle, as nbformat does; they heal
// with HealOptions (KeepBOM, Written), upgrade copies of version 3
// notebooks with Upgrade, and tell the problems about cell ids with
// internal/cellid; they write generic JSON compactly with internal/nbjson
// (internal/jsonvalue.Compact, this package's encoder for other values
// through MimeBundle.SetJSON); and they convert typed values to and from
// generic JSON with internal/nbmap, which imports this package: its code
// over each generated struct is generated from schema_gen.go too
// (internal/cmd/gencodec -map), over this package's exported fields. No
// internal package reaches inside this one.
//
// # Concurrency
//
// A Notebook may be read (Marshal, Validate, accessors) from several
// goroutines at once; changing it while anything else uses it is a data
// race. Functions without a receiver are safe for concurrent use.
package nbformat

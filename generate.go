// Package ipynb reads and writes Jupyter notebooks (.ipynb), and AI dialogs
// stored as notebooks, with byte-for-byte fidelity.
//
// The module has four public packages:
//
//   - [github.com/nbdialog/ipynb/nbformat]: the notebook format. Types
//     generated from the official nbformat JSON schema, completed by
//     handwritten code: reading ([nbformat.Unmarshal]), writing
//     ([nbformat.Marshal], byte-identical for unedited notebooks from any
//     writer, or exactly Python nbformat's canonical bytes), validation
//     against the schema of the notebook's own version with JSON Pointer
//     locations ([nbformat.Validate]) and upgrades to nbformat 4.5
//     ([nbformat.Upgrade]). Its documentation maps its files and the
//     internal packages below it.
//   - [github.com/nbdialog/ipynb/dialog]: dialogs, ordered messages of four
//     kinds (note, prompt, code, raw); standard library only.
//   - [github.com/nbdialog/ipynb/convert]: dialogs to and from notebooks,
//     the host metadata a tool keeps declared as descriptors
//     ([convert.Descriptor]), and safe atomic saving.
//   - [github.com/nbdialog/ipynb/schema]: the official JSON schemas,
//     embedded.
//
// The command ipynb (cmd/ipynb) checks, formats, shows, strips, merges,
// diffs and exports notebooks from the command line.
//
// # Regenerating the typed layer
//
// The schemas in schema/ are verbatim copies of the official ones;
// nbformat/schema_gen.go and nbformat/codec_gen.go are generated from them
// by five programs, the //go:generate lines below: internal/cmd/flatten
// derives schema/notebook.schema.json from the newest official schema
// (naming the cell and output type enums CellType and OutputType through
// type hints), go-jsonschema (pinned in tools.go) generates the Go types
// from it, internal/cmd/retag keeps only their json struct tags
// (go-jsonschema adds a mapstructure tag whatever --tags says) and gives
// the cell and output variants their provenance field (src), and
// internal/cmd/gencodec writes the codec of every generated struct (its
// -test run writes the codec of nbformat/codec_synth_test.go's stand-ins
// for a schema change, its -map run internal/nbmap/map_gen.go, the
// conversions of every generated struct to and from generic JSON that
// package convert uses); internal/cmd/genshape then writes
// internal/nbshape/shape_gen.go, the shape notebooks are read with, built
// from the embedded schemas and the codec's type descriptions. When a new nbformat release moves the schema:
//
//  1. Copy the new official files (nbformat/v4/nbformat.v4.N.schema.json
//     and nbformat.v4.schema.json) from jupyter/nbformat into schema/, byte
//     for byte, and note the commit in schema/README.md.
//  2. Add the new file to the //go:embed line and to Official in
//     schema/schema.go (latestV4Minor), and set MinorVersion in
//     internal/nblimits/nblimits.go (internal/nblimits' TestVersion checks it).
//  3. Point the first //go:generate line below at the newest file.
//  4. Run go generate ./... and review git diff nbformat/schema_gen.go: new
//     members appear as fields of the generated structs, and reading and
//     writing follow their json tags with no other change; a new cell or
//     output type needs its variant added to Cell or Output
//     (nbformat/cell.go, nbformat/output.go), a constant of CellType or
//     OutputType, the decoder's switch (nbformat/decode_variant.go) and
//     gencodec's table of handwritten types.
//  5. Run go test ./...; with Debian's python3-nbformat at the new version,
//     refresh the Python-made expectations with the scripts in
//     scripts/reference (make_testdata.py, make_expectations.sh,
//     make_edits.py, nbformat_depth.py, draft04_cases.py).
//  6. Commit. .ci/run and TestGeneratedCodeIsFresh check that the
//     committed generated files are what go generate makes.
package ipynb

//go:generate go run ./internal/cmd/flatten -in schema/nbformat.v4.5.schema.json -out schema/notebook.schema.json
//go:generate go run github.com/atombender/go-jsonschema --only-models --tags=json --capitalization=ID -p nbformat -o nbformat/schema_gen.go schema/notebook.schema.json
//go:generate go run ./internal/cmd/retag -keep json -hidden AdditionalProperties -state src:nodeRef -state-members cell_type,output_type -in nbformat/schema_gen.go -out nbformat/schema_gen.go
//go:generate go run ./internal/cmd/gencodec -state src:nodeRef -in nbformat/schema_gen.go -out nbformat/codec_gen.go
//go:generate go run ./internal/cmd/gencodec -test -state src:nodeRef -beside nbformat/schema_gen.go -in nbformat/codec_synth_test.go -out nbformat/codec_synth_gen_test.go
//go:generate go run ./internal/cmd/gencodec -map -state src:nodeRef -in nbformat/schema_gen.go -out internal/nbmap/map_gen.go
//go:generate go run ./internal/cmd/genshape -out internal/nbshape/shape_gen.go

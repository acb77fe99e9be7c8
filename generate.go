// Package ipynb reads and writes Jupyter notebooks (.ipynb), and AI dialogs
// stored as notebooks, with byte-for-byte fidelity.
//
// The module has three packages:
//
//   - [github.com/nbdialog/ipynb/nbformat]: the notebook format. Types
//     generated from the official nbformat JSON schema, completed by
//     handwritten code: reading ([nbformat.Unmarshal]), writing
//     ([nbformat.Marshal], byte-identical for unedited notebooks from any
//     writer, or exactly Python nbformat's canonical bytes), validation
//     against the schema of the notebook's own version with JSON Pointer
//     locations ([nbformat.Validate]) and upgrades to nbformat 4.5
//     ([nbformat.Upgrade]).
//   - [github.com/nbdialog/ipynb/dialog]: dialogs, ordered messages of four
//     kinds (note, prompt, code, raw); standard library only.
//   - [github.com/nbdialog/ipynb/convert]: dialogs to and from notebooks,
//     with host metadata attributes declared in a registry, and safe atomic
//     saving.
//
// The command ipynb (cmd/ipynb) checks, formats, shows, strips and exports
// notebooks from the command line.
//
// # Regenerating the typed layer
//
// The schemas in schema/ are verbatim copies of the official ones. When the
// schema moves, copy the new files there and run
//
//	go generate ./...
//
// which first derives schema/notebook.schema.json (internal/cmd/flatten) and
// then regenerates nbformat/schema_gen.go with go-jsonschema.
package ipynb

//go:generate go run ./internal/cmd/flatten -in schema/nbformat.v4.5.schema.json -out schema/notebook.schema.json
//go:generate go run github.com/atombender/go-jsonschema --only-models --tags=json --capitalization=ID -p nbformat -o nbformat/schema_gen.go schema/notebook.schema.json

// Package schema embeds the official nbformat JSON schemas, copied byte for
// byte from jupyter/nbformat (see README.md), and the derivative that the
// typed layer is generated from.
//
// The official schemas are the reference for validation
// (nbformat.Validate); notebook.schema.json is produced from
// nbformat.v4.5.schema.json by internal/cmd/flatten and is used only by
// go generate.
package schema

import (
	"embed"
	"fmt"
)

//go:embed nbformat.v3.schema.json nbformat.v4.0.schema.json nbformat.v4.1.schema.json nbformat.v4.2.schema.json nbformat.v4.3.schema.json nbformat.v4.4.schema.json nbformat.v4.5.schema.json nbformat.v4.schema.json notebook.schema.json
var FS embed.FS

// Latest minor versions with a schema of their own, per major version.
const (
	latestV3Minor = 0
	latestV4Minor = 5
)

// Official returns the official schema for nbformat major.minor as Python
// nbformat chooses it: the file of that exact version if there is one;
// for a minor newer than the latest known, the latest schema of the major
// version, with future set (the caller must then relax it as nbformat
// does). It fails for versions without a schema (1, 2, unknown older
// minors).
func Official(major, minor int) (data []byte, future bool, err error) {
	name, future, err := File(major, minor)
	if err != nil {
		return nil, false, err
	}
	data, err = FS.ReadFile(name)
	return data, future, err
}

// File names the schema file Official reads for nbformat major.minor (in
// FS), and whether the version is newer than the latest known, without
// reading it: callers that cache compiled schemas look them up by it
// (reading the file copies it, 12–16 KB, more than validating a
// small notebook).
func File(major, minor int) (name string, future bool, err error) {
	switch {
	case major == 4 && minor >= 0 && minor <= latestV4Minor:
		name = fmt.Sprintf("nbformat.v4.%d.schema.json", minor)
	case major == 4 && minor > latestV4Minor:
		name, future = "nbformat.v4.schema.json", true
	case major == 3 && minor == 0:
		name = "nbformat.v3.schema.json"
	case major == 3 && minor > latestV3Minor:
		name, future = "nbformat.v3.schema.json", true
	default:
		return "", false, fmt.Errorf("schema: no schema for nbformat %d.%d", major, minor)
	}
	return name, future, nil
}

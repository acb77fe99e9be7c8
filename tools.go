//go:build tools

package ipynb

// This file pins the code generator in go.mod, so that go generate runs the
// same version everywhere.
import _ "github.com/atombender/go-jsonschema"

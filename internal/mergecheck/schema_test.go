package mergecheck

// Notebooks validated against the schema of their version by an independent
// draft-04 validator.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/nbdialog/ipynb/schema"
	jsonschema "github.com/santhosh-tekuri/jsonschema/v6"
)

// The nbformat schemas (the verbatim upstream files schema/ embeds),
// compiled by an independent draft-04 validator.
var schemas = struct {
	sync.Mutex
	m map[string]*jsonschema.Schema
}{m: map[string]*jsonschema.Schema{}}

func compiled(major, minor int) (*jsonschema.Schema, error) {
	name := fmt.Sprintf("nbformat.v%d.%d.schema.json", major, minor)
	if major == 3 {
		name = "nbformat.v3.schema.json"
	}
	schemas.Lock()
	defer schemas.Unlock()
	if s := schemas.m[name]; s != nil {
		return s, nil
	}
	raw, err := schema.FS.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("no schema for nbformat %d.%d", major, minor)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	if err := c.AddResource(name, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(name)
	if err != nil {
		return nil, err
	}
	schemas.m[name] = s
	return s, nil
}

// validNotebook validates a notebook against the schema of its own
// version (version 3.0 and 4.0–4.5). That version 4.5 cell ids are unique
// (which nbformat requires beside the schema) check asks of a result; a
// side git's markers hold may give an id two cells, and is judged cell by
// cell even so (see run.dupIDs).
func validNotebook(data []byte) error {
	return validated.get(data, validateNotebook)
}

var validated = newMemo[error](512)

func validateNotebook(data []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	m, ok := inst.(map[string]any)
	if !ok {
		return errors.New("not an object")
	}
	major, minor := jsonInt(m["nbformat"]), jsonInt(m["nbformat_minor"])
	s, err := compiled(major, minor)
	if err != nil {
		return err
	}
	if err := s.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return fmt.Errorf("%s", firstLeaf(ve))
		}
		return err
	}
	return nil
}

func jsonInt(v any) int {
	n, ok := v.(json.Number)
	if !ok {
		return -1
	}
	i, err := n.Int64()
	if err != nil {
		return -1
	}
	return int(i)
}

// firstLeaf is the deepest first cause of a validation error, with its
// instance location as a JSON Pointer.
func firstLeaf(ve *jsonschema.ValidationError) string {
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	ptr := ""
	for _, p := range ve.InstanceLocation {
		ptr = pointerTo(ptr, p)
	}
	return fmt.Sprintf("%s: %v", ptr, ve.ErrorKind)
}

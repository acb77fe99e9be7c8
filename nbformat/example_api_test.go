package nbformat_test

import (
	"encoding/json"
	"fmt"

	"github.com/nbdialog/ipynb/nbformat"
)

// Cells and outputs marshal with encoding/json as they are in a notebook,
// and unmarshal from their JSON.
func Example_jsonMarshal() {
	c := nbformat.NewMarkdownCell("# Title\nText")
	c.ID = "intro"
	b, err := json.Marshal(c)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))

	var s nbformat.Stream
	if err := json.Unmarshal([]byte(`{"output_type": "stream", "name": "stdout", "text": ["1\n", "2\n"]}`), &s); err != nil {
		panic(err)
	}
	fmt.Printf("%s %s %q\n", s.Type(), s.Name, s.Text.String())
	fmt.Println(s.Type() == nbformat.OutputTypeStream)
	// Output:
	// {"cell_type":"markdown","id":"intro","metadata":{},"source":["# Title\n","Text"]}
	// stream stdout "1\n2\n"
	// true
}

// Member and SetMember read and write the members of an
// AdditionalProperties map as JSON, whatever form they are held in.
func ExampleMember() {
	nb, err := nbformat.Unmarshal([]byte(`{"cells": [{"cell_type": "code", "execution_count": null, "id": "a1",
  "metadata": {"my_app": {"runs": 3}, "priority": 2}, "outputs": [], "source": "x = 1"}],
 "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`))
	if err != nil {
		panic(err)
	}
	c := nb.Cells[0].(*nbformat.CodeCell)
	md := &c.Metadata.AdditionalProperties
	app, _ := nbformat.Member(*md, "my_app")
	prio, _ := nbformat.Member(*md, "priority")
	fmt.Println(string(app), string(prio))

	if err := nbformat.SetMember(md, "my_app", json.RawMessage(`{"runs": 4}`)); err != nil {
		panic(err)
	}
	fmt.Println(nbformat.SetMember(md, "broken", json.RawMessage(`{"runs": `)))
	out, err := json.Marshal(c)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output:
	// {"runs": 3} 2
	// nbformat: member "broken": not one JSON value: "{\"runs\":"
	// {"cell_type":"code","execution_count":null,"id":"a1","metadata":{"my_app":{"runs":4},"priority":2},"outputs":[],"source":"x = 1"}
}

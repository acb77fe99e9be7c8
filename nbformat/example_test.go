package nbformat_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/nbdialog/ipynb/nbformat"
)

// A small notebook as VS Code writes it: four-space indentation.
const vscodeStyle = `{
    "cells": [
        {
            "cell_type": "markdown",
            "id": "a1",
            "metadata": {},
            "source": ["# Title"]
        },
        {
            "cell_type": "code",
            "execution_count": null,
            "id": "b2",
            "metadata": {},
            "outputs": [],
            "source": ["1+1"]
        }
    ],
    "metadata": {"solveit_ver": 2},
    "nbformat": 4,
    "nbformat_minor": 5
}
`

func ExampleUnmarshal() {
	nb, err := nbformat.Unmarshal([]byte(vscodeStyle))
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range nb.Cells {
		fmt.Printf("%s %s: %q\n", c.Type(), nbformat.CellIDOf(c), nbformat.SourceOf(c).String())
	}
	fmt.Println("solveit_ver:", nb.Metadata.AdditionalProperties["solveit_ver"])
	// Output:
	// markdown a1: "# Title"
	// code b2: "1+1"
	// solveit_ver: 2
}

func ExampleMarshal() {
	nb, err := nbformat.Unmarshal([]byte(vscodeStyle))
	if err != nil {
		log.Fatal(err)
	}
	// Unedited: the same bytes.
	out, err := nbformat.Marshal(nb)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(out) == vscodeStyle)

	// Edited: only the edited cell changes, in the file's own style.
	code := nb.Cells[1].(*nbformat.CodeCell)
	code.Source.Set("x = 1\nx + 1")
	n := 2
	code.ExecutionCount = &n
	if out, err = nbformat.Marshal(nb); err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out))
	// Output:
	// true
	// {
	//     "cells": [
	//         {
	//             "cell_type": "markdown",
	//             "id": "a1",
	//             "metadata": {},
	//             "source": ["# Title"]
	//         },
	//         {
	//             "cell_type": "code",
	//             "execution_count": 2,
	//             "id": "b2",
	//             "metadata": {},
	//             "outputs": [],
	//             "source": [
	//                 "x = 1\n",
	//                 "x + 1"
	//             ]
	//         }
	//     ],
	//     "metadata": {"solveit_ver": 2},
	//     "nbformat": 4,
	//     "nbformat_minor": 5
	// }
}

func ExampleMarshalOptions_canonical() {
	nb, err := nbformat.Unmarshal([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"id": "a1", "cell_type": "raw", "metadata": {}, "source": "one\ntwo"}]}`))
	if err != nil {
		log.Fatal(err)
	}
	out, err := nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out))
	// Output:
	// {
	//  "cells": [
	//   {
	//    "cell_type": "raw",
	//    "id": "a1",
	//    "metadata": {},
	//    "source": [
	//     "one\n",
	//     "two"
	//    ]
	//   }
	//  ],
	//  "metadata": {},
	//  "nbformat": 4,
	//  "nbformat_minor": 5
	// }
}

func ExampleValidate() {
	nb, err := nbformat.Unmarshal([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
		{"cell_type": "markdown", "id": "a", "metadata": {}, "source": "hi", "outputs": []},
		{"cell_type": "code", "id": "a", "metadata": {"collapsed": "yes"}, "source": "", "outputs": [], "execution_count": null}]}`))
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range nbformat.Problems(nbformat.Validate(nb)) {
		fmt.Println(p)
	}
	// Output:
	// nbformat: 2:83: /cells/0/outputs: additionalProperties: property "outputs" is not allowed here
	// nbformat: 3:31: /cells/1/id: unique: cell id "a" is already the id of /cells/0
	// nbformat: 3:62: /cells/1/metadata/collapsed: type: is a string, expected a boolean
}

func ExampleUpgrade() {
	nb, err := nbformat.Unmarshal([]byte(`{"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [
		{"cell_type": "markdown", "metadata": {}, "source": "hi"}]}`))
	if err != nil {
		log.Fatal(err)
	}
	// The new id is derived from the cell's position, type and source:
	// the CRC-32C of "0\x00markdown\x00hi", as 8 hex digits.
	if err := nbformat.Upgrade(nb); err != nil {
		log.Fatal(err)
	}
	out, err := nbformat.Marshal(nb)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(out))
	// Output:
	// {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
	// 		{"cell_type": "markdown", "metadata": {}, "source": "hi", "id": "17337962"}]}
}

// Metadata the schema does not type keeps its arrays and objects as their
// JSON text, decoded only when asked; store a new value to change one.
func ExampleDecode() {
	nb, err := nbformat.Unmarshal([]byte(`{"nbformat": 4, "nbformat_minor": 5, "cells": [], "metadata": {"app": {"theme": "dark", "panels": [1, 2]}}}`))
	if err != nil {
		log.Fatal(err)
	}
	raw := nb.Metadata.AdditionalProperties["app"].(json.RawMessage)
	fmt.Println(string(raw))
	v, err := nbformat.Decode(raw)
	if err != nil {
		log.Fatal(err)
	}
	app := v.(map[string]any)
	fmt.Println(app["theme"], app["panels"])

	app["theme"] = "light"
	nb.Metadata.AdditionalProperties["app"] = app
	out, err := nbformat.Marshal(nb)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out))
	// Output:
	// {"theme": "dark", "panels": [1, 2]}
	// dark [1 2]
	// {"nbformat": 4, "nbformat_minor": 5, "cells": [], "metadata": {"app": {"theme": "light", "panels": [1, 2]}}}
}

// Cells built as struct literals name their type with the CellType
// constants (outputs with the OutputType ones).
func ExampleCellType() {
	nb := nbformat.New()
	nb.Cells = append(nb.Cells,
		&nbformat.MarkdownCell{CellType: nbformat.CellTypeMarkdown, ID: "intro", Source: nbformat.Text("# Sums")},
		&nbformat.CodeCell{CellType: nbformat.CellTypeCode, ID: "sum", Source: nbformat.Text("1 + 1"), Outputs: []nbformat.Output{
			&nbformat.Stream{OutputType: nbformat.OutputTypeStream, Name: "stdout", Text: nbformat.Text("2\n")},
		}},
	)
	if err := nbformat.Validate(nb); err != nil {
		log.Fatal(err)
	}
	out, err := nbformat.Marshal(nb)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out)) // Python nbformat's nbformat.writes of the same cells
	// Output:
	// {
	//  "cells": [
	//   {
	//    "cell_type": "markdown",
	//    "id": "intro",
	//    "metadata": {},
	//    "source": [
	//     "# Sums"
	//    ]
	//   },
	//   {
	//    "cell_type": "code",
	//    "execution_count": null,
	//    "id": "sum",
	//    "metadata": {},
	//    "outputs": [
	//     {
	//      "name": "stdout",
	//      "output_type": "stream",
	//      "text": [
	//       "2\n"
	//      ]
	//     }
	//    ],
	//    "source": [
	//     "1 + 1"
	//    ]
	//   }
	//  ],
	//  "metadata": {},
	//  "nbformat": 4,
	//  "nbformat_minor": 5
	// }
}

package nbformat_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/nbdialog/ipynb/nbformat"
)

// Heal makes an invalid notebook valid, keeping its content, and says
// what it changed; healing again changes nothing.
func ExampleHeal() {
	nb, err := nbformat.Unmarshal([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
 {"cell_type": "Code", "id": "a", "metadata": {"collapsed": "yes"}, "source": "1+1", "outputs": [
  {"output_type": "stream", "name": "stdout", "text": "2\n", "execution_count": 1}], "execution_count": "1"},
 {"cell_type": "markdown", "id": "a", "metadata": {}, "source": "done"}]}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(nbformat.Problems(nbformat.Validate(nb))), "problems")
	repairs, err := nbformat.Heal(nb)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range repairs {
		fmt.Println(string(r.Pointer) + ": " + r.What)
	}
	// The fresh id: the CRC-32C of "1\x00markdown\x00done", as 8 hex digits.
	fmt.Println("valid:", nbformat.Validate(nb) == nil)
	again, _ := nbformat.Heal(nb)
	fmt.Println("healed again:", len(again), "repairs")
	// Output:
	// 2 problems
	// /cells/0: cell of unrecognized type "Code" made a code cell
	// /cells/1/id: gave id 44bb9339 (was "a": cell id "a" is already the id of /cells/0)
	// /cells/0/metadata/collapsed: removed invalid cell metadata (is a string, expected a boolean)
	// /cells/0/execution_count: replaced an invalid execution count by 1 (is a string, expected null or integer)
	// /cells/0/outputs/0/execution_count: removed (property "execution_count" is not allowed here)
	// valid: true
	// healed again: 0 repairs
}

// Adding an output to a cell read from a file: only that cell's bytes
// change, in the file's style.
func ExampleNewStream() {
	nb, err := nbformat.Unmarshal([]byte(vscodeStyle))
	if err != nil {
		log.Fatal(err)
	}
	code := nb.Cells[1].(*nbformat.CodeCell)
	n := 1
	code.ExecutionCount = &n
	var data nbformat.MimeBundle
	data.SetText("text/plain", "2")
	code.Outputs = append(code.Outputs,
		nbformat.NewStream("stdout", "computing\n"),
		nbformat.NewExecuteResult(1, data))
	out, err := nbformat.Marshal(nb)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out))
	// Output:
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
	//             "execution_count": 1,
	//             "id": "b2",
	//             "metadata": {},
	//             "outputs": [
	//                 {
	//                     "name": "stdout",
	//                     "output_type": "stream",
	//                     "text": [
	//                         "computing\n"
	//                     ]
	//                 },
	//                 {
	//                     "data": {
	//                         "text/plain": [
	//                             "2"
	//                         ]
	//                     },
	//                     "execution_count": 1,
	//                     "metadata": {},
	//                     "output_type": "execute_result"
	//                 }
	//             ],
	//             "source": ["1+1"]
	//         }
	//     ],
	//     "metadata": {"solveit_ver": 2},
	//     "nbformat": 4,
	//     "nbformat_minor": 5
	// }
}

// Limits bound the work done on hostile input; the zero value's
// defaults are far beyond real notebooks. A limit passed is ErrLimit.
func ExampleUnmarshalOptions() {
	data := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
 {"cell_type": "raw", "id": "r1", "metadata": {}, "source": "a"},
 {"cell_type": "raw", "id": "r2", "metadata": {}, "source": "b"}]}`)
	_, err := nbformat.UnmarshalOptions{MaxCells: 1}.Unmarshal(data)
	fmt.Println(err)
	var fe *nbformat.FormatError
	fmt.Println(errors.As(err, &fe), errors.Is(err, nbformat.ErrLimit))
	nb, err := nbformat.UnmarshalOptions{MaxCells: 2}.Unmarshal(data)
	fmt.Println(len(nb.Cells), err)
	// Output:
	// nbformat: /cells: 2 cells, more than the limit of 1
	// true true
	// 2 <nil>
}

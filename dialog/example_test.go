package dialog_test

import (
	"fmt"

	"github.com/nbdialog/ipynb/dialog"
)

func Example() {
	d := dialog.New("demo")
	d.Random = dialog.Seeded(1) // reproducible ids
	d.Add(dialog.Note, "A *test* dialog")
	code := d.Add(dialog.Code, "1+1")
	code.Outputs = dialog.CodeOutput("2")
	q := d.Add(dialog.Prompt, "Add them.")
	q.SetReply("The answer is **2**.")
	fmt.Print(d)
	// Output:
	// demo
	// 6ae6783f:n:A *test* dialog
	// 4fbde91b:c:1+1 ⇒ out(94)
	// 6eb88b73:p:Add them. ⇒ reply(20)
	// > The answer is **2**.
}

func ExampleMsgs_Get() {
	d := dialog.New("demo")
	d.Insert(-1, &dialog.Message{ID: "a1b2c3d4", Kind: dialog.Note, Content: "first"})
	d.Insert(-1, &dialog.Message{ID: "a1ffffff", Kind: dialog.Note, Content: "second"})
	m, _ := d.Messages.Get("a1b") // a unique id prefix
	fmt.Println(m.Content)
	_, err := d.Messages.Get("a1")
	fmt.Println(err)
	// Output:
	// first
	// dialog: "a1" matches a1b2c3d4, a1ffffff: ambiguous message id
}

// Notebooks store multiline text as a list of lines that keep their "\n";
// Text joins them back (Python nbformat: "".join(lines)).
func ExampleText() {
	out := dialog.Output{
		"output_type": "stream",
		"name":        "stdout",
		"text":        []any{"loss 0.31\n", "loss 0.27\n"},
	}
	fmt.Printf("%q\n", dialog.Text(out["text"]))
	fmt.Printf("%q\n", dialog.Text("one string"))
	fmt.Printf("%q\n", dialog.Text(42))
	// Output:
	// "loss 0.31\nloss 0.27\n"
	// "one string"
	// ""
}

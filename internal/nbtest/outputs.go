package nbtest

// Outputs of the dialogs tests make.

import "github.com/nbdialog/ipynb/dialog"

// CodeOutput returns the outputs of a code message whose result is text:
// one execute_result with text/plain data and execution count 1.
func CodeOutput(text string) []dialog.Output {
	return []dialog.Output{dialog.NewOutput(map[string]any{
		"output_type":     "execute_result",
		"metadata":        map[string]any{},
		"data":            map[string]any{"text/plain": text},
		"execution_count": 1,
	})}
}

// StreamOutput returns a stream output named name ("stdout" or "stderr")
// holding text.
func StreamOutput(name, text string) dialog.Output {
	return dialog.NewOutput(map[string]any{"output_type": "stream", "name": name, "text": text})
}

package nbformat

import "encoding/json"

// Output is one entry of a code cell's outputs: *[ExecuteResult],
// *[DisplayData], *[Stream] or *[ErrorOutput] (structs generated from the
// schema), or an *[UnknownOutput] kept byte for byte.
type Output interface {
	// Type reports the output_type: [OutputTypeExecuteResult],
	// [OutputTypeDisplayData], [OutputTypeStream], [OutputTypeError], or
	// whatever an UnknownOutput holds ("" if it has none).
	Type() OutputType
	isOutput()
}

// OutputType is an output's output_type member, the schema's enum of
// output types (the generated structs' OutputType fields; see
// internal/cmd/flatten).
type OutputType string

// The output types of nbformat 4.
const (
	OutputTypeExecuteResult OutputType = "execute_result"
	OutputTypeDisplayData   OutputType = "display_data"
	OutputTypeStream        OutputType = "stream"
	OutputTypeError         OutputType = "error"
)

var (
	_ Output = (*ExecuteResult)(nil)
	_ Output = (*DisplayData)(nil)
	_ Output = (*Stream)(nil)
	_ Output = (*ErrorOutput)(nil)
	_ Output = (*UnknownOutput)(nil)
)

// Type returns [OutputTypeExecuteResult].
func (*ExecuteResult) Type() OutputType { return OutputTypeExecuteResult }

// Type returns [OutputTypeDisplayData].
func (*DisplayData) Type() OutputType { return OutputTypeDisplayData }

// Type returns [OutputTypeStream].
func (*Stream) Type() OutputType { return OutputTypeStream }

// Type returns [OutputTypeError].
func (*ErrorOutput) Type() OutputType { return OutputTypeError }

func (*ExecuteResult) isOutput() {}
func (*DisplayData) isOutput()   {}
func (*Stream) isOutput()        {}
func (*ErrorOutput) isOutput()   {}
func (*UnknownOutput) isOutput() {}

// UnknownOutput is an output this package has no type for (an unrecognized
// output_type, or a value that is not an object). Raw holds its JSON as
// read; it is written back unchanged unless Raw is replaced.
type UnknownOutput struct {
	Raw json.RawMessage
	src nodeRef
}

// Type returns the output_type member of the raw output (a string), or "".
func (o *UnknownOutput) Type() OutputType { return OutputType(rawMemberString(o.Raw, "output_type")) }

// NewStream returns a stream output ("stdout" or "stderr") holding text.
func NewStream(name, text string) *Stream {
	return &Stream{Name: name, OutputType: OutputTypeStream, Text: Text(text)}
}

// NewExecuteResult returns an execute_result output with the given
// execution count and data.
func NewExecuteResult(count int, data MimeBundle) *ExecuteResult {
	return &ExecuteResult{
		Data:           data,
		ExecutionCount: &count,
		Metadata:       map[string]any{},
		OutputType:     OutputTypeExecuteResult,
	}
}

// NewDisplayData returns a display_data output holding data.
func NewDisplayData(data MimeBundle) *DisplayData {
	return &DisplayData{Data: data, Metadata: map[string]any{}, OutputType: OutputTypeDisplayData}
}

// NewError returns an error output.
func NewError(ename, evalue string, traceback ...string) *ErrorOutput {
	if traceback == nil {
		traceback = []string{}
	}
	return &ErrorOutput{Ename: ename, Evalue: evalue, OutputType: OutputTypeError, Traceback: traceback}
}

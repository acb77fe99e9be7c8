package nbformat

// Structs standing for what a schema change could generate: every kind of
// member the codec handles, beside the generated structs' own kinds.
// internal/cmd/gencodec -test writes their codec (codec_synth_gen_test.go;
// see generate.go), which codec_synth_main_test.go checks.

// SynthName is a named string type, as go-jsonschema generates for enums.
type SynthName string

// SynthList is a named slice type.
type SynthList []string

type SynthInner struct {
	Flag                 bool                   `json:"flag"`
	Name                 *string                `json:"name,omitempty,omitzero"`
	AdditionalProperties map[string]interface{} `json:"-"`
}

type SynthStruct struct {
	S       string                `json:"s"`
	I       int                   `json:"i"`
	F       float64               `json:"f"`
	B       bool                  `json:"b"`
	Named   SynthName             `json:"named"`
	List    SynthList             `json:"list,omitempty"`
	PS      *string               `json:"ps,omitempty"`
	PI      *int                  `json:"pi"`
	PB      *bool                 `json:"pb,omitempty"`
	PF      *float64              `json:"pf,omitempty"`
	PInner  *SynthInner           `json:"pinner,omitempty"`
	Inner   SynthInner            `json:"inner"`
	Strs    []string              `json:"strs"`
	Inners  []SynthInner          `json:"inners,omitempty"`
	Ints    []int                 `json:"ints,omitempty"`
	Floats  []float64             `json:"floats,omitempty"`
	PStrs   []*string             `json:"pstrs,omitempty"`
	Nested  [][]string            `json:"nested,omitempty"`
	Anys    []any                 `json:"anys,omitempty"`
	Any     any                   `json:"any"`
	AnyOpt  any                   `json:"anyopt,omitempty"`
	M       map[string]any        `json:"m,omitempty"`
	MI      map[string]int        `json:"mi,omitempty"`
	MInner  map[string]SynthInner `json:"minner,omitempty"`
	Bundles map[string]MimeBundle `json:"bundles,omitempty"`
	Text    MultilineString       `json:"text"`
	Data    MimeBundle            `json:"data"`
	Cell    Cell                  `json:"cell,omitempty"`
	Out     Output                `json:"out,omitempty"`
	Cells   []Cell                `json:"cells,omitempty"`
	Outs    []Output              `json:"outs,omitempty"`

	AdditionalProperties map[string]interface{} `json:"-"`
}

package nbhtml

import (
	"encoding/base64"
	"io"
	"testing"
)

// BenchmarkNotebook renders a notebook of 1,000 cells (250 plots of 40
// kB), as TestBrowserScale makes them.
func BenchmarkNotebook(b *testing.B) {
	data := bigNotebook(1000, base64.StdEncoding.EncodeToString(noisePNG(115)))
	d := readNotebook(b, data)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Notebook(io.Discard, d, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

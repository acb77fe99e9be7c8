package mimetype

import "testing"

// The rule of Python nbformat's v4 reader (nbformat/v4/rwbase.py,
// _is_json_mime: mime == "application/json" or
// (mime.startswith("application/") and mime.endswith("+json"))).
func TestIsJSON(t *testing.T) {
	for mime, want := range map[string]bool{
		"application/json":                         true,
		"application/vnd.jupyter.widget-view+json": true,
		"application/geo+json":                     true,
		"application/javascript":                   false,
		"text/json":                                false,
		"text/plain":                               false,
		"image/png":                                false,
		"application/jsonx":                        false,
		"+json":                                    false,
		"":                                         false,
	} {
		if got := IsJSON(mime); got != want {
			t.Errorf("IsJSON(%q) = %v, want %v", mime, got, want)
		}
	}
}

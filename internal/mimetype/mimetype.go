// Package mimetype is the one home of the rule that tells JSON MIME types
// from text ones in notebook output data and attachments, shared by
// package nbformat (reading, writing, healing, canonical output) and
// package convert (outputs as generic JSON).
package mimetype

import "strings"

// IsJSON reports whether values of this MIME type are stored as JSON
// rather than as text: "application/json" and "application/<x>+json", as
// in Python nbformat (its reader rejoins the lines of every other type).
func IsJSON(mime string) bool {
	return mime == "application/json" || (strings.HasPrefix(mime, "application/") && strings.HasSuffix(mime, "+json"))
}

// SplitsLines reports whether new text of this MIME type is stored as a
// list of lines: Python nbformat splits text/*, application/javascript
// and image/svg+xml (its writer's split_lines).
func SplitsLines(mime string) bool {
	return strings.HasPrefix(mime, "text/") || mime == "application/javascript" || mime == "image/svg+xml"
}

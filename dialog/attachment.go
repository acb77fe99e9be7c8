package dialog

// Attachment is a file embedded in a note or prompt (an image pasted into
// markdown, say), referred to from the content as attachment:ID.
type Attachment struct {
	ID   string // a UUID for attachments made here; the file's name key otherwise
	MIME string // e.g. "image/png"
	Data []byte // the file's bytes (decoded from base64 for binary types)
}

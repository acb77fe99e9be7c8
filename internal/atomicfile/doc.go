// Package atomicfile reads files without blocking and replaces them
// atomically, writing back only to the file that was read and only if it
// is still what was read.
//
// # Reading
//
// [Read] opens a file in its folder (symbolic links in the name resolved
// once, before opening), with O_NONBLOCK so that a named pipe or device
// that appears in place of a regular file cannot block, and checks that
// what it opened is the regular file it looked at. It reads at most
// ReadOptions.MaxBytes (one byte more tells it the file is too large;
// memory stays bounded by the limit), and returns a [Stamp]: the folder
// and the file's identity (device and inode), size, modification and
// change times, and the bytes read. A file that changes while it is read
// is read again. [ReadStream] reads a pipe or device named on purpose.
//
// # Replacing
//
// [Replace] writes the new bytes to a temporary file in the same folder,
// syncs it, renames it over the file and syncs the folder: a reader, or a
// crash, sees the old file or the new one, never a mix. On Linux the
// temporary file is unnamed (O_TMPFILE) while it is written and gets a name
// only for the instant between linkat and rename; elsewhere, and on file
// systems without O_TMPFILE, it is named ".NAME.save-PID-RANDOM.tmp".
// [ReplaceWith] does the same with content written as it is made (and
// checked, read back from the temporary file, before the rename). Every
// write into a folder (at most once a minute per folder and process)
// removes the named temporaries there whose process is gone, whatever
// file they were for. (Process ids are looked up on this machine, in this
// PID namespace: a save by a process elsewhere sharing the folder may see
// its named temporary removed; its rename then fails and its file stays
// unchanged.)
//
// With Options.Expect (the Stamp of a Read), Replace writes back to the
// folder and name the file was read from, never to wherever the name
// given now leads: a symbolic link that appeared after the read is not
// followed. Right before the rename it takes an advisory lock (flock) on
// the current file, and checks, in this order: that the folder is the one
// read from (device and inode), that the name still holds a regular file
// (not a link), with the identity, size and modification time read, and,
// when in doubt (its change time moved, or it was modified less than two
// seconds before it was read, within the time stamp granularity of some
// file systems), the very bytes read. Otherwise it returns [ErrChanged] and
// leaves the file alone. Replace works in the folder through a descriptor
// opened (and checked) when it starts: should the folder be moved away
// meanwhile, the file read is replaced where it went, and nothing is
// written into a folder put in its place.
//
// The window that remains runs from the last fstat of the locked file to
// the renameat (in between only an lstat of the name: two system calls, a
// few microseconds): a process that does not take the lock (an editor)
// and writes into the file in place (rather than replacing it) in that
// window has its change replaced; so has one that keeps the file open and
// writes into it after the rename (it writes into the replaced file).
// Replaces by this package in other processes take the lock, so two of
// them never lose each other's change.
//
// Replace refuses a file the caller could not write in place: one whose
// mode has no write bit (read-only by its owner's choice, even for root),
// and one that access(2) with the effective ids says is not writable
// (faccessat with AT_EACCESS on Linux). The new file keeps the old one's
// permission bits, and, when the process may set them (root), its owner
// and group (otherwise its group, where the process belongs to it);
// Options.Owner overrides that.
package atomicfile

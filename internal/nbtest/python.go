// Python nbformat as a test oracle: one interpreter per test binary.
package nbtest

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os/exec"
	"sync"
)

// NbformatPython returns an interpreter that imports nbformat (Debian's
// /usr/bin/python3 first, the reference the expectations come from, then
// python3 on PATH), or "" when there is none. It asks once per process:
// starting Python and importing nbformat costs a third of a CPU second.
func NbformatPython() string {
	nbformatPythonOnce.Do(func() {
		for _, py := range []string{"/usr/bin/python3", "python3"} {
			if p, err := exec.LookPath(py); err == nil && exec.Command(p, "-c", "import nbformat").Run() == nil {
				nbformatPythonPath = p
				return
			}
		}
	})
	return nbformatPythonPath
}

var (
	nbformatPythonOnce sync.Once
	nbformatPythonPath string
)

// validateLoop reads notebooks framed by an 8-byte big-endian length from
// standard input and answers each with a framed complaint (empty: valid).
// A notebook is decoded as `sys.stdin.read()` would decode it (the
// stream's encoding and error handler, universal newlines), then read
// and validated as `nbformat.validate(nbformat.reads(text,
// as_version=nbformat.NO_CONVERT))`.
const validateLoop = `import io, struct, sys, traceback, nbformat
inp, out = sys.stdin.buffer, sys.stdout.buffer
enc, errs = sys.stdin.encoding, sys.stdin.errors
while True:
    head = inp.read(8)
    if len(head) < 8:
        break
    data = inp.read(struct.unpack(">Q", head)[0])
    try:
        text = io.TextIOWrapper(io.BytesIO(data), encoding=enc, errors=errs).read()
        nbformat.validate(nbformat.reads(text, as_version=nbformat.NO_CONVERT))
        msg = b""
    except BaseException:
        msg = traceback.format_exc().encode("utf-8", "backslashreplace")
        if not msg:
            msg = b"error"
    out.write(struct.pack(">Q", len(msg)) + msg)
    out.flush()
`

// PythonComplaint returns Python nbformat's complaint about a notebook's
// bytes ("" when it reads and validates them), and false when there is no
// Python nbformat to ask. One interpreter, started on the first call,
// answers every call of the process in turn.
func PythonComplaint(data []byte) (string, bool) {
	pyServer.mu.Lock()
	defer pyServer.mu.Unlock()
	if !pyServer.started {
		pyServer.started = true
		pyServer.err = pyServer.start()
	}
	if pyServer.err != nil {
		return "", false
	}
	var head [8]byte
	binary.BigEndian.PutUint64(head[:], uint64(len(data)))
	if _, err := pyServer.in.Write(head[:]); err != nil {
		return fmt.Sprintf("nbtest: writing to Python: %v", err), true
	}
	if _, err := pyServer.in.Write(data); err != nil {
		return fmt.Sprintf("nbtest: writing to Python: %v", err), true
	}
	if _, err := io.ReadFull(pyServer.out, head[:]); err != nil {
		return fmt.Sprintf("nbtest: reading from Python: %v", err), true
	}
	msg := make([]byte, binary.BigEndian.Uint64(head[:]))
	if _, err := io.ReadFull(pyServer.out, msg); err != nil {
		return fmt.Sprintf("nbtest: reading from Python: %v", err), true
	}
	return string(msg), true
}

// pythonServer is the interpreter PythonComplaint asks; it lives as long
// as the test binary (its standard input closes when the binary exits).
type pythonServer struct {
	mu      sync.Mutex
	started bool
	err     error
	in      io.Writer
	out     *bufio.Reader
}

var pyServer pythonServer

func (s *pythonServer) start() error {
	py := NbformatPython()
	if py == "" {
		return fmt.Errorf("nbtest: no Python nbformat")
	}
	cmd := exec.Command(py, "-c", validateLoop)
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	s.in, s.out = in, bufio.NewReader(out)
	return nil
}

// AnyPython returns a Python 3 interpreter as exec.LookPath does, Debian's
// /usr/bin/python3 first: python3 on PATH may be a version manager's shim
// (pyenv's costs half a second of shell scripts a call).
func AnyPython() (string, error) {
	if p, err := exec.LookPath("/usr/bin/python3"); err == nil {
		return p, nil
	}
	return exec.LookPath("python3")
}

package main

// The server's tie to the ipynb web that started it, on Linux.

import "syscall"

// serverAttr makes the server program stop (SIGTERM, which it handles as
// Ctrl-C) when the ipynb that started it dies, even of a signal ipynb
// cannot forward (SIGKILL): otherwise the server would go on serving, and
// holding ipynb's standard output open, with nobody left to stop it.
func serverAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}

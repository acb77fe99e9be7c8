//go:build !linux

package main

// The server's tie to the ipynb web that started it, where the system has
// none (Linux's is web_linux.go).

import "syscall"

// serverAttr: no parent-death signal outside Linux; ipynb forwards the
// signals it can catch.
func serverAttr() *syscall.SysProcAttr { return nil }

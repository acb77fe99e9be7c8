//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package main

import "os"

// ttyColumns is 0 (unknown) where the terminal cannot be asked.
func ttyColumns(*os.File) int { return 0 }

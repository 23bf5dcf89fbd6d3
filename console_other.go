//go:build !windows

package main

// attachConsole does nothing here: a program started from a terminal has its streams.
func attachConsole() bool { return false }

//go:build windows

package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// attachParent is ATTACH_PARENT_PROCESS: AttachConsole's "the console of the process
// that started this one".
const attachParent = 0xFFFFFFFF

var procAttachConsole = windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole")

// attachConsole connects a command's output to the console it was typed in.
// Steadfast.exe is a windowed program (it has no console of its own), so Windows gives
// it no standard streams when cmd.exe or PowerShell start it: `Steadfast.exe run ...`,
// `help` and `version` printed nothing. Streams already redirected to a file or a pipe
// are kept; the others are opened on the parent's console. It reports whether a console
// was attached (none when started from Explorer, or when it has one already).
func attachConsole() bool {
	if r, _, _ := procAttachConsole.Call(attachParent); r == 0 {
		return false
	}
	for _, s := range []struct {
		f    **os.File
		std  uint32
		name string
		flag int
	}{
		{&os.Stdin, windows.STD_INPUT_HANDLE, "CONIN$", os.O_RDWR},
		{&os.Stdout, windows.STD_OUTPUT_HANDLE, "CONOUT$", os.O_RDWR},
		{&os.Stderr, windows.STD_ERROR_HANDLE, "CONOUT$", os.O_RDWR},
	} {
		if usable(*s.f) {
			continue
		}
		f, err := os.OpenFile(s.name, s.flag, 0)
		if err != nil {
			continue
		}
		*s.f = f
		windows.SetStdHandle(s.std, windows.Handle(f.Fd()))
	}
	return true
}

// usable reports whether f is an open handle of a known kind (a console, a file, a pipe).
func usable(f *os.File) bool {
	if f == nil {
		return false
	}
	h := windows.Handle(f.Fd())
	if h == 0 || h == windows.InvalidHandle {
		return false
	}
	t, err := windows.GetFileType(h)
	return err == nil && t != windows.FILE_TYPE_UNKNOWN
}

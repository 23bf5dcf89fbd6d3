//go:build windows && !static

package fastblas

import "syscall"

// candidates are the DLL names OpenBLAS's Windows builds use (its release archive,
// MSYS2, conda), found where Windows looks for DLLs: beside Steadfast.exe first, then
// the system folders and PATH. The 64-bit-integer build (libopenblas64_) has other
// symbol names and is not used.
func candidates() []string { return []string{"libopenblas.dll", "openblas.dll"} }

func openLibrary(path string) (uintptr, error) {
	h, err := syscall.LoadLibrary(path)
	return uintptr(h), err
}

func symbol(h uintptr, name string) (uintptr, error) {
	return syscall.GetProcAddress(syscall.Handle(h), name)
}

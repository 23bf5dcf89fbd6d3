//go:build windows

package geo

import "golang.org/x/sys/windows"

// diskFree is the space free to this user on the disk holding dir.
func diskFree(dir string) (uint64, bool) {
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return 0, false
	}
	var free, total, all uint64
	if err := windows.GetDiskFreeSpaceEx(p, &free, &total, &all); err != nil {
		return 0, false
	}
	return free, true
}

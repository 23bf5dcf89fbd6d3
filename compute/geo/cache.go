package geo

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CacheDir is the GEO cache: Steadfast/geo in the operating system's user cache folder
// (os.UserCacheDir: ~/.cache on Linux, ~/Library/Caches on macOS, %LocalAppData% on
// Windows).
func CacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder for GEO downloads (%v); set XDG_CACHE_HOME or HOME", err)
	}
	return filepath.Join(d, "Steadfast", "geo"), nil
}

// CacheSize is the bytes and number of files in the cache dir (0 when it is absent).
func CacheSize(dir string) (bytes int64, files int) {
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
			bytes += info.Size()
			files++
		}
		return nil
	})
	return bytes, files
}

// ClearCache removes the GEO cache dir: Steadfast's own folder of downloads, which it
// refuses unless it is a folder named geo inside one named Steadfast.
func ClearCache(dir string) error {
	dir = filepath.Clean(dir)
	if filepath.Base(dir) != "geo" || filepath.Base(filepath.Dir(dir)) != "Steadfast" {
		return fmt.Errorf("%s is not Steadfast's GEO cache", dir)
	}
	if st, err := os.Lstat(dir); err != nil || !st.IsDir() {
		return nil
	}
	return os.RemoveAll(dir)
}

// SizeText formats a cache size for the user: "12.3 MB in 4 files".
func SizeText(bytes int64, files int) string {
	if files == 0 {
		return "empty"
	}
	s := "s"
	if files == 1 {
		s = ""
	}
	return strings.TrimSpace(size(bytes)) + fmt.Sprintf(" in %d file%s", files, s)
}

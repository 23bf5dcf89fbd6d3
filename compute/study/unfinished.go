package study

import (
	"os"
	"sort"
	"sync"
)

// unfinished holds the temporary files and folders being written and the earlier
// outputs being removed, so that a process told to stop at once removes them first.
// Its lock is held while a folder is swapped into place, so a stop never comes between
// the two renames.
var unfinished = struct {
	sync.Mutex
	paths map[string]bool
}{paths: map[string]bool{}}

// begin records path as unfinished; the function returned forgets it.
func begin(path string) func() {
	unfinished.Lock()
	unfinished.paths[path] = true
	unfinished.Unlock()
	return func() {
		unfinished.Lock()
		delete(unfinished.paths, path)
		unfinished.Unlock()
	}
}

// RemoveUnfinished removes every unfinished temporary file and folder and returns
// their paths, sorted. It keeps the lock: no folder is swapped in after it, as it is
// called by a process about to exit.
func RemoveUnfinished() []string {
	unfinished.Lock()
	var out []string
	for p := range unfinished.paths {
		os.RemoveAll(p)
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

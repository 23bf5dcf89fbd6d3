package study

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
)

// marker names the file that marks a folder as Steadfast's output and lists what
// Steadfast wrote there: one line per file ("sha256 HEX PATH") or folder ("folder PATH"),
// paths relative with forward slashes.
const marker = ".steadfast"

// maxManifest bounds the marker file read back.
const maxManifest = 16 << 20

// manifest maps a relative path to the SHA-256 (hex) of the file Steadfast wrote there,
// or to "" for a folder it made.
type manifest map[string]string

// WriteFolder fills a new folder by write and puts it in out.Dir's place only when
// write succeeds and ctx is not cancelled: the folder holds either its earlier contents
// or the whole new output, never a mix. A folder that exists must hold none of the
// action's inputs and only what an earlier Steadfast output listed in its marker,
// unchanged (see Output.Check), so nothing of the user's is ever removed.
func WriteFolder(ctx context.Context, out Output, write func(tmp string) error) error {
	if err := out.Check(); err != nil {
		return err
	}
	dir := filepath.Clean(out.Dir)
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".steadfast-new-")
	if err != nil {
		return fmt.Errorf("cannot write beside %s: %v", dir, err)
	}
	defer begin(tmp)()
	fill := func() error {
		if err := os.Chmod(tmp, 0o755); err != nil {
			return err
		}
		if err := write(tmp); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := scanFolder(tmp, nil)
		if err != nil {
			return err
		}
		return m.write(tmp)
	}
	if err := fill(); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return swapIn(tmp, dir)
}

// WriteFiles writes files (relative path -> contents) and folders into dir, replacing
// only what an earlier call wrote there unchanged; everything under the relative
// folders kept (written by other Steadfast runs, as a Slurm job's shards) is left
// alone. Each file is replaced whole (WriteFile) and the marker updated after each, so
// a failure part way leaves a folder whose marker still tells what Steadfast wrote.
func WriteFiles(dir string, files map[string][]byte, folders, kept []string, reads []Input) error {
	if in, ok := (Output{Dir: dir, Reads: reads}).holds(); ok {
		return fmt.Errorf("%s holds %s, the %s this command reads; choose a folder of its own for the output", dir, in.Path, in.What)
	}
	if err := Replaceable(dir, kept); err != nil {
		return err
	}
	m, err := readManifest(dir)
	if err != nil || m == nil {
		m = manifest{}
	}
	for _, f := range folders {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(f)), 0o755); err != nil {
			return err
		}
		m[f] = ""
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := WriteFile(filepath.Join(dir, filepath.FromSlash(name)), files[name]); err != nil {
			return err
		}
		m[name] = hashOf(files[name])
		if err := m.write(dir); err != nil {
			return err
		}
	}
	return m.write(dir)
}

// Replaceable refuses a dir that is a file, or a folder holding anything beyond what
// its marker lists as written by Steadfast (a file of the user's, a file changed since,
// a folder without a marker); what lies under the relative folders kept is not looked
// at. A dir that does not exist or is empty is replaceable.
func Replaceable(dir string, kept []string) error {
	st, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is a file, not a folder; choose a folder for the output", dir)
	}
	const advice = "move them out or choose a new or empty folder: Steadfast replaces a folder only while it holds just the files it wrote there"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%s cannot be read (%v); choose a new or empty folder for the output", dir, err)
	}
	if len(entries) == 0 {
		return nil
	}
	listed, err := readManifest(dir)
	if err != nil {
		return fmt.Errorf("%s: %v", dir, err)
	}
	if listed == nil { // not Steadfast's, or an earlier one's: refused without looking further down
		var names []string
		for _, e := range entries {
			if e.Name() != marker {
				names = append(names, e.Name())
			}
		}
		if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
			return fmt.Errorf("%s was written by an earlier Steadfast, which kept no list of the files it wrote, so Steadfast cannot tell them from yours (%s); delete the folder or choose a new or empty one", dir, listSome(names, 5))
		}
		return fmt.Errorf("%s holds files Steadfast did not write there (%s); %s", dir, listSome(names, 5), advice)
	}
	found, err := scanFolder(dir, kept)
	if err != nil {
		return fmt.Errorf("%s holds files Steadfast cannot read (%v); %s", dir, err, advice)
	}
	var foreign, changed []string
	for rel, sum := range found {
		want, ok := listed[rel]
		switch {
		case !ok:
			foreign = append(foreign, rel)
		case want != sum:
			changed = append(changed, rel)
		}
	}
	sort.Strings(foreign)
	sort.Strings(changed)
	switch {
	case len(foreign) > 0:
		return fmt.Errorf("%s holds files Steadfast did not write there (%s); %s", dir, listSome(foreign, 5), advice)
	case len(changed) > 0:
		return fmt.Errorf("%s holds files changed since Steadfast wrote them (%s); %s", dir, listSome(changed, 5), advice)
	}
	return nil
}

// scanFolder lists every file (with its SHA-256) and folder under root but the marker
// and what lies under the relative folders kept.
func scanFolder(root string, kept []string) (manifest, error) {
	m := manifest{}
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil || rel == "." || rel == marker {
			return err
		}
		rel = filepath.ToSlash(rel)
		for _, k := range kept {
			if rel == k || strings.HasPrefix(rel, k+"/") {
				return nil
			}
		}
		switch {
		case e.IsDir():
			m[rel] = ""
		case e.Type().IsRegular():
			sum, err := dataset.FileSHA256(path)
			if err != nil {
				return err
			}
			m[rel] = sum
		default:
			m[rel] = "?" // a link, pipe or device: never Steadfast's
		}
		return nil
	})
	return m, err
}

func hashOf(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// write writes m as dir's marker.
func (m manifest) write(dir string) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Written by Steadfast %s at %s. Steadfast replaces this folder only while it holds just the files listed here, unchanged.\n",
		experiment.Version, time.Now().Format(time.RFC3339))
	paths := make([]string, 0, len(m))
	for p := range m {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if m[p] == "" {
			fmt.Fprintf(&b, "folder %s\n", p)
		} else {
			fmt.Fprintf(&b, "sha256 %s %s\n", m[p], p)
		}
	}
	return WriteFile(filepath.Join(dir, marker), b.Bytes())
}

// readManifest reads dir's marker; nil when there is none (or it lists nothing, as the
// marker of versions before the list).
func readManifest(dir string) (manifest, error) {
	f, err := os.Open(filepath.Join(dir, marker))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := manifest{}
	sc := bufio.NewScanner(io.LimitReader(f, maxManifest))
	sc.Buffer(nil, 1<<16)
	for sc.Scan() {
		l := sc.Text()
		if p, ok := strings.CutPrefix(l, "folder "); ok {
			m[p] = ""
		} else if rest, ok := strings.CutPrefix(l, "sha256 "); ok {
			sum, p, ok := strings.Cut(rest, " ")
			if ok && len(sum) == 2*sha256.Size {
				m[p] = sum
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("its %s file is damaged (%v)", marker, err)
	}
	if len(m) == 0 {
		return nil, nil
	}
	return m, nil
}

// swapIn puts the folder tmp in dir's place, removing dir's earlier contents. A stop
// (RemoveUnfinished) waits for the two renames.
func swapIn(tmp, dir string) error {
	unfinished.Lock()
	old, err := swapRename(tmp, dir)
	if old != "" {
		unfinished.paths[old] = true
	}
	unfinished.Unlock()
	if old != "" {
		os.RemoveAll(old)
		unfinished.Lock()
		delete(unfinished.paths, old)
		unfinished.Unlock()
	}
	return err
}

// swapRename renames dir aside (to the old folder it returns) and tmp to dir.
func swapRename(tmp, dir string) (string, error) {
	old := ""
	if _, err := os.Stat(dir); err == nil {
		o, err := os.MkdirTemp(filepath.Dir(dir), ".steadfast-old-")
		if err != nil {
			os.RemoveAll(tmp)
			return "", err
		}
		os.Remove(o)
		if err := os.Rename(dir, o); err != nil {
			os.RemoveAll(tmp)
			return "", fmt.Errorf("cannot replace %s: %v", dir, err)
		}
		old = o
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir)
		}
		os.RemoveAll(tmp)
		return "", fmt.Errorf("cannot write %s (another run writing to it at the same time?): %v", dir, err)
	}
	return old, nil
}

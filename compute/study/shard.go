package study

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
)

// Shard files: a shard's folder holds its raw output (ShardFile, gzipped gob: exact
// float64s, NaN included) and a readable summary without the units (ShardSummary).
const (
	ShardFile    = "shard.gob.gz"
	ShardSummary = "shard.json"
)

// RunShard plans cfg on ds and runs shard i of n of it (see experiment.RunShard), with
// serialised, throttled progress.
func RunShard(ctx context.Context, cfg experiment.Config, ds *dataset.Dataset, i, n int, progress func(experiment.Progress)) (*experiment.Shard, error) {
	cfg, err := Plan(cfg, ds)
	if err != nil {
		return nil, err
	}
	report, flush := throttled(progress)
	defer flush()
	return experiment.RunShard(ctx, cfg, ds, i, n, report)
}

// SaveShard writes sh into dir (replaced as a whole, see WriteFolder).
func SaveShard(dir string, sh *experiment.Shard) error {
	var raw bytes.Buffer
	zw := gzip.NewWriter(&raw)
	if err := gob.NewEncoder(zw).Encode(sh); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	summary, err := json.MarshalIndent(sh, "", "  ")
	if err != nil {
		return err
	}
	return WriteFolder(dir, func(tmp string) error {
		if err := WriteFile(filepath.Join(tmp, ShardFile), raw.Bytes()); err != nil {
			return err
		}
		return WriteFile(filepath.Join(tmp, ShardSummary), append(summary, '\n'))
	})
}

// LoadShard reads the shard saved in dir (or the shard file dir names).
func LoadShard(dir string) (*experiment.Shard, error) {
	path := filepath.Join(dir, ShardFile)
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		if filepath.Base(dir) != ShardFile {
			return nil, fmt.Errorf("%s is a file, not a shard's folder: give the folders written by steadfast run CONFIG --shard I/N -o DIR", dir)
		}
		path = dir
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s holds no shard (no %s): give the folders written by steadfast run CONFIG --shard I/N -o DIR; a shard that failed or is still running leaves none", dir, ShardFile)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: not a Steadfast shard (%v)", path, err)
	}
	var sh experiment.Shard
	if err := gob.NewDecoder(zr).Decode(&sh); err != nil {
		return nil, fmt.Errorf("%s: damaged shard (%v); run the shard again", path, err)
	}
	return &sh, nil
}

// LoadShards loads the shards saved in dirs, refusing a shard given twice (naming both
// folders). experiment.Merge checks the rest.
func LoadShards(dirs []string) ([]*experiment.Shard, error) {
	var shards []*experiment.Shard
	where := map[[2]int]string{}
	for _, dir := range dirs {
		sh, err := LoadShard(dir)
		if err != nil {
			return nil, err
		}
		key := [2]int{sh.I, sh.N}
		if prev, ok := where[key]; ok {
			return nil, fmt.Errorf("shard %d/%d is given twice: %s and %s", sh.I, sh.N, prev, dir)
		}
		where[key] = dir
		shards = append(shards, sh)
	}
	return shards, nil
}

package study

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// A shard file is gzip over: shardMagic, the SHA-256 of the payload, the payload's
// length (8 bytes, big-endian) and the payload, the shard as gob. Reading checks the
// gzip CRC, the length against maxShardPayload and the checksum before decoding, so a
// damaged file is refused rather than merged into other numbers.
const (
	shardMagic      = "steadfast shard 2\n"
	maxShardPayload = 1 << 30
)

// SaveShard writes sh into out's folder (replaced as a whole, see WriteFolder).
func SaveShard(ctx context.Context, out Output, sh *experiment.Shard) error {
	raw, err := encodeShard(sh)
	if err != nil {
		return err
	}
	summary, err := json.MarshalIndent(sh, "", "  ")
	if err != nil {
		return err
	}
	return WriteFolder(ctx, out, func(tmp string) error {
		if err := WriteFile(filepath.Join(tmp, ShardFile), raw); err != nil {
			return err
		}
		return WriteFile(filepath.Join(tmp, ShardSummary), append(summary, '\n'))
	})
}

// encodeShard returns the bytes of sh's shard file.
func encodeShard(sh *experiment.Shard) ([]byte, error) {
	var payload bytes.Buffer
	if err := gob.NewEncoder(&payload).Encode(sh); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(payload.Bytes())
	var raw bytes.Buffer
	zw := gzip.NewWriter(&raw)
	zw.Write([]byte(shardMagic))
	zw.Write(sum[:])
	binary.Write(zw, binary.BigEndian, uint64(payload.Len()))
	zw.Write(payload.Bytes())
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return raw.Bytes(), nil
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
	sh, err := decodeShard(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return sh, nil
}

// errDamaged is the advice for a shard file that fails a check.
const errDamaged = "the file is damaged (changed since it was written, cut short or not a Steadfast shard); run the shard again"

// decodeShard reads a shard file from r, checking it whole before decoding it.
func decodeShard(r io.Reader) (*experiment.Shard, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a Steadfast shard (%v)", err)
	}
	head := make([]byte, len(shardMagic)+sha256.Size+8)
	if _, err := io.ReadFull(zr, head); err != nil || string(head[:len(shardMagic)]) != shardMagic {
		return nil, fmt.Errorf("not a shard of this Steadfast version, or %s", errDamaged)
	}
	var want [sha256.Size]byte
	copy(want[:], head[len(shardMagic):])
	size := binary.BigEndian.Uint64(head[len(shardMagic)+sha256.Size:])
	if size > maxShardPayload {
		return nil, fmt.Errorf("declares %d bytes of content, more than a shard holds: %s", size, errDamaged)
	}
	payload, err := io.ReadAll(io.LimitReader(zr, int64(size)+1))
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, errDamaged)
	}
	if uint64(len(payload)) != size || sha256.Sum256(payload) != want {
		return nil, fmt.Errorf("its content does not match its checksum: %s", errDamaged)
	}
	if _, err := io.Copy(io.Discard, zr); err != nil { // to the end: the gzip CRC and length
		return nil, fmt.Errorf("%v: %s", err, errDamaged)
	}
	var sh experiment.Shard
	if err := gob.NewDecoder(bytes.NewReader(payload)).Decode(&sh); err != nil {
		return nil, fmt.Errorf("%v: %s", err, errDamaged)
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

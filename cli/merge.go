package cli

import (
	"errors"
	"fmt"
	"os"

	"steadfast/compute/experiment"
	"steadfast/compute/study"
)

// mergeCommand merges the shards of a study (steadfast run CONFIG --shard I/N) into the
// output a single run writes.
func mergeCommand(c *call) error {
	outDir := c.fs.String("o", "", "output folder (replaced as a whole when the merge succeeds)")
	data := c.fs.String("data", "", "data file (overrides the dataPath the shards were run with)")
	out := outputFlags(c)
	dirs, err := c.parse(1 << 20)
	if err != nil {
		return err
	}
	if len(dirs) == 0 || *outDir == "" {
		return errors.New("needs the shards' folders and an output folder: steadfast merge SHARDDIR... -o OUTDIR")
	}
	size, err := out.size()
	if err != nil {
		return err
	}
	dest := study.Output{Dir: *outDir, Beside: "merged"}
	for _, d := range dirs {
		dest.Reads = append(dest.Reads, study.Input{What: "shard", Path: d})
	}
	if err := dest.Check(); err != nil {
		return err
	}
	shards, err := study.LoadShards(dirs)
	if err != nil {
		return err
	}
	cfg := shards[0].Config
	if *data != "" {
		cfg.DataPath = *data
	}
	ds, err := c.openData(&cfg)
	if err != nil {
		if _, missing := os.Stat(cfg.DataPath); *data == "" && missing != nil && !study.IsAccession(cfg.DataPath) {
			return fmt.Errorf("%v; the shards were run on %s: if the data moved, give the file with --data FILE", err, cfg.DataPath)
		}
		return err
	}
	dest.Reads = append(dest.Reads, study.DataInputs(cfg.DataPath, cfg.Read)...)
	if err := dest.Check(); err != nil {
		return err
	}
	ctx := c.ctx
	res, err := experiment.Merge(ctx, shards, ds)
	if err != nil {
		return err
	}
	return writeRun(ctx, c, res, dest, size, *out.report)
}

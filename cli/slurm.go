package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/geo"
	"steadfast/compute/study"
)

// slurmJob is what the Slurm scripts of a study need.
type slurmJob struct {
	dir, binary                string // absolute
	tasks, cpus                int
	partition, account         string
	time, mem                  string
	memMB, minutes             int // the same, for Snakemake's resources
	name                       string
	shardDirs                  []string
	merged                     string
	configPath, logs, shardsAt string
}

// slurmCommand writes a folder with the study's configuration, an sbatch array script
// running its N shards, a merge script, a submit script and a Snakefile; with --submit
// it submits the array and the merge (--dependency=afterok on the array).
func slurmCommand(c *call) error {
	outDir := c.fs.String("o", "", "folder for the scripts, the shards (shards/I), the logs and the merged result (result)")
	data := c.fs.String("data", "", "data file (overrides the configuration's dataPath)")
	tasks := c.fs.Int("tasks", 0, "number of shards: array tasks run side by side")
	partition := c.fs.String("partition", "", "Slurm partition (default: the cluster's)")
	account := c.fs.String("account", "", "Slurm account to charge (default: yours)")
	limit := c.fs.String("time", "", "time limit of each shard, e.g. 2:00:00 (default: three times the estimate, at least 30 min)")
	mem := c.fs.String("mem", "4G", "memory of each shard and of the merge")
	cpus := c.fs.Int("cpus", 2, "cores of each shard")
	binary := c.fs.String("binary", "", "the steadfast binary the jobs run, as the nodes see it (default: this one; use the headless build on nodes without a display)")
	submit := c.fs.Bool("submit", false, "submit the jobs with sbatch")
	pos, err := c.parse(1)
	if err != nil {
		return err
	}
	if len(pos) == 0 || *outDir == "" || *tasks < 1 {
		return errors.New("needs a configuration, a folder and the number of shards: steadfast slurm CONFIG.json -o DIR --tasks N")
	}
	if *cpus < 1 || *cpus > 1024 {
		return fmt.Errorf("--cpus %d: give 1..1024 cores a shard", *cpus)
	}
	cfg, ds, err := openStudy(c, pos[0], *data)
	if err != nil {
		return err
	}
	cfg.Workers = *cpus
	if study.IsAccession(cfg.DataPath) {
		dir, _ := geo.CacheDir()
		c.note("the shards open %s from the GEO cache in each node's user cache folder (here %s), downloading it where it is missing; on nodes without internet access, give the downloaded series matrix instead (--data FILE)", cfg.DataPath, dir)
	}
	planned, err := study.Plan(cfg, ds)
	if err != nil {
		return err
	}
	if n := experiment.Units(planned, ds); *tasks > n {
		return fmt.Errorf("--tasks %d but the study has only %d units (rankings); use at most %d", *tasks, n, n)
	}
	job, err := newSlurmJob(*outDir, *binary, *tasks, *cpus)
	if err != nil {
		return err
	}
	if err := job.checkPaths(); err != nil {
		return err
	}
	job.partition, job.account, job.mem, job.time = *partition, *account, *mem, *limit
	job.name = "steadfast-" + strings.TrimSuffix(ds.Name, filepath.Ext(ds.Name))
	if job.time == "" {
		job.time = shardTime(planned, ds, *tasks, *cpus)
		c.note("each shard may run %s (three times the estimate; --time sets it)", job.time)
	}
	if job.memMB, err = parseMemory(job.mem); err != nil {
		return err
	}
	if job.minutes, err = parseSlurmTime(job.time); err != nil {
		return err
	}
	if !strings.Contains(filepath.Base(job.binary), "headless") {
		c.note("the jobs run %s; on nodes without a display or libGL, build the headless binary (docs/guide/cluster.md) and pass --binary", job.binary)
	}
	reads := append([]study.Input{{What: "configuration", Path: pos[0]}}, study.DataInputs(cfg.DataPath, cfg.Read)...)
	if err := job.write(cfg, reads); err != nil {
		return err
	}
	for _, f := range []string{"shards.sbatch", "merge.sbatch", "submit.sh", "Snakefile"} {
		fmt.Fprintln(c.out, filepath.Join(job.dir, f))
	}
	if !*submit {
		c.note("submit with: sh %s", filepath.Join(job.dir, "submit.sh"))
		return nil
	}
	return job.submit(c)
}

// newSlurmJob lays out the job's folder dir.
func newSlurmJob(dir, binary string, tasks, cpus int) (*slurmJob, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if binary == "" {
		if binary, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("cannot tell where this program is (%v); pass --binary", err)
		}
		if b, err := filepath.EvalSymlinks(binary); err == nil {
			binary = b
		}
	}
	if binary, err = filepath.Abs(binary); err != nil {
		return nil, err
	}
	j := &slurmJob{dir: dir, binary: binary, tasks: tasks, cpus: cpus,
		configPath: filepath.Join(dir, "config.json"), logs: filepath.Join(dir, "logs"),
		shardsAt: filepath.Join(dir, "shards"), merged: filepath.Join(dir, "result")}
	for i := 1; i <= tasks; i++ {
		j.shardDirs = append(j.shardDirs, filepath.Join(j.shardsAt, fmt.Sprint(i)))
	}
	return j, nil
}

// shardTime is three times a shard's estimated wall time on cpus cores, rounded up to
// whole minutes and at least 30 minutes, as Slurm writes it (H:MM:00).
func shardTime(cfg experiment.Config, ds *dataset.Dataset, tasks, cpus int) string {
	d := 30 * time.Minute
	if est, _, err := experiment.Estimate(cfg, ds); err == nil {
		per := 3 * est * 2 / time.Duration(tasks*min(cpus, 2)) // the estimate is for two cores
		d = max(d, per.Round(time.Minute)+time.Minute)
	}
	h := int(d.Hours())
	return fmt.Sprintf("%d:%02d:00", h, int(d.Minutes())-60*h)
}

// write writes the job's files into its folder: config.json (with the absolute data
// path and the workers), shards.sbatch, merge.sbatch, submit.sh and Snakefile, and an
// empty logs folder. Written again (say, with another --time), it replaces only these
// files and leaves the shards, logs and merged result alone; it refuses a folder whose
// shards belong to another configuration.
func (j *slurmJob) write(cfg experiment.Config, reads []study.Input) error {
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	if err := j.sameStudy(cfg); err != nil {
		return err
	}
	files := map[string][]byte{
		"config.json":   append(b, '\n'),
		"shards.sbatch": []byte(j.shardsScript()),
		"merge.sbatch":  []byte(j.mergeScript()),
		"submit.sh":     []byte(j.submitScript()),
		"Snakefile":     []byte(j.snakefile()),
	}
	if err := study.WriteFiles(j.dir, files, []string{"logs"}, []string{"logs", "shards", "result", ".snakemake"}, reads); err != nil {
		return err
	}
	return os.Chmod(filepath.Join(j.dir, "submit.sh"), 0o755)
}

// sameStudy refuses to write cfg into a job folder holding shards of another study.
func (j *slurmJob) sameStudy(cfg experiment.Config) error {
	done, _ := filepath.Glob(filepath.Join(j.shardsAt, "*", study.ShardFile))
	if len(done) == 0 {
		return nil
	}
	old, err := study.LoadConfig(j.configPath)
	if err == nil && experiment.ConfigHash(old) == experiment.ConfigHash(cfg) {
		return nil
	}
	return fmt.Errorf("%s holds %d finished shards of another configuration; write this study into a new folder (or remove %s first)", j.dir, len(done), j.shardsAt)
}

// checkPaths refuses folder and binary paths that no job script can carry: a line
// break (it would end the #SBATCH line) or a backslash (Slurm's output pattern reads it
// as "no substitutions").
func (j *slurmJob) checkPaths() error {
	for _, p := range []string{j.dir, j.binary} {
		if strings.ContainsAny(p, "\n\r\\") {
			return fmt.Errorf("%q holds a line break or a backslash, which Slurm's scripts cannot carry; choose a path without them", p)
		}
	}
	return nil
}

// header is the #SBATCH lines every job shares; output is the log's path, written as a
// Slurm filename pattern (%a the array task).
func (j *slurmJob) header(name string, cpus int, output string) string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", sbatchQuote(name))
	fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", cpus)
	fmt.Fprintf(&b, "#SBATCH --mem=%s\n", sbatchQuote(j.mem))
	fmt.Fprintf(&b, "#SBATCH --time=%s\n", sbatchQuote(j.time))
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", sbatchQuote(output))
	if j.partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", sbatchQuote(j.partition))
	}
	if j.account != "" {
		fmt.Fprintf(&b, "#SBATCH --account=%s\n", sbatchQuote(j.account))
	}
	return b.String()
}

func (j *slurmJob) shardsScript() string {
	return j.header(j.name, j.cpus, slurmPattern(j.logs)+"/shard-%a.log") +
		fmt.Sprintf("#SBATCH --array=1-%d\n", j.tasks) +
		"# Written by steadfast slurm: shard I of the study, I = the array task.\nset -eu\n" +
		fmt.Sprintf("exec %s run %s --shard \"${SLURM_ARRAY_TASK_ID}/%d\" -o %s/\"${SLURM_ARRAY_TASK_ID}\"\n",
			shQuote(j.binary), shQuote(j.configPath), j.tasks, shQuote(j.shardsAt))
}

func (j *slurmJob) mergeScript() string {
	return j.header(j.name+"-merge", 1, slurmPattern(j.logs)+"/merge.log") +
		"# Written by steadfast slurm: merges the shards once every array task has succeeded.\nset -eu\n" +
		fmt.Sprintf("exec %s merge %s -o %s --report\n", shQuote(j.binary), shQuoteAll(j.shardDirs), shQuote(j.merged))
}

func (j *slurmJob) submitScript() string {
	return "#!/bin/sh\n# Written by steadfast slurm: submits the shards, then the merge after all of them succeed.\nset -eu\n" +
		fmt.Sprintf("array=$(sbatch --parsable %s)\narray=${array%%%%;*}\n", shQuote(filepath.Join(j.dir, "shards.sbatch"))) +
		fmt.Sprintf("merge=$(sbatch --parsable --dependency=afterok:\"$array\" %s)\n", shQuote(filepath.Join(j.dir, "merge.sbatch"))) +
		fmt.Sprintf("echo \"shards: job $array (%d tasks); merge: job ${merge%%%%;*}; result in\" %s\n", j.tasks, shQuote(j.merged))
}

// snakefile does the same as the sbatch scripts through Snakemake (--cluster or a
// Slurm profile, or locally with --cores). Paths are Python string literals, and
// Snakemake quotes them for the shell ({X:q}).
func (j *slurmJob) snakefile() string {
	var b strings.Builder
	b.WriteString("# Written by steadfast slurm: the study's shards and their merge as Snakemake rules.\n")
	fmt.Fprintf(&b, "N = %d\nSTEADFAST = %s\nCONFIG = %s\n\n", j.tasks, pyQuote(j.binary), pyQuote(j.configPath))
	fmt.Fprintf(&b, "workdir: %s\n\n", pyQuote(j.dir))
	b.WriteString("rule all:\n    input: \"result/result.json\"\n\n")
	fmt.Fprintf(&b, "rule shard:\n    output: \"shards/{i}/shard.gob.gz\"\n    threads: %d\n    resources: mem_mb=%d, runtime=%d\n", j.cpus, j.memMB, j.minutes)
	b.WriteString("    params: steadfast=STEADFAST, config=CONFIG\n")
	b.WriteString("    shell: \"{params.steadfast:q} run {params.config:q} --shard {wildcards.i}/{N} -o shards/{wildcards.i}\"\n\n")
	b.WriteString("rule merge:\n    input: expand(\"shards/{i}/shard.gob.gz\", i=range(1, N + 1))\n    output: \"result/result.json\"\n")
	b.WriteString("    params: steadfast=STEADFAST, dirs=[f\"shards/{i}\" for i in range(1, N + 1)]\n")
	b.WriteString("    shell: \"{params.steadfast:q} merge {params.dirs:q} -o result --report\"\n")
	return b.String()
}

// submit submits the array, then the merge depending on it, and prints their job ids.
func (j *slurmJob) submit(c *call) error {
	if _, err := exec.LookPath("sbatch"); err != nil {
		return fmt.Errorf("sbatch is not on the PATH: run this on a Slurm login node, or submit later with sh %s", filepath.Join(j.dir, "submit.sh"))
	}
	array, err := sbatch(filepath.Join(j.dir, "shards.sbatch"))
	if err != nil {
		return err
	}
	merge, err := sbatch("--dependency=afterok:"+array, filepath.Join(j.dir, "merge.sbatch"))
	if err != nil {
		return fmt.Errorf("the shards were submitted as job %s but the merge was not: %v; submit it with sbatch --dependency=afterok:%s %s", array, err, array, filepath.Join(j.dir, "merge.sbatch"))
	}
	fmt.Fprintf(c.out, "shards: job %s (%d tasks)\nmerge: job %s, after every shard succeeds\nresult: %s\n", array, j.tasks, merge, j.merged)
	return nil
}

// sbatch submits a script with --parsable and returns the job id.
func sbatch(args ...string) (string, error) {
	out, err := exec.Command("sbatch", append([]string{"--parsable"}, args...)...).CombinedOutput()
	msg := strings.TrimSpace(string(out))
	if err != nil {
		return "", fmt.Errorf("sbatch %s: %v: %s", args[len(args)-1], err, msg)
	}
	id, _, _ := strings.Cut(msg, ";") // "id;cluster" on a federation
	return id, nil
}

// parseMemory reads a Slurm --mem value (a number of megabytes, or with the unit K, M,
// G or T) as megabytes.
func parseMemory(s string) (int, error) {
	unit := 1.0
	num := strings.TrimSpace(s)
	if n := len(num); n > 0 {
		if u := strings.IndexByte("KMGT", num[n-1]&^0x20); u >= 0 {
			unit = []float64{1.0 / 1024, 1, 1024, 1024 * 1024}[u]
			num = num[:n-1]
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("--mem %q: give the memory of a shard as Slurm writes it, e.g. 4G or 4000M", s)
	}
	return max(1, int(math.Ceil(v*unit))), nil
}

// parseSlurmTime reads a Slurm time limit (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or
// D-HH:MM:SS) as whole minutes, rounded up.
func parseSlurmTime(s string) (int, error) {
	bad := fmt.Errorf("--time %q: give the time limit as Slurm writes it, e.g. 90 (minutes), 2:00:00 or 1-12:00:00", s)
	days := 0
	rest := strings.TrimSpace(s)
	if d, r, ok := strings.Cut(rest, "-"); ok {
		v, err := strconv.Atoi(d)
		if err != nil || v < 0 {
			return 0, bad
		}
		days, rest = v, r
	}
	var parts []int
	for _, f := range strings.Split(rest, ":") {
		v, err := strconv.Atoi(f)
		if err != nil || v < 0 {
			return 0, bad
		}
		parts = append(parts, v)
	}
	var secs int
	switch {
	case days > 0 && len(parts) <= 3: // D-HH[:MM[:SS]]
		for len(parts) < 3 {
			parts = append(parts, 0)
		}
		secs = parts[0]*3600 + parts[1]*60 + parts[2]
	case len(parts) == 1: // minutes
		secs = parts[0] * 60
	case len(parts) == 2: // MM:SS
		secs = parts[0]*60 + parts[1]
	case len(parts) == 3:
		secs = parts[0]*3600 + parts[1]*60 + parts[2]
	default:
		return 0, bad
	}
	secs += days * 86400
	if secs <= 0 {
		return 0, bad
	}
	return (secs + 59) / 60, nil
}

// sbatchQuote quotes s for an #SBATCH line. sbatch ends a value at an unquoted blank
// (a backslash does not protect one) or #, groups quoted text and reads a backslash as
// escaping the next character: so s goes in double quotes, with " and \ escaped.
func sbatchQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// slurmPattern escapes a path for a Slurm filename pattern (% is %%).
func slurmPattern(path string) string {
	return strings.ReplaceAll(path, "%", "%%")
}

// pyQuote writes s as a Python string literal: backslashes, quotes and every
// character outside printable ASCII escaped.
func pyQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\\' || r == '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r <= 0xffff:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			fmt.Fprintf(&b, "\\U%08x", r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// shQuote quotes s for a POSIX shell.
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shQuoteAll(v []string) string {
	q := make([]string, len(v))
	for i, s := range v {
		q[i] = shQuote(s)
	}
	return strings.Join(q, " ")
}

package cli

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// slurmCluster is a private single-node Slurm: munged, slurmctld and slurmd started
// by a test with their own key, sockets, ports, state and logs under dir.
type slurmCluster struct {
	dir, conf string
	user      string
	env       []string
	daemons   []*exec.Cmd
}

// startSlurm starts the cluster, or skips the test where Slurm is not installed (and
// fails there when STEADFAST_REQUIRE_SLURM is set, as scripts/test.sh sets it on Debian).
func startSlurm(t *testing.T) *slurmCluster {
	t.Helper()
	for _, prog := range []string{"munged", "slurmctld", "slurmd", "sbatch", "sinfo", "squeue"} {
		if _, err := exec.LookPath(prog); err != nil {
			if _, err := exec.LookPath("/usr/sbin/" + prog); err == nil {
				continue
			}
			msg := fmt.Sprintf("Slurm is not installed (%s not found): apt-get install slurmctld slurmd slurm-client munge", prog)
			if os.Getenv("STEADFAST_REQUIRE_SLURM") != "" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	dir, err := os.MkdirTemp("", "sfslurm") // short: a socket path has at most 107 bytes
	if err != nil {
		t.Fatal(err)
	}
	c := &slurmCluster{dir: dir, conf: filepath.Join(dir, "slurm.conf"), user: currentUser(t)}
	t.Cleanup(c.stop)
	c.env = append(os.Environ(), "SLURM_CONF="+c.conf, "PATH="+os.Getenv("PATH")+":/usr/sbin")
	key := make([]byte, 128)
	for i := range key {
		key[i] = byte(i*131 + 7)
	}
	for _, sub := range []string{"state", "spool"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "munge.key"), key, 0o600); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	host, _, _ = strings.Cut(host, ".")
	if err := os.WriteFile(c.conf, []byte(c.config(t, host)), 0o644); err != nil {
		t.Fatal(err)
	}
	c.run(t, "munged", "--force", "--foreground", "--socket="+c.path("munge.sock"), "--key-file="+c.path("munge.key"),
		"--pid-file="+c.path("munged.pid"), "--log-file="+c.path("munged.log"), "--seed-file="+c.path("munge.seed"))
	c.waitFor(t, func() bool { _, err := os.Stat(c.path("munge.sock")); return err == nil }, "munged to start")
	c.run(t, "slurmctld", "-D", "-i")
	c.run(t, "slurmd", "-D", "-N", host)
	c.waitFor(t, func() bool {
		out, _ := c.command("sinfo", "-h", "-o", "%t").Output()
		return strings.TrimSpace(string(out)) == "idle"
	}, "the node to come up idle")
	return c
}

// config is slurm.conf: the node is this machine (reached at 127.0.0.1) with its CPUs;
// processes are tracked without cgroups, so it runs in a container too.
func (c *slurmCluster) config(t *testing.T, host string) string {
	ports := freePorts(t, 2)
	return fmt.Sprintf(`ClusterName=steadfasttest
SlurmctldHost=%[1]s(127.0.0.1)
SlurmUser=%[2]s
SlurmdUser=%[2]s
AuthType=auth/munge
AuthInfo=socket=%[3]s/munge.sock
CredType=cred/munge
SlurmctldPort=%[4]d
SlurmdPort=%[5]d
StateSaveLocation=%[3]s/state
SlurmdSpoolDir=%[3]s/spool
SlurmctldPidFile=%[3]s/slurmctld.pid
SlurmdPidFile=%[3]s/slurmd.pid
SlurmctldLogFile=%[3]s/slurmctld.log
SlurmdLogFile=%[3]s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=%[6]d RealMemory=4000 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
`, host, c.user, c.dir, ports[0], ports[1], runtime.NumCPU())
}

func (c *slurmCluster) path(name string) string { return filepath.Join(c.dir, name) }

func (c *slurmCluster) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = c.env
	return cmd
}

// run starts a daemon in the foreground of a child process, its output in dir.
func (c *slurmCluster) run(t *testing.T, name string, args ...string) {
	t.Helper()
	cmd := c.command(name, args...)
	log, err := os.Create(c.path(name + ".out"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	c.daemons = append(c.daemons, cmd)
}

// waitFor polls ok for up to a minute, failing with the daemons' logs.
func (c *slurmCluster) waitFor(t *testing.T, ok func() bool, what string) {
	t.Helper()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatalf("waited a minute for %s; logs:\n%s", what, c.logs())
}

// logs is the tail of every log in dir.
func (c *slurmCluster) logs() string {
	var b strings.Builder
	paths, _ := filepath.Glob(c.path("*.log"))
	more, _ := filepath.Glob(c.path("*.out"))
	for _, p := range append(paths, more...) {
		data, _ := os.ReadFile(p)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		fmt.Fprintf(&b, "== %s\n%s\n", filepath.Base(p), strings.Join(lines[max(0, len(lines)-15):], "\n"))
	}
	return b.String()
}

// stop cancels every job and stops the daemons, slurmd first.
func (c *slurmCluster) stop() {
	c.command("scancel", "--user="+c.user).Run()
	for i := len(c.daemons) - 1; i >= 0; i-- {
		if p := c.daemons[i].Process; p != nil {
			p.Signal(os.Interrupt)
			done := make(chan struct{})
			go func() { c.daemons[i].Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				p.Kill()
			}
		}
	}
	os.RemoveAll(c.dir)
}

func freePorts(t *testing.T, n int) []int {
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

func currentUser(t *testing.T) string {
	out, err := exec.Command("id", "-un").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// buildHeadless builds the headless binary the jobs run.
func buildHeadless(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "steadfast-headless")
	cmd := exec.Command("go", "build", "-tags", "headless", "-o", bin, "..")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the headless binary: %v\n%s", err, out)
	}
	return bin
}

// TestSlurmArrayJobMergesToTheLocalRun submits a 10 x 10 CV study on Colon to a real
// single-node Slurm as a 4-task array and a merge job, and checks the merged result
// against the same study run at once.
func TestSlurmArrayJobMergesToTheLocalRun(t *testing.T) {
	cluster := startSlurm(t)
	dir := t.TempDir()
	bin := buildHeadless(t, dir)
	data, _ := filepath.Abs(filepath.Join(sharedData, "colon.csv"))
	if _, err := os.Stat(data); err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := filepath.Join(dir, "colon.json")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`{"dataPath": %q, "protocol": "cv10x10", "topVariance": 300,
		"methods": [{"name": "fstat"}, {"name": "svmrfe"}], "classifiers": ["svm", "1nn"], "seed": 11}`, data)), 0o644)

	single := filepath.Join(dir, "single")
	if out, err := exec.Command(bin, "run", cfg, "-o", single, "--dpi", "30").CombinedOutput(); err != nil {
		t.Fatalf("the local run: %v\n%s", err, out)
	}
	job := filepath.Join(dir, hostileName) // every script must quote it
	cmd := cluster.command(bin, "slurm", cfg, "-o", job, "--tasks", "4", "--cpus", "1", "--mem", "1G", "--submit")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("steadfast slurm --submit: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "merge: job") {
		t.Fatalf("no job ids in %q", out.String())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for {
		q, _ := cluster.command("squeue", "-h").Output()
		if len(bytes.TrimSpace(q)) == 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the jobs ran past 5 minutes:\n%s\n%s", q, cluster.logs())
		}
		time.Sleep(time.Second)
	}
	merged := filepath.Join(job, "result")
	if _, err := os.Stat(filepath.Join(merged, "result.json")); err != nil {
		logs, _ := filepath.Glob(filepath.Join(job, "logs", "*"))
		var b strings.Builder
		for _, l := range logs {
			text, _ := os.ReadFile(l)
			fmt.Fprintf(&b, "== %s\n%s\n", filepath.Base(l), text)
		}
		t.Fatalf("no merged result: %v\n%s\n%s", err, b.String(), cluster.logs())
	}
	if runNumbers(t, merged) != runNumbers(t, single) {
		t.Error("the result merged on Slurm differs from the local run")
	}
	for i := 1; i <= 4; i++ {
		if _, err := os.Stat(filepath.Join(job, "shards", fmt.Sprint(i), "shard.gob.gz")); err != nil {
			t.Errorf("shard %d: %v", i, err)
		}
	}
}

// TestSnakefileMergesToTheLocalRun runs the Snakefile that steadfast slurm writes with
// Snakemake on this machine (2 cores) and checks its merged result against a local run.
// Snakemake is a bonus, not in the README's packages: without it the test is skipped.
func TestSnakefileMergesToTheLocalRun(t *testing.T) {
	if _, err := exec.LookPath("snakemake"); err != nil {
		t.Skip("snakemake is not installed (apt-get install snakemake)")
	}
	dir := t.TempDir()
	bin := buildHeadless(t, dir)
	cfg := colonStudy(t, dir, `{"name": "fstat"}, {"name": "relieff"}`)
	single := filepath.Join(dir, "single")
	if out, err := exec.Command(bin, "run", cfg, "-o", single, "--dpi", "30").CombinedOutput(); err != nil {
		t.Fatalf("the local run: %v\n%s", err, out)
	}
	job := filepath.Join(dir, hostileName) // every script must quote it
	if out, err := exec.Command(bin, "slurm", cfg, "-o", job, "--tasks", "3", "--cpus", "1", "--binary", bin).CombinedOutput(); err != nil {
		t.Fatalf("steadfast slurm: %v\n%s", err, out)
	}
	cmd := exec.Command("snakemake", "-s", filepath.Join(job, "Snakefile"), "--cores", "2")
	cmd.Dir = dir // Snakemake's own .snakemake folder goes here, not into the repository
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("snakemake: %v\n%s", err, out)
	}
	if runNumbers(t, filepath.Join(job, "result")) != runNumbers(t, single) {
		t.Error("the result merged by Snakemake differs from the local run")
	}
	if pwned, _ := filepath.Glob(filepath.Join(dir, "*", "PWNED")); len(pwned) > 0 {
		t.Errorf("a script ran the command in the folder's name: %v", pwned)
	}
}

// Package memlimit bounds what a computation may allocate by what the machine holds, so
// that sizes read from flags, files or forms are refused with an estimate rather than
// exhausting memory.
package memlimit

import (
	"bufio"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// fallback is the memory assumed where it cannot be read (8 GiB, a small laptop).
const fallback = 8 << 30

// Physical returns the machine's memory in bytes: STEADFAST_MEMORY when set (bytes, or
// with a unit: "4GB", "512MB"; to run as a smaller machine would), else MemTotal of
// /proc/meminfo, else 8 GiB.
func Physical() float64 {
	if v, ok := parseSize(os.Getenv("STEADFAST_MEMORY")); ok {
		return v
	}
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return fallback
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err == nil && kb > 0 {
				return kb * 1024
			}
		}
	}
	return fallback
}

// parseSize reads "4GB", "512MB", "2e9" as bytes; ok is false for "" and anything else.
func parseSize(s string) (float64, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	mult := 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"GB", 1e9}, {"MB", 1e6}, {"G", 1e9}, {"M", 1e6}} {
		if t, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(t), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v*mult >= 1e6) || v*mult > 1e15 {
		return 0, false
	}
	return v * mult, true
}

// Budget is what work may take: three quarters of the machine's memory.
func Budget() float64 { return 0.75 * Physical() }

// Check refuses work estimated to need bytes when that exceeds three quarters of the
// machine's memory, naming what and both figures.
func Check(what string, bytes float64) error {
	limit := Budget()
	if bytes > limit {
		return fmt.Errorf("%s would need about %s of memory, more than this machine can give (%s of %s); make it smaller", what, Size(bytes), Size(limit), Size(Physical()))
	}
	return nil
}

// Size writes a byte count as GB or MB, e.g. "3.2 GB".
func Size(b float64) string {
	switch {
	case b >= 1e12:
		return fmt.Sprintf("%.0f GB", b/1e9)
	case b >= 1e9:
		return fmt.Sprintf("%.1f GB", b/1e9)
	}
	return fmt.Sprintf("%.0f MB", b/1e6)
}

// SetSoft asks Go's garbage collector to keep the process within Budget (three
// quarters of the machine's memory) unless GOMEMLIMIT says otherwise: by default the
// heap may grow to twice what is live, so reading a large table (a 60,000 x 1,000 count
// table: 2.8 GB live at its peak) reached 4 GB where the work fits in less. The limit is
// soft: work that needs more still gets it, the collector just runs more often.
func SetSoft() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(Budget()))
	}
}

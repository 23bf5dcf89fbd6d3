package memlimit

import (
	"strings"
	"testing"
)

// TestCheckRefusesMoreThanTheMachine: a million by a million doubles (8 TB) is refused
// with its estimate; a megabyte passes.
func TestCheckRefusesMoreThanTheMachine(t *testing.T) {
	if err := Check("a 1e6 x 1e6 table", 8e12); err == nil || !strings.Contains(err.Error(), "8000 GB") {
		t.Errorf("8 TB: %v", err)
	}
	if err := Check("a small table", 1e6); err != nil {
		t.Errorf("1 MB: %v", err)
	}
	if p := Physical(); p < 1e8 {
		t.Errorf("physical memory %g bytes", p)
	}
}

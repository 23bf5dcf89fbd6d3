package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Under LANG=C.UTF-8 (Debian's default, and most clusters') a command prints only its
// own output: Fyne, initialised before main, used to log "Error parsing user locale C"
// three lines long on every run.
func TestCLocaleRunsQuietly(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "steadfast")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, env := range []string{"LANG=C.UTF-8", "LC_ALL=C.utf8", "LANG=POSIX"} {
		cmd := exec.Command(bin, "version")
		cmd.Env = append(withoutLocale(os.Environ()), env)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s steadfast version: %v\n%s", env, err, stderr.String())
		}
		if stderr.Len() > 0 {
			t.Errorf("%s steadfast version wrote to standard error:\n%s", env, stderr.String())
		}
	}
}

// withoutLocale is env without the variables that set the locale.
func withoutLocale(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "LC_") && !strings.HasPrefix(kv, "LANG") {
			out = append(out, kv)
		}
	}
	return out
}

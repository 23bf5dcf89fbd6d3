package text

import (
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0 s", 45 * time.Second: "45 s", 200 * time.Second: "3 min 20 s", 3900 * time.Second: "1 h 5 min"} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1999000: "1,999,000", -12345: "-12,345", 78528778: "78,528,778"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestCount: English plurals, worked by hand.
func TestCount(t *testing.T) {
	for _, c := range []struct {
		n          int
		noun, want string
	}{
		{1, "gene", "1 gene"}, {0, "gene", "0 genes"}, {2, "repetition", "2 repetitions"},
		{1, "class", "1 class"}, {3, "class", "3 classes"}, {2, "match", "2 matches"},
		{2, "study", "2 studies"}, {2, "key", "2 keys"}, {1, "is|are", "1 is"}, {5, "is|are", "5 are"},
		{2, "matrix|matrices", "2 matrices"}, {-1, "row", "-1 rows"},
	} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}

// TestPValueAndSig3: worked by hand.
func TestPValueAndSig3(t *testing.T) {
	for v, want := range map[float64]string{5.47547e-10: "5.5e-10", 0.034: "3.4e-2", 1: "1.0", 0.5: "5.0e-1", 1e-301: "< 1e-300", 0: "< 1e-300", 9.6e-22: "9.6e-22", 0.99999: "1.0"} {
		if got := PValue(v); got != want {
			t.Errorf("PValue(%g) = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[float64]string{1.23456: "1.23", -0.045678: "-0.0457", 1234.5: "1.23e+03", 0.1: "0.1"} {
		if got := Sig3(v); got != want {
			t.Errorf("Sig3(%g) = %q, want %q", v, got, want)
		}
	}
}

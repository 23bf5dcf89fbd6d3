package impute

import (
	"fmt"
	"math"
	"strings"
)

// ValidCounts is, for each protein (a column of rows, samples as rows), the number of
// samples of each class (labels[i] in 0..classes-1) in which it is measured.
func ValidCounts(rows [][]float64, labels []int, classes int) [][]int {
	if len(rows) == 0 {
		return nil
	}
	out := make([][]int, len(rows[0]))
	for j := range out {
		out[j] = make([]int, classes)
	}
	for i, row := range rows {
		for j, v := range row {
			if !missing(v) {
				out[j][labels[i]]++
			}
		}
	}
	return out
}

// Needed is the number of a class's size samples a protein must be measured in:
// ceil(share size), with a tolerance of 1e-9 for shares such as 0.7 x 10.
func Needed(share float64, size int) int {
	return max(1, int(math.Ceil(share*float64(size)-1e-9)))
}

// Valid is the valid-value filter of Perseus ("min valid values in at least one
// group") and DEP: protein j is kept when counts[j][c] >= Needed(share, sizes[c]) for
// at least one class c (counts from ValidCounts).
func Valid(counts [][]int, sizes []int, share float64) []bool {
	keep := make([]bool, len(counts))
	for j, cs := range counts {
		for c, k := range cs {
			if sizes[c] > 0 && k >= Needed(share, sizes[c]) {
				keep[j] = true
				break
			}
		}
	}
	return keep
}

// Reason says why the filter leaves a protein out: "measured in A 3 of 7, B 2 of 7
// samples; 5 needed in one class (70%)".
func Reason(counts, sizes []int, classes []string, share float64) string {
	parts := make([]string, len(counts))
	need := make([]string, 0, len(counts))
	seen := map[int]bool{}
	for c, k := range counts {
		parts[c] = fmt.Sprintf("%s %d of %d", classes[c], k, sizes[c])
		if n := Needed(share, sizes[c]); !seen[n] {
			seen[n] = true
			need = append(need, fmt.Sprint(n))
		}
	}
	return fmt.Sprintf("measured in %s samples; %s needed in one class (%.0f%%)", strings.Join(parts, ", "), strings.Join(need, " or "), 100*share)
}

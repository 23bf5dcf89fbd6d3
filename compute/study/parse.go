package study

import (
	"fmt"
	"strconv"
	"strings"
)

// ParsePercentages parses a comma-separated list of percentages in (0, 100].
func ParsePercentages(text string) ([]float64, error) {
	var out []float64
	for _, s := range strings.Split(text, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || !(v > 0 && v <= 100) {
			return nil, fmt.Errorf("%q is not a percentage in (0, 100]", strings.TrimSpace(s))
		}
		out = append(out, v)
	}
	return out, nil
}

// ParseTrainingSizes parses a comma-separated list of training sizes from 20 to 100,000.
func ParseTrainingSizes(text string) ([]int, error) {
	var out []int
	for _, s := range strings.Split(text, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || v < 20 || v > 100_000 {
			return nil, fmt.Errorf("%q is not a training size from 20 (10-fold CV needs it) to 100000", strings.TrimSpace(s))
		}
		out = append(out, v)
	}
	return out, nil
}

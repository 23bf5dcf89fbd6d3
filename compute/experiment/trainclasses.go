package experiment

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"steadfast/compute/dataset"
	"steadfast/internal/text"
)

// CheckTrainingClasses refuses a protocol of cfg (resolved) on ds that would train on a
// set lacking a class: with samples grouped (ds.Groups, each group kept in one fold), a
// group holding every sample of a class leaves the training sets of its folds without
// that class, and every model trained there could never predict it. It names the
// groups, the class and how many of the training sets it affects. For a survival
// outcome it refuses training sets of fewer than two events.
func CheckTrainingClasses(cfg Config, ds *dataset.Dataset) error {
	if ds.Survival != nil {
		return checkTrainingEvents(cfg, ds)
	}
	nc := len(ds.Classes)
	bad, total := 0, 0
	var first dataset.Split
	firstLabel, firstMissing := "", -1
	for _, t := range plan(cfg, ds) {
		if t.method != 0 || t.ref {
			continue
		}
		total++
		seen := make([]bool, nc)
		for _, i := range t.split.Train {
			seen[ds.Labels[i]] = true
		}
		for c := range seen {
			if !seen[c] {
				if bad == 0 {
					first, firstLabel, firstMissing = t.split, t.label, c
				}
				bad++
				break
			}
		}
	}
	if bad == 0 {
		return nil
	}
	c := firstMissing
	held := map[string]int{}
	n := 0
	for i, l := range ds.Labels {
		if l != c {
			continue
		}
		n++
		if ds.Groups != nil && !slices.Contains(first.Train, i) {
			held[ds.Groups[i]]++
		}
	}
	var names []string
	for g := range held {
		if g != "" {
			names = append(names, fmt.Sprintf("%q", g))
		}
	}
	sort.Strings(names)
	who := fmt.Sprintf("%s of class %q", text.Count(n, "sample"), ds.Classes[c])
	if ds.Groups == nil || len(names) == 0 {
		return fmt.Errorf("the training set of %s lacks all %s (and %d of the %d training sets lack a class): no model trained there can predict it; give each class more samples or fewer folds",
			firstLabel, who, bad, total)
	}
	by := cfg.Read.GroupName
	return fmt.Errorf("the samples are grouped by %q (each group kept within one fold), and %s %s %s all %s: the training set of %s has none (%d of the %d training sets lack a class), so no model trained there can predict it. Spread each class over several groups, or drop the grouping (groupName) if the samples are independent",
		by, text.Plural(len(names), "group|groups"), strings.Join(names, ", "), text.Plural(len(names), "holds|hold"), who, firstLabel, bad, total)
}

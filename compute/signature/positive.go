package signature

import (
	"slices"
	"strings"
)

// controlWords name a reference class: a class named with one of them (a word of its
// name, case, "_" and "-" ignored) is the reference, the other class positive.
var controlWords = []string{"normal", "normals", "control", "controls", "ctrl", "healthy", "benign", "untreated", "wt", "wildtype", "wild type", "non tumor", "non tumour", "nontumor", "nontumour"}

// controlLike reports whether a class name reads as a control: normal, control,
// healthy, benign, wild type, untreated.
func controlLike(name string) bool {
	s := " " + strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' {
			return ' '
		}
		return r
	}, strings.ToLower(name))), " ") + " "
	return slices.ContainsFunc(controlWords, func(w string) bool { return strings.Contains(s, " "+w+" ") })
}

// DefaultPositive is the positive class of two (its index) by a rule independent of
// the order the classes were met in the file: when exactly one class is named like a
// control (normal, control, healthy, benign, wild type, untreated), the other;
// else the second in alphabetical order (case ignored, then as written), the first
// being the reference as in R's factor levels. why says which rule chose. With other
// than two classes it is -1.
func DefaultPositive(classes []string) (positive int, why string) {
	if len(classes) != 2 {
		return -1, ""
	}
	a, b := controlLike(classes[0]), controlLike(classes[1])
	switch {
	case a && !b:
		return 1, classes[0] + " is the reference, named like a control"
	case b && !a:
		return 0, classes[1] + " is the reference, named like a control"
	}
	first := 0
	if ca, cb := strings.ToLower(classes[0]), strings.ToLower(classes[1]); cb < ca || cb == ca && classes[1] < classes[0] {
		first = 1
	}
	return 1 - first, classes[first] + " is the reference, first in alphabetical order"
}

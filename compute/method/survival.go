package method

import (
	"fmt"
	"strings"

	"steadfast/compute/score"
)

func init() {
	Catalog = append(Catalog,
		Info{Name: "cox", Label: "Cox score test", Survival: true,
			Help: "univariate Cox proportional-hazards score test of each gene (Efron ties, at beta = 0; survival::coxph's score test): chi-square U^2/I, either direction of effect",
			New:  func(map[string]float64) score.Ranker { return score.CoxScore{} }},
	)
}

// ForSurvival reports whether method name ranks against a survival outcome.
func ForSurvival(name string) bool {
	in, ok := Lookup(name)
	return ok && in.Survival
}

// SurvivalNames lists the methods that rank against a survival outcome, for messages.
func SurvivalNames() string {
	var s []string
	for _, in := range Catalog {
		if in.Survival {
			s = append(s, in.Name)
		}
	}
	return strings.Join(s, ", ")
}

// CheckOutcome refuses methods that do not fit the outcome: a class method on a
// survival outcome (survival true) or a survival method on classes.
func CheckOutcome(specs []Spec, survival bool) error {
	for _, sp := range specs {
		in, ok := Lookup(sp.Name)
		if !ok {
			continue // New names the unknown method
		}
		switch {
		case survival && !in.Survival:
			return fmt.Errorf("%s ranks genes against classes, and the outcome is a survival time; choose a survival method (%s)", in.Label, SurvivalNames())
		case !survival && in.Survival:
			return fmt.Errorf("%s ranks genes against a survival outcome (a time and an event), and the outcome is a class; name the time and event columns (--time COL --event COL, or the Data tab's Outcome), or choose a class method", in.Label)
		}
	}
	return nil
}

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

func init() {
	Catalog = append(Catalog,
		Info{Name: "coxnet", Label: "Elastic-net Cox path", Survival: true, Surrogate: true,
			Help: "Friedman et al. 2010 / Simon et al. 2011: glmnet's elastic-net Cox path (Breslow ties, standardised genes, lambda from lambda_max down); genes ranked by the lambda at which they enter, ties by the coefficient's size there, the genes that never enter by how near they came; or, with CV, by |coefficient| at cv.glmnet's lambda.min within the training samples",
			Params: []Param{
				{Key: "alpha", Label: "Mixing alpha", Help: "1 the lasso; below 1 the elastic net, which lets correlated genes enter together (above 0: a ridge path enters every gene at once)", Default: 1, Min: 0.01, Max: 1},
				{Key: "lambdas", Label: "Lambda values", Help: "points on the path (glmnet's nlambda)", Default: 100, Min: 2, Max: 1000, Integer: true},
				{Key: "cv", Label: "Rank at lambda.min", Help: "rank the genes of non-zero coefficient at cv.glmnet's lambda.min (10-fold cross-validation within the training samples, stratified by the event) instead of by their entry", Default: 0, Min: 0, Max: 1, Integer: true},
			},
			New: func(p map[string]float64) score.Ranker {
				return score.CoxNetPath{Alpha: p["alpha"], NLambda: int(p["lambdas"]), CV: p["cv"] == 1, Folds: 10}
			}},
	)
}

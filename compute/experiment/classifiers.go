package experiment

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"steadfast/compute/classify"
	"steadfast/compute/method"
)

// classifierParams are the parameters of the classifiers that take some, for forms and
// validation; a configuration gives them in ClassifierParams by classifier and key.
var classifierParams = map[string][]method.Param{
	"logit": {
		{Key: "alpha", Label: "Elastic-net mixing alpha", Help: "0 ridge (L2, keeps every selected gene), 1 lasso (L1, drops some), between them the elastic net; glmnet's alpha", Default: 0, Min: 0, Max: 1},
		{Key: "lambda", Label: "Lambda (0: by CV)", Help: "the penalty's weight; 0 chooses it in every training set by cross-validation within it, as cv.glmnet (the largest lambda of least held-out deviance, lambda.min)", Default: 0, Min: 0, Max: 1e6},
		{Key: "folds", Label: "Inner folds", Help: "folds of the cross-validation that chooses lambda (stratified; fewer when a class is smaller)", Default: classify.LogitFolds, Min: 3, Max: 50, Integer: true},
		{Key: "se1", Label: "lambda.1se", Help: "choose the largest lambda within one standard error of the least held-out deviance (glmnet's lambda.1se, a sparser and more shrunken model) instead of lambda.min", Default: 0, Min: 0, Max: 1, Integer: true},
		{Key: "misclass", Label: "Choose by errors", Help: "choose lambda by the held-out misclassification rate (cv.glmnet's type.measure = \"class\") instead of the deviance", Default: 0, Min: 0, Max: 1, Integer: true},
	},
	"cox": {
		{Key: "ridge", Label: "Ridge lambda", Help: "the Cox model's penalty lambda/2 sum beta^2 on the z-scored genes (coxph's ridge(theta = lambda, scale = FALSE)); small by default, so that a model fits when its genes near the number of events; 0 fits it unpenalised", Default: CoxRidge, Min: 0, Max: 1e6},
	},
	"rf": {
		{Key: "trees", Label: "Trees", Help: "number of trees (ranger's num.trees)", Default: classify.ForestTrees, Min: 1, Max: MaxForestTrees, Integer: true},
		{Key: "mtry", Label: "Genes tried per split (0: sqrt)", Help: "genes drawn at random at each split (ranger's mtry); 0 takes floor(sqrt(k)) of the k genes", Default: 0, Min: 0, Max: 1e6, Integer: true},
		{Key: "minNode", Label: "Smallest node split", Help: "a node of at most this many samples is a leaf (ranger's min.node.size; 1 grows every tree to pure leaves)", Default: 1, Min: 1, Max: 1000, Integer: true},
	},
}

// ClassifierHelp says in a sentence what a classifier with parameters is.
func ClassifierHelp(cl string) string {
	switch cl {
	case "logit":
		return "Penalised logistic regression as R's glmnet fits it, on the z-scored genes; its probabilities are its own (no Platt scaling). Defaults: ridge, lambda by 10-fold CV within each training set."
	case "cox":
		return "Cox proportional-hazards model of the k genes (z-scored on the training samples, Efron's ties, a small ridge penalty), for a survival outcome: its risk score ranks the held-out samples, measured by Harrell's C."
	case "rf":
		return "Random forest as R's ranger grows it: 500 trees on bootstrap samples, sqrt(k) genes tried per split; a class's probability is its share of the votes."
	}
	return ""
}

// MaxForestTrees bounds a random forest's trees (and so a model file's).
const MaxForestTrees = 10000

// ClassifierParamList returns the parameters of classifier cl (nil for one without).
func ClassifierParamList(cl string) []method.Param { return classifierParams[cl] }

// DirectProbability says whether classifier cl's scores are probabilities of its own
// (logistic regression's fitted probabilities, a forest's shares of votes), which need
// no Platt map.
func DirectProbability(cl string) bool { return cl == "logit" || cl == "rf" }

// resolveClassifier fills the defaults of cl's parameters in given and checks them.
func resolveClassifier(cl string, given map[string]float64) (map[string]float64, error) {
	ps, ok := classifierParams[cl]
	if !ok {
		if len(given) > 0 {
			return nil, fmt.Errorf("the classifier %q takes no parameters (only %s do)", cl, strings.Join(paramClassifiers(), " and "))
		}
		return nil, nil
	}
	return method.Resolve(method.Info{Label: ClassifierLabel(cl), Params: ps}, given)
}

func paramClassifiers() []string {
	var out []string
	for c := range classifierParams {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// ClassifierValues are cl's parameters in c, its defaults filled in (nil for a
// classifier without parameters, or values that Resolved would refuse).
func (c Config) ClassifierValues(cl string) map[string]float64 {
	p, err := resolveClassifier(cl, c.ClassifierParams[cl])
	if err != nil {
		return nil
	}
	return p
}

// checkClassifierParams checks every classifier's parameters of c.
func (c Config) checkClassifierParams() error {
	for cl, p := range c.ClassifierParams {
		if _, err := resolveClassifier(cl, p); err != nil {
			return err
		}
	}
	return nil
}

// LogitOf is the logistic regression of resolved parameters p (ClassifierValues).
func LogitOf(p map[string]float64) classify.Logit {
	return classify.Logit{Alpha: p["alpha"], Lambda: p["lambda"], Folds: int(p["folds"]), OneSE: p["se1"] == 1, Misclass: p["misclass"] == 1}
}

// ForestOf is the random forest of resolved parameters p (ClassifierValues), seeded.
func ForestOf(p map[string]float64, seed uint64, workers int) classify.Forest {
	return classify.Forest{Trees: int(p["trees"]), Mtry: int(p["mtry"]), MinNode: int(p["minNode"]), Seed: seed, Workers: workers}
}

// ClassifierSettings describes classifier cl of c as a methods section gives it:
// "ridge logistic regression (alpha = 0), lambda chosen by 10-fold cross-validation
// within each training set (lambda.min, deviance)"; "" for classifiers without
// parameters.
func (c Config) ClassifierSettings(cl string) string {
	p := c.ClassifierValues(cl)
	if p == nil {
		return ""
	}
	switch cl {
	case "logit":
		kind := "elastic-net"
		switch p["alpha"] {
		case 0:
			kind = "ridge (L2)"
		case 1:
			kind = "lasso (L1)"
		}
		out := fmt.Sprintf("%s logistic regression (alpha = %g) on the standardised genes", kind, p["alpha"])
		if p["lambda"] > 0 {
			return out + fmt.Sprintf(", lambda = %g", p["lambda"])
		}
		rule, measure := "lambda.min", "deviance"
		if p["se1"] == 1 {
			rule = "lambda.1se"
		}
		if p["misclass"] == 1 {
			measure = "misclassification"
		}
		return out + fmt.Sprintf(", lambda chosen by %d-fold cross-validation within each training set (%s, %s)", int(p["folds"]), rule, measure)
	case "rf":
		mtry := "floor(sqrt(k)) of the k genes"
		if p["mtry"] > 0 {
			mtry = fmt.Sprintf("%g", p["mtry"])
		}
		return fmt.Sprintf("a random forest of %g trees (mtry %s, nodes of at most %g samples left unsplit, Gini splits)", p["trees"], mtry, p["minNode"])
	}
	return ""
}

// OddsRatio is exp(beta): the odds ratio of a unit's (for a coefficient on a z-scored
// gene, a standard deviation's) increase; +Inf beyond float64.
func OddsRatio(beta float64) float64 { return math.Exp(beta) }

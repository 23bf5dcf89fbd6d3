package plots

import (
	"slices"
	"strings"
	"testing"

	"steadfast/compute/experiment"
	"steadfast/compute/method"
)

// The methods paragraph describes logistic regression and the random forest with their
// settings and cites Friedman et al. 2010 and Breiman 2001; the forest's impurity
// importance as a method cites Strobl et al. 2007 for its bias; the elastic-net path
// cites glmnet's paper.
func TestMethodsParagraphLogitAndForest(t *testing.T) {
	cfg := experiment.DefaultConfig()
	cfg.Methods = []method.Spec{{Name: "enetpath"}, {Name: "rfimpurity"}}
	cfg.Classifiers = []string{"svm", "logit", "rf"}
	cfg.ClassifierParams = map[string]map[string]float64{"logit": {"alpha": 1}}
	p, refs := MethodsParagraph(&experiment.Result{Config: cfg})
	for _, want := range []string{"lasso (L1) logistic regression (alpha = 1)", "lambda chosen by 10-fold cross-validation within each training set (lambda.min, deviance)",
		"a random forest of 500 trees", "no Platt scaling", "favours genes of many distinct values"} {
		if !strings.Contains(p, want) {
			t.Errorf("the paragraph lacks %q: %s", want, p)
		}
	}
	for _, want := range []string{"Regularization paths for generalized linear models via coordinate descent. J. Stat. Softw. 33(1)", "Breiman L. Random forests. Machine Learning 45:5-32, 2001", "Bias in random forest variable importance measures"} {
		if !slices.ContainsFunc(refs, func(r string) bool { return strings.Contains(r, want) }) {
			t.Errorf("references %q lack %q", refs, want)
		}
	}
	cfg.Methods, cfg.Classifiers = []method.Spec{{Name: "fstat"}}, []string{"svm"}
	p, refs = MethodsParagraph(&experiment.Result{Config: cfg})
	if strings.Contains(p, "random forest") || strings.Contains(p, "Logistic") || slices.ContainsFunc(refs, func(r string) bool { return strings.Contains(r, "Breiman") || strings.Contains(r, "Friedman") }) {
		t.Errorf("without them: %q, %q", p, refs)
	}
}

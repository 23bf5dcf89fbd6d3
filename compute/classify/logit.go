package classify

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
)

// LogitFolds is the default number of folds of the inner cross-validation that
// chooses lambda (cv.glmnet's nfolds).
const LogitFolds = 10

// Logit is penalised logistic regression as a classifier (glmnet's model, ENet): fitted
// on the training samples at lambda = Lambda when it is positive, else at the lambda
// chosen as cv.glmnet chooses it: the path (ENet's automatic sequence) on all the
// training samples; Folds-fold cross-validation within them (folds stratified by class
// and drawn from the random stream given to Fit, as scikit-learn's LogisticRegressionCV;
// cv.glmnet's are unstratified), each fold fitting its own path and predicting its
// held-out samples at the full path's lambdas by linear interpolation in lambda
// (cv.glmnet's alignment = "lambda"); the held-out deviance, -2 log p(observed class)
// with p kept in [1e-5, 1 - 1e-5], or with Misclass the misclassification rate,
// averaged within each fold and over the folds weighted by their sizes (cvm, grouped =
// TRUE; ungrouped, over samples, when folds average fewer than 3 samples), with
// cvsd = sqrt(sum_f n_f (cvm_f - cvm)^2 / n / (F - 1)); then lambda.min, the largest
// lambda of least cvm (the default, as caret and LogisticRegressionCV choose), or with
// OneSE lambda.1se, the largest lambda whose cvm is within one cvsd of that least.
//
// The probability of each class is the model's own, 1/(1 + e^-eta) for two classes
// (class 1) and the softmax for more: no Platt map. The class is the most probable
// (two classes: class 1 when p > 1/2; the first of equals).
type Logit struct {
	Alpha    float64 // elastic-net mixing: 0 ridge, 1 lasso
	Lambda   float64 // > 0 fixes lambda; 0 chooses it by cross-validation
	Folds    int     // 0: LogitFolds
	OneSE    bool    // lambda.1se rather than lambda.min
	Misclass bool    // choose by misclassification rather than deviance
	NLambda  int     // path length (0: 100)
	MinRatio float64 // lambda.min.ratio (0: glmnet's)
	Thresh   float64 // 0: 1e-7
	Raw      bool    // no standardisation (glmnet's standardize = FALSE)
	// MaxPasses caps the coordinate passes of each path (0: glmnet's maxit, 1e5).
	MaxPasses int

	W      [][]float64 // coefficients of each model on the scale of the data given
	B      []float64   // intercepts
	Chosen float64     // the lambda fitted
	// Path, CVM and CVSD are the lambdas tried and their cross-validated error and its
	// standard error (nil when Lambda is fixed).
	Path, CVM, CVSD []float64
	classes         int
}

// NewLogit is a fitted logistic model from its coefficients and intercepts (one model
// of class 1 against class 0 for two classes, else one per class): a locked model.
func NewLogit(w [][]float64, b []float64, classes int) *Logit {
	return &Logit{W: w, B: b, classes: classes}
}

// Fit trains on the rows of x with classes y in 0..classes-1; r draws the folds.
func (l *Logit) Fit(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) error {
	l.classes = classes
	o := ENet{Alpha: l.Alpha, NLambda: l.NLambda, MinRatio: l.MinRatio, Thresh: l.Thresh, Raw: l.Raw, MaxPasses: l.MaxPasses}
	if l.Lambda < 0 || math.IsNaN(l.Lambda) {
		return fmt.Errorf("logistic regression's lambda must be positive (or 0 to choose it by cross-validation), not %g", l.Lambda)
	}
	l.Path, l.CVM, l.CVSD = nil, nil, nil
	if l.Lambda > 0 {
		o.Lambda = []float64{l.Lambda}
		p, err := o.Path(ctx, x, y, classes)
		if err != nil {
			return err
		}
		l.W, l.B, l.Chosen = p.Beta[0], p.A0[0], l.Lambda
		return nil
	}
	full, err := o.Path(ctx, x, y, classes)
	if err != nil {
		return err
	}
	folds, err := l.folds(y, classes, r)
	if err != nil {
		return err
	}
	cvm, cvsd, err := l.crossValidate(ctx, o, x, y, classes, full.Lambda, folds)
	if err != nil {
		return err
	}
	best := ChooseLambda(cvm, cvsd, l.OneSE)
	l.Path, l.CVM, l.CVSD = full.Lambda, cvm, cvsd
	l.W, l.B, l.Chosen = full.Beta[best], full.A0[best], full.Lambda[best]
	return nil
}

// folds deals the samples into min(Folds, the smallest class) stratified folds.
func (l *Logit) folds(y []int, classes int, r *rand.Rand) ([]dataset.Split, error) {
	k := l.Folds
	if k <= 0 {
		k = LogitFolds
	}
	count := make([]int, classes)
	for _, c := range y {
		count[c]++
	}
	k = min(k, slices.Min(count))
	if k < 3 {
		return nil, fmt.Errorf("logistic regression chooses lambda by cross-validation within the training samples, which needs at least 3 of every class (the smallest has %d); fix lambda instead (\"lambda\" in the classifier's parameters)", slices.Min(count))
	}
	return dataset.StratifiedFolds(y, k, r), nil
}

// ChooseLambda is the index of cv.glmnet's lambda.min (the first of least cvm, the
// lambdas decreasing) or, with oneSE, lambda.1se (the first whose cvm is at most the
// least cvm plus its cvsd).
func ChooseLambda(cvm, cvsd []float64, oneSE bool) int {
	best := 0
	for i, v := range cvm {
		if v < cvm[best] {
			best = i
		}
	}
	if !oneSE {
		return best
	}
	limit := cvm[best] + cvsd[best]
	for i, v := range cvm {
		if v <= limit {
			return i
		}
	}
	return best
}

// crossValidate is cv.glmnet's cvm and cvsd at the lambdas lam over folds.
func (l *Logit) crossValidate(ctx context.Context, o ENet, x *mat.Dense, y []int, classes int, lam []float64, folds []dataset.Split) (cvm, cvsd []float64, err error) {
	n, _ := x.Dims()
	nl := len(lam)
	raw := make([][]float64, n) // raw[i][l]: sample i's loss at lambda l
	fold := make([]int, n)
	for f, s := range folds {
		xtr, ytr := dataset.SelectSamples(x, y, s.Train)
		fp, err := o.Path(ctx, xtr, ytr, classes)
		if err != nil {
			return nil, nil, fmt.Errorf("inner cross-validation, fold %d: %w", f+1, err)
		}
		nm := len(fp.A0[0])
		eta := make([]float64, nm)
		p := make([]float64, max(nm, 2))
		for _, i := range s.Test {
			fold[i] = f
			xi := x.RawRowView(i)
			raw[i] = make([]float64, nl)
			// the held-out sample's linear predictors at each of the fold's lambdas
			etas := make([][]float64, len(fp.Lambda))
			for m := range fp.Lambda {
				etas[m] = make([]float64, nm)
				for k := range etas[m] {
					etas[m][k] = fp.A0[m][k] + dot(fp.Beta[m][k], xi)
				}
			}
			for li, s := range lam {
				left, right, frac := lambdaInterp(fp.Lambda, s)
				for k := range eta {
					eta[k] = frac*etas[left][k] + (1-frac)*etas[right][k]
				}
				raw[i][li] = cvLoss(eta, y[i], p, l.Misclass)
			}
		}
	}
	return cvStats(raw, fold, len(folds), nl)
}

// lambdaInterp is glmnet's lambda.interp: s between the path's lambdas lam[m] >= s >=
// lam[m+1] gives left m, right m+1 and the left's weight (s - lam[m+1])/(lam[m] -
// lam[m+1]); beyond the path, its end (weight 1).
func lambdaInterp(lam []float64, s float64) (left, right int, frac float64) {
	k := len(lam)
	if k == 1 || s >= lam[0] {
		return 0, 0, 1
	}
	if s <= lam[k-1] {
		return k - 1, k - 1, 1
	}
	m := 0
	for m+1 < k && lam[m+1] > s {
		m++
	}
	if lam[m+1] == s {
		return m + 1, m + 1, 1
	}
	d := lam[m] - lam[m+1]
	if math.Abs(d) < 2.220446049250313e-16 {
		return m, m + 1, 1
	}
	return m, m + 1, (s - lam[m+1]) / d
}

// cvLoss is a held-out sample's loss given its linear predictors eta (one for two
// classes): cv.glmnet's deviance, 2 sum_k -y_k log p_k with p in [1e-5, 1 - 1e-5], or
// its misclassification (two classes: p > 1/2 calls class 1; else the first largest).
// p is scratch of at least 2 values.
func cvLoss(eta []float64, truth int, p []float64, misclass bool) float64 {
	const pmin = 1e-5
	if len(eta) == 1 {
		p1 := 1 / (1 + math.Exp(-eta[0]))
		if misclass {
			if (truth == 1) != (p1 > 0.5) {
				return 1
			}
			return 0
		}
		p1 = math.Min(math.Max(p1, pmin), 1-pmin)
		if truth == 1 {
			return -2 * math.Log(p1)
		}
		return -2 * math.Log(1-p1)
	}
	softmax(eta, p)
	if misclass {
		best := 0
		for k := range eta {
			if p[k] > p[best] {
				best = k
			}
		}
		if best != truth {
			return 1
		}
		return 0
	}
	return -2 * math.Log(math.Min(math.Max(p[truth], pmin), 1-pmin))
}

// softmax writes e^eta_k / sum_l e^eta_l into p.
func softmax(eta, p []float64) {
	m := math.Inf(-1)
	for _, v := range eta {
		m = math.Max(m, v)
	}
	s := 0.0
	for k, v := range eta {
		p[k] = math.Exp(v - m)
		s += p[k]
	}
	for k := range eta {
		p[k] /= s
	}
}

// cvStats is cv.glmnet's cvstats of the per-sample losses raw[i][l] in folds fold[i]:
// grouped by fold when the folds average 3 samples or more.
func cvStats(raw [][]float64, fold []int, nf, nl int) (cvm, cvsd []float64, err error) {
	n := len(raw)
	cvm, cvsd = make([]float64, nl), make([]float64, nl)
	if float64(n)/float64(nf) >= 3 { // cv.glmnet: grouped unless N/nfolds < 3
		size := make([]float64, nf)
		for _, f := range fold {
			size[f]++
		}
		fm := make([]float64, nf)
		for l := 0; l < nl; l++ {
			clear(fm)
			for i, f := range fold {
				fm[f] += raw[i][l] / size[f]
			}
			for f, v := range fm {
				cvm[l] += size[f] * v / float64(n)
			}
			ss := 0.0
			for f, v := range fm {
				ss += size[f] * (v - cvm[l]) * (v - cvm[l]) / float64(n)
			}
			cvsd[l] = math.Sqrt(ss / float64(nf-1))
		}
		return cvm, cvsd, nil
	}
	for l := 0; l < nl; l++ {
		for i := range raw {
			cvm[l] += raw[i][l] / float64(n)
		}
		ss := 0.0
		for i := range raw {
			ss += (raw[i][l] - cvm[l]) * (raw[i][l] - cvm[l]) / float64(n)
		}
		cvsd[l] = math.Sqrt(ss / float64(n-1))
	}
	return cvm, cvsd, nil
}

// Probs writes each class's probability for the sample v into p (length the classes).
func (l *Logit) Probs(v, p []float64) {
	if l.classes == 2 {
		p1 := 1 / (1 + math.Exp(-(dot(l.W[0], v) + l.B[0])))
		p[0], p[1] = 1-p1, p1
		return
	}
	eta := make([]float64, len(l.W))
	for k := range l.W {
		eta[k] = dot(l.W[k], v) + l.B[k]
	}
	softmax(eta, p)
}

// PredictScores returns the class of each row of x and its probability of each class.
func (l *Logit) PredictScores(x *mat.Dense) ([]int, [][]float64) {
	return mostProbable(x, l.classes, l.Probs)
}

// mostProbable gives each row of x its classes' probabilities by probs (written into
// its second argument) and the class of the largest, the first of tied ones.
func mostProbable(x *mat.Dense, classes int, probs func(row, out []float64)) ([]int, [][]float64) {
	n, _ := x.Dims()
	pred := make([]int, n)
	scores := make([][]float64, n)
	for i := range pred {
		scores[i] = make([]float64, classes)
		probs(x.RawRowView(i), scores[i])
		for c, p := range scores[i] {
			if p > scores[i][pred[i]] {
				pred[i] = c
			}
		}
	}
	return pred, scores
}

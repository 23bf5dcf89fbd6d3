package signature

import (
	"math"

	"steadfast/compute/experiment"
)

// IntervalMethod names the cross-validated AUC's interval in every output.
const IntervalMethod = "corrected resampled 95% interval (Nadeau and Bengio 2003 variance with 1/R, Wilson score form)"

// Interval is a 95% interval for the AUC of the procedure fitted on all samples, from
// a study's out-of-fold scores. Â is the mean of the resamples' own held-out AUCs (the
// mean one-vs-rest AUC with more classes); its variance is Nadeau and Bengio's
// corrected resampled variance with the repetitions as the units, SE^2 = (1/R +
// n_test/n_train) s^2, s^2 the variance of the J resamples' AUCs over R repetitions;
// the interval is Wilson's score interval for Â at the effective size m = min(n,
// Â(1-Â)/SE^2), with the t quantile of R-1 degrees of freedom: inside [0, 1], and not
// collapsed at Â = 1 (there m = n). With one repetition, 1/J and J-1 degrees of freedom.
// Its coverage of the locked model's true AUC is measured by simulation
// (compute/study BenchmarkIntervalCoverage: 95-98% where DeLong's gave 72-78%).
type Interval struct {
	Mean, Low, High float64
	Resamples       int // J, the resamples with an AUC
	Repetitions     int // R
	SE              float64
}

// CVInterval computes the Interval of classifier cl at k (accuracy index ki) from the
// predictions preds of a study of n samples with labels of nc classes; positive is the
// positive class of two (-1: the mean one-vs-rest AUC). NaN fields when fewer than two
// resamples have an AUC.
func CVInterval(preds []experiment.Prediction, cl string, ki, nc int, labels []int, positive int) Interval {
	var aucs []float64
	reps := map[int]bool{}
	testN := 0.0
	for _, pr := range preds {
		scores, truth := make([][]float64, len(pr.Test)), make([]int, len(pr.Test))
		flat := pr.Scores[cl][ki]
		for i, s := range pr.Test {
			scores[i], truth[i] = flat[i*nc:(i+1)*nc], labels[s]
		}
		a := PooledAUC(scores, truth, nc, positive).AUC
		if math.IsNaN(a) {
			continue
		}
		aucs = append(aucs, a)
		reps[pr.Repeat] = true
		testN += float64(len(pr.Test))
	}
	J := float64(len(aucs))
	mean := 0.0
	for _, a := range aucs {
		mean += a / J
	}
	v, se := correctedInterval(aucs, len(reps), testN/J, float64(len(labels)), mean)
	iv := Interval{Mean: v.Est, Low: v.Low, High: v.High, Resamples: len(aucs), Repetitions: len(reps), SE: se}
	if J < 2 {
		iv.Mean = math.NaN()
	}
	return iv
}

// PooledAUC is the AUC of samples' scores (nc a sample) against their classes truth:
// the positive class's with DeLong's interval, or with positive < 0 the mean of the
// classes' one-vs-rest AUCs (interval NaN); NaN when a class it needs is absent.
func PooledAUC(scores [][]float64, truth []int, nc, positive int) AUC {
	if positive >= 0 {
		return DeLong(classScores(scores, truth, positive))
	}
	mean := 0.0
	for c := 0; c < nc; c++ {
		mean += DeLong(classScores(scores, truth, c)).AUC / float64(nc)
	}
	nan := math.NaN()
	return AUC{AUC: mean, Var: nan, Low: nan, High: nan}
}

// MeanRange is the mean, least and largest of the AUCs a.
func MeanRange(a []AUC) (mean, lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range a {
		mean += x.AUC / float64(len(a))
		lo, hi = math.Min(lo, x.AUC), math.Max(hi, x.AUC)
	}
	return mean, lo, hi
}

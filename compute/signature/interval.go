package signature

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"steadfast/compute/experiment"
	"steadfast/compute/rstat"
)

// IntervalMethod names the cross-validated AUC's interval, and what it covers, in every
// output.
const IntervalMethod = "targets the AUC of the model locked on all samples: DeLong's variance of the pooled held-out AUC x (1 + sqrt(n_train/n_test)) + the resamples' variance / J, floored near 0 and 1, normal, within [0, 1]"

// Interval is a 95% interval for the AUC of the model locked on all n samples (its AUC
// on new samples), from a study's out-of-fold scores: Â is the mean of the J
// resamples' held-out AUCs (with more classes, of their mean one-vs-rest AUCs), and
//
//	SE^2 = max((1 + sqrt(n_train/n_test)) V + s^2/J, Ã(1-Ã)/(m + z^2)),
//	[max(0, Â - z SE), min(1, Â + z SE)], z = 1.96.
//
// V is DeLong's variance (DeLong et al. 1988) of a repetition's pooled held-out AUC,
// averaged over the repetitions: the AUC's test-sampling variance at n. The factor
// adds the variation over data sets of what the folds' models learned, shared by every
// fold so their spread cannot show it (no unbiased estimator exists: Bengio and
// Grandvalet 2004); it is empirical: over simulated data sets the variance of the
// estimate's error was 1.3, 2.0 and 2.4-3.0 times V at 3, 5 and 10 folds, 1.4 with a
// strong signal (compute/study BenchmarkIntervalCoverage measures the coverage). s^2 is the variance
// of the J resamples' AUCs. The floor is Agresti and Coull's variance at Newcombe's
// (2006) effective size of an AUC near 0 or 1, m = 4 n1 n2/(n1 + n2 + 2), Ã = (m Â +
// z^2/2)/(m + z^2): the interval does not collapse when every fold is perfect. With more
// classes V is the squared mean of the classes' DeLong SDs and m the least of theirs.
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
	byRepeat := map[int][]experiment.Prediction{} // every resample, pooled by repetition
	reps := map[int]bool{}                        // the repetitions with a resample's AUC
	testN := 0.0
	for _, pr := range preds {
		byRepeat[pr.Repeat] = append(byRepeat[pr.Repeat], pr)
		scores, truth := pool([]experiment.Prediction{pr}, cl, ki, nc, labels, nil)
		if a := PooledAUC(scores, truth, nc, positive).AUC; !math.IsNaN(a) {
			aucs = append(aucs, a)
			reps[pr.Repeat] = true
			testN += float64(len(pr.Test))
		}
	}
	nan := math.NaN()
	J := float64(len(aucs))
	iv := Interval{Mean: nan, Low: nan, High: nan, SE: nan, Resamples: len(aucs), Repetitions: len(reps)}
	if J < 2 {
		return iv
	}
	mean, ss := rstat.MeanSS(aucs)
	classes := []int{positive}
	if positive < 0 {
		classes = classes[:0]
		for c := 0; c < nc; c++ {
			classes = append(classes, c)
		}
	}
	sd, m := 0.0, math.Inf(1) // the classes' mean DeLong SD, least effective size
	for _, c := range classes {
		v, reps := 0.0, 0.0
		for _, r := range sortedKeys(byRepeat) {
			scores, truth := pool(byRepeat[r], cl, ki, nc, labels, nil)
			if a := DeLong(classScores(scores, truth, c)); !math.IsNaN(a.Var) {
				v, reps = v+a.Var, reps+1
			}
		}
		if reps > 0 {
			sd += math.Sqrt(v/reps) / float64(len(classes))
		}
		n1 := 0.0
		for _, l := range labels {
			if l == c {
				n1++
			}
		}
		n2 := float64(len(labels)) - n1
		m = math.Min(m, 4*n1*n2/(n1+n2+2))
	}
	nTest := testN / J
	se2 := (1+math.Sqrt((float64(len(labels))-nTest)/nTest))*sd*sd + ss/(J-1)/J
	z := distuv.UnitNormal.Quantile(0.975)
	if m > 0 {
		shrunk := (m*mean + z*z/2) / (m + z*z)
		se2 = math.Max(se2, shrunk*(1-shrunk)/(m+z*z))
	}
	// a mean of AUCs of 1 summed as a/J can exceed 1 by a rounding (1.0000000000000004,
	// which a model file's check refuses): it is at most 1
	iv.Mean, iv.SE = math.Min(1, mean), math.Sqrt(se2)
	iv.Low, iv.High = math.Max(0, mean-z*iv.SE), math.Min(1, mean+z*iv.SE)
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

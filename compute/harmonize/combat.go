// Package harmonize puts a new batch of samples (a cohort from another platform or lab)
// on the scale of a reference batch (the training data), without the samples' classes:
// ComBat with the reference batch left unchanged (Johnson, Li and Rabinovic 2007; Zhang,
// Parmigiani and Johnson 2018 for the reference batch), as sva's ComBat(ref.batch =).
package harmonize

import (
	"fmt"
	"math"
)

// Options choose the ComBat variant: empirical Bayes priors parametric (normal and
// inverse gamma, sva's par.prior = TRUE) or not (NonParametric: the other genes'
// estimates as a discrete prior), and MeanOnly (the batch's scale left unadjusted).
type Options struct {
	NonParametric bool
	MeanOnly      bool
}

// Fit is what ComBat estimated for the new batch, per gene: the reference's mean and
// variance (divided by n), the batch's location and scale on the standardised scale
// before (GammaHat, DeltaHat) and after shrinkage (GammaStar, DeltaStar), and the genes
// left unadjusted (constant within a batch).
type Fit struct {
	RefMean, RefVar      []float64
	GammaHat, DeltaHat   []float64
	GammaStar, DeltaStar []float64
	Unadjusted           []int
}

// ComBat adjusts batch (genes x samples, batch[g][i]) to the reference ref (genes x
// samples): with m_g and v_g the reference's mean and variance (over its n_r samples,
// divided by n_r) and s = (x - m_g)/sqrt(v_g), the batch's gamma-hat_g is the mean of s
// over its samples and delta-hat_g their variance (n - 1); their priors are estimated
// across genes (gamma ~ N(gamma-bar, tau^2), delta ~ InvGamma(a, b) by the method of
// moments) and the posterior estimates gamma*, delta* found as sva's it.sol (parametric;
// mean-only: sva's postmean with n = 1 and delta = 1) or int.eprior (non-parametric);
// the adjusted value is (s - gamma*)/sqrt(delta*) sqrt(v_g) + m_g. A gene constant within
// either batch (of two samples or more) is left as it is and out of the priors, as sva
// does. A batch of one sample is adjusted mean-only, as sva does. Values must be finite.
// The reference is never changed, and no class label enters.
func ComBat(ref, batch [][]float64, o Options) ([][]float64, *Fit, error) {
	if len(ref) != len(batch) || len(ref) == 0 {
		return nil, nil, fmt.Errorf("ComBat: %d reference genes and %d batch genes", len(ref), len(batch))
	}
	nr, nb := len(ref[0]), len(batch[0])
	if nr < 2 || nb < 1 {
		return nil, nil, fmt.Errorf("ComBat: %d reference samples and %d batch samples; it needs 2 and 1 at least", nr, nb)
	}
	if nb == 1 {
		o.MeanOnly = true
	}
	G := len(ref)
	f := &Fit{RefMean: make([]float64, G), RefVar: make([]float64, G)}
	var keep []int
	for g := range ref {
		if len(ref[g]) != nr || len(batch[g]) != nb || !finite(ref[g]) || !finite(batch[g]) {
			return nil, nil, fmt.Errorf("ComBat: gene %d has %d and %d values, or one not finite; %d and %d wanted", g+1, len(ref[g]), len(batch[g]), nr, nb)
		}
		m, v := meanVarN(ref[g])
		f.RefMean[g], f.RefVar[g] = m, v
		if v == 0 || nb > 1 && sampleVar(batch[g]) == 0 {
			f.Unadjusted = append(f.Unadjusted, g)
			continue
		}
		keep = append(keep, g)
	}
	if len(keep) < 2 {
		return nil, nil, fmt.Errorf("ComBat: %d genes vary within both batches; its priors need 2 at least", len(keep))
	}
	s := make([][]float64, len(keep))
	gh, dh := make([]float64, len(keep)), make([]float64, len(keep))
	for k, g := range keep {
		s[k] = make([]float64, nb)
		sd := math.Sqrt(f.RefVar[g])
		for i, x := range batch[g] {
			s[k][i] = (x - f.RefMean[g]) / sd
		}
		gh[k] = mean(s[k])
		dh[k] = 1
		if !o.MeanOnly {
			dh[k] = sampleVar(s[k])
		}
	}
	var gs, ds []float64
	switch {
	case o.NonParametric:
		gs, ds = intEprior(s, gh, dh)
	case o.MeanOnly:
		gbar, t2 := mean(gh), sampleVar(gh)
		gs, ds = make([]float64, len(gh)), make([]float64, len(gh))
		for k := range gh {
			gs[k], ds[k] = postmean(gh[k], gbar, 1, 1, t2), 1
		}
	default:
		gs, ds = itSol(s, gh, dh, mean(gh), sampleVar(gh), aprior(dh), bprior(dh))
	}
	out := make([][]float64, G)
	for g := range batch {
		out[g] = append([]float64(nil), batch[g]...)
	}
	f.GammaHat, f.DeltaHat, f.GammaStar, f.DeltaStar = make([]float64, G), make([]float64, G), make([]float64, G), make([]float64, G)
	for g := range f.DeltaStar {
		f.GammaHat[g], f.DeltaHat[g], f.GammaStar[g], f.DeltaStar[g] = math.NaN(), math.NaN(), 0, 1
	}
	for k, g := range keep {
		f.GammaHat[g], f.DeltaHat[g], f.GammaStar[g], f.DeltaStar[g] = gh[k], dh[k], gs[k], ds[k]
		sd := math.Sqrt(f.RefVar[g])
		for i := range out[g] {
			out[g][i] = (s[k][i]-gs[k])/math.Sqrt(ds[k])*sd + f.RefMean[g]
		}
	}
	return out, f, nil
}

// itSol is sva's it.sol: the parametric posterior means of gamma and delta, iterated
// until the largest relative change (signed, as sva computes it) is at most 1e-4.
func itSol(s [][]float64, gh, dh []float64, gbar, t2, a, b float64) (g, d []float64) {
	gOld, dOld := append([]float64(nil), gh...), append([]float64(nil), dh...)
	g, d = make([]float64, len(gh)), make([]float64, len(gh))
	for iter := 0; iter < 10_000; iter++ {
		change := math.Inf(-1)
		for k, row := range s {
			n := float64(len(row))
			g[k] = postmean(gh[k], gbar, n, dOld[k], t2)
			sum2 := 0.0
			for _, x := range row {
				sum2 += (x - g[k]) * (x - g[k])
			}
			d[k] = (0.5*sum2 + b) / (n/2 + a - 1)
			change = math.Max(change, math.Max(math.Abs(g[k]-gOld[k])/gOld[k], math.Abs(d[k]-dOld[k])/dOld[k]))
		}
		copy(gOld, g)
		copy(dOld, d)
		if !(change > 1e-4) {
			break
		}
	}
	return g, d
}

func postmean(gh, gbar, n, d, t2 float64) float64 {
	return (t2*n*gh + d*gbar) / (t2*n + d)
}

// aprior and bprior are sva's method-of-moments inverse gamma parameters of the
// scales dh: a = (2 s^2 + m^2)/s^2, b = (m s^2 + m^3)/s^2.
func aprior(dh []float64) float64 {
	m, s2 := mean(dh), sampleVar(dh)
	return (2*s2 + m*m) / s2
}

func bprior(dh []float64) float64 {
	m, s2 := mean(dh), sampleVar(dh)
	return (m*s2 + m*m*m) / s2
}

// intEprior is sva's int.eprior: for each gene, the other genes' (gamma-hat, delta-hat)
// as a discrete prior weighted by the likelihood of the gene's standardised values,
// L_j = (2 pi d_j)^(-n/2) exp(-sum_i (x_i - g_j)^2 / (2 d_j)); the weights are taken in
// logarithms and scaled by their largest, which changes no ratio where sva's do not
// underflow and keeps them where they would (sva then gives NaN).
func intEprior(s [][]float64, gh, dh []float64) (g, d []float64) {
	r := len(s)
	g, d = make([]float64, r), make([]float64, r)
	logL := make([]float64, r)
	for i, x := range s {
		n := float64(len(x))
		top := math.Inf(-1)
		for j := range gh {
			if j == i {
				continue
			}
			sum2 := 0.0
			for _, v := range x {
				sum2 += (v - gh[j]) * (v - gh[j])
			}
			logL[j] = -n/2*math.Log(2*math.Pi*dh[j]) - sum2/(2*dh[j])
			top = math.Max(top, logL[j])
		}
		var w, gw, dw float64
		for j := range gh {
			if j == i {
				continue
			}
			l := math.Exp(logL[j] - top)
			w, gw, dw = w+l, gw+gh[j]*l, dw+dh[j]*l
		}
		g[i], d[i] = gw/w, dw/w
	}
	return g, d
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// meanVarN is the mean and the variance divided by n.
func meanVarN(x []float64) (m, v float64) {
	m = mean(x)
	for _, a := range x {
		v += (a - m) * (a - m)
	}
	return m, v / float64(len(x))
}

// sampleVar is the variance divided by n - 1 (R's var); 0 for one value.
func sampleVar(x []float64) float64 {
	if len(x) < 2 {
		return 0
	}
	m := mean(x)
	v := 0.0
	for _, a := range x {
		v += (a - m) * (a - m)
	}
	return v / float64(len(x)-1)
}

func finite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

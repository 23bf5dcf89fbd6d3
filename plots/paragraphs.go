package plots

import (
	"fmt"
	"slices"
	"strings"

	"steadfast/compute/experiment"
	"steadfast/compute/genes"
	"steadfast/compute/method"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/internal/text"
)

// references are the papers behind each method and measure, cited in the report's
// methods paragraph.
var references = map[string]string{
	"svmrfe":      "Guyon I, Weston J, Barnhill S, Vapnik V. Gene selection for cancer classification using support vector machines. Machine Learning 46:389-422, 2002.",
	"relieff":     "Robnik-Šikonja M, Kononenko I. Theoretical and empirical analysis of ReliefF and RReliefF. Machine Learning 53:23-69, 2003.",
	"infogain":    "Fayyad UM, Irani KB. Multi-interval discretization of continuous-valued attributes for classification learning. Proc. IJCAI, 1022-1027, 1993.",
	"ensemblerfe": "Saeys Y, Abeel T, Van de Peer Y. Robust feature selection using ensemble feature selection techniques. Proc. ECML PKDD, LNCS 5212:313-325, 2008.",
	"stabsel":     "Meinshausen N, Bühlmann P. Stability selection. J. R. Stat. Soc. B 72:417-473, 2010.",
	"drags":       "Yu L, Ding C, Loscalzo S. Stable feature selection via dense feature groups. Proc. ACM SIGKDD, 803-811, 2008.",
	"cgs":         "Loscalzo S, Yu L, Ding C. Consensus group stable feature selection. Proc. ACM SIGKDD, 567-576, 2009.",
	"mids":        "Shu L, Ma T, Latecki LJ. Stable feature selection with minimal independent dominating sets. Proc. ACM BCB, 2013.",
	"bootstrap":   "Díaz-Díaz N, Aguilar-Ruiz JS, Nepomuceno JA, García J. Feature selection based on bootstrapping.",
	"cox":         "Cox DR. Regression models and life-tables. J. R. Stat. Soc. B 34:187-220, 1972.",
	"coxnet":      "Simon N, Friedman J, Hastie T, Tibshirani R. Regularization paths for Cox's proportional hazards model via coordinate descent. J. Stat. Softw. 39(5):1-13, 2011.",
	"harrell":     "Harrell FE, Lee KL, Mark DB. Multivariable prognostic models: issues in developing models, evaluating assumptions and adequacy, and measuring and reducing errors. Stat. Med. 15:361-387, 1996.",
	"nadeau":      "Nadeau C, Bengio Y. Inference for the generalization error. Machine Learning 52:239-281, 2003.",
	"kalousis":    "Kalousis A, Prados J, Hilario M. Stability of feature selection algorithms: a study on high-dimensional spaces. Knowl. Inf. Syst. 12:95-116, 2007.",
	"nogueira":    "Nogueira S, Sechidis K, Brown G. On the stability of feature selection algorithms. J. Mach. Learn. Res. 18(174):1-54, 2018.",
	"mcnemar":     "Dietterich TG. Approximate statistical tests for comparing supervised classification learning algorithms. Neural Computation 10:1895-1923, 1998.",
	"ktsp":        "Tan AC, Naiman DQ, Xu L, Winslow RL, Geman D. Simple decision rules for classifying human cancers from gene expression profiles. Bioinformatics 21:3896-3904, 2005.",
	"enetpath":    "Friedman J, Hastie T, Tibshirani R. Regularization paths for generalized linear models via coordinate descent. J. Stat. Softw. 33(1):1-22, 2010.",
	"rfperm":      "Breiman L. Random forests. Machine Learning 45:5-32, 2001.",
	"concordance": "Therneau TM, Atkinson EJ. Concordance. Vignette of the R package survival, version 3.5, 2023.",
	"strobl":      "Strobl C, Boulesteix AL, Zeileis A, Hothorn T. Bias in random forest variable importance measures: illustrations, sources and a solution. BMC Bioinformatics 8:25, 2007.",
	"perseus":     "Tyanova S, Temu T, Sinitcyn P, et al. The Perseus computational platform for comprehensive analysis of (prote)omics data. Nature Methods 13:731-740, 2016.",
	"dep":         "Zhang X, Smits AH, van Tilburg GB, Ovaa H, Huber W, Vermeulen M. Proteome-wide identification of ubiquitin interactions using UbIA-MS. Nature Protocols 13:530-550, 2018 (the DEP package).",
	"knn":         "Troyanskaya O, Cantor M, Sherlock G, et al. Missing value estimation methods for DNA microarrays. Bioinformatics 17:520-525, 2001.",
	"quantile":    "Bolstad BM, Irizarry RA, Åstrand M, Speed TP. A comparison of normalization methods for high density oligonucleotide array data based on variance and bias. Bioinformatics 19:185-193, 2003.",
}

// citer numbers references in the order the paragraph first cites them.
type citer struct {
	keys []string
}

// MethodsParagraph describes the study of res in words a manuscript can take, with the
// numbered references it cites.
func MethodsParagraph(res *experiment.Result) (string, []string) {
	return MethodsParagraphWith(res, nil)
}

// MethodsParagraphWith is MethodsParagraph of a survival study with, when av is not
// nil, how its signature's added value over clinical covariates was assessed.
func MethodsParagraphWith(res *experiment.Result, av *study.AddedValue) (string, []string) {
	cfg := res.Config
	var c citer
	var names []string
	for _, s := range cfg.Methods {
		label := s.Name
		if in, ok := method.Lookup(s.Name); ok {
			label = in.Label
		}
		base, mids := strings.CutSuffix(s.Name, "+mids")
		switch base {
		case "svmone":
			base = "svmrfe" // the weights of one SVM, as Guyon et al. rank them before elimination
		case "rfimpurity":
			base = "rfperm" // Breiman's forest; the bias of its impurity importance cited below
		}
		ref := c.cite(base)
		if mids {
			ref += c.cite("mids")
		}
		names = append(names, label+ref)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Features of %s (%s%d samples, %d features", res.Data.Name, geoSource(res.Data), res.Data.Samples, len(res.Data.Features))
	if sv := res.Data.Survival; sv != nil {
		events := sv.Events()
		fmt.Fprintf(&b, "; a survival outcome, %s and %d censored, follow-up %s to %s", text.Count(events, "event"), len(sv.Event)-events, fmtNum(slices.Min(sv.Time)), fmtNum(slices.Max(sv.Time)))
	}
	for i, cl := range res.Data.Classes {
		if res.Data.Survival != nil {
			break
		}
		fmt.Fprintf(&b, "; %s %d", cl, res.Data.ClassCounts[i])
	}
	fmt.Fprintf(&b, ") were ranked by %s with Steadfast %s.", joinAnd(names), res.Version)
	switch {
	case cfg.Prep.Log2:
		b.WriteString(" Values were log2-transformed.")
	case cfg.Prep.LogCPM && cfg.Prep.TMM:
		b.WriteString(" Read counts were normalised as edgeR does (Robinson, McCarthy and Smyth 2010), inside every training set: genes with too few reads filtered by filterByExpr (Chen, Lun and Smyth 2016) on the training samples and ranked last, TMM normalisation factors (Robinson and Oshlack 2010), and log2 counts per million with a prior count of 2; each test sample was normalised against the training samples' reference alone.")
	case cfg.Prep.LogCPM:
		b.WriteString(" Read counts were turned into log2 counts per million, log2((x + 0.5)/(L + 1) 10^6) with L the sample's library size, sample by sample (Law et al. 2014).")
	}
	b.WriteString(intensityMethods(res, &c))
	switch {
	case cfg.ZScore && cfg.Prep.Scaling == "pareto":
		b.WriteString(" Every feature was Pareto-scaled (centred, divided by the square root of its standard deviation) with the statistics of each training set.")
	case cfg.ZScore:
		b.WriteString(" Every feature was z-scored with the mean and standard deviation of each training set.")
	}
	in, _ := experiment.LookupProtocol(cfg.Protocol)
	resampling := fmt.Sprintf("stratified %d-fold resampling", cfg.Folds)
	if res.Data.Survival != nil {
		resampling = fmt.Sprintf("%d-fold resampling stratified by the event", cfg.Folds)
	}
	fmt.Fprintf(&b, " Stability was assessed over %s of %s", text.Count(cfg.Repeats, "repetition"), resampling)
	if cfg.Protocol == experiment.Kalousis {
		fmt.Fprintf(&b, " with %d inner folds", cfg.InnerFolds)
	}
	if run := experiment.ProtocolText(cfg); run == in.Label {
		fmt.Fprintf(&b, " (the %s protocol), ", strings.SplitN(in.Label, " (", 2)[0])
	} else {
		fmt.Fprintf(&b, " (%s: the protocol's folds or repeats changed), ", run)
	}
	if cfg.Mode == experiment.Pairwise {
		b.WriteString("comparing the selections of every two resamples of a repetition")
	} else {
		b.WriteString("comparing each resample's selection with the one on all samples")
	}
	fmt.Fprintf(&b, ", by the Dice (Sim_ID) and Tanimoto (S_S) similarity of the top-k sets and the Pearson (S_W) and Spearman (S_R) correlation of whole score and rank vectors%s, and by Nogueira's Φ with its 95%% confidence interval%s.", c.cite("kalousis"), c.cite("nogueira"))
	if res.Data.Survival != nil {
		fmt.Fprintf(&b, " Harrell's C%s of a Cox proportional-hazards model%s of the top k features (Efron's ties, the ridge penalty lambda/2 sum beta^2 with lambda = %g on the features z-scored in the training set) was measured on the held-out samples of every resample (k = %s), the model fitted on the training samples only", c.cite("harrell"), c.cite("cox"), experiment.CoxRidgeOf(cfg), kList(cfg.Ks, cfg.AccuracyMax))
		if len(cfg.Methods) > 1 {
			fmt.Fprintf(&b, "; methods were compared by the corrected resampled t-test of their resamples' C%s", c.cite("nadeau"))
		}
		b.WriteString(".")
		if av != nil {
			b.WriteString(addedValueMethods(&c, av))
		}
		fmt.Fprintf(&b, " The random seed was %d.", cfg.Seed)
		return b.String(), c.refs()
	}
	var cls []string
	for _, cl := range cfg.Classifiers {
		cls = append(cls, experiment.ClassifierLabel(cl))
	}
	fmt.Fprintf(&b, " Test accuracy of %s was measured on the held-out samples of every resample for the top k features (k = %s), the classifier trained on the training samples only", joinAnd(cls), kList(cfg.Ks, cfg.AccuracyMax))
	if len(cfg.Methods) > 1 {
		fmt.Fprintf(&b, "; methods were compared by McNemar's test%s", c.cite("mcnemar"))
	}
	b.WriteString(".")
	if slices.Contains(cfg.Classifiers, "ktsp") {
		k := "their number chosen in each training set by leave-one-out cross-validation within it among 1, 3, ..., 9"
		if cfg.KTSPPairs > 0 {
			k = fmt.Sprintf("at most %d of them", cfg.KTSPPairs)
		}
		fmt.Fprintf(&b, " k-TSP%s voted with the disjoint gene pairs whose order differs most between the classes (score Delta, ties by the rank score, pairs of Delta 0 left out), %s.", c.cite("ktsp"), k)
	}
	if slices.Contains(cfg.Classifiers, "logit") {
		fmt.Fprintf(&b, " Logistic regression%s was %s, fitted by cyclic coordinate descent as glmnet fits it; its probabilities are its own (no Platt scaling).", c.cite("enetpath"), cfg.ClassifierSettings("logit"))
	}
	if slices.Contains(cfg.Classifiers, "rf") {
		fmt.Fprintf(&b, " The random forest%s was %s, each tree on a bootstrap sample of the training samples; a class's probability is its share of the trees' votes (no Platt scaling).", c.cite("rfperm"), cfg.ClassifierSettings("rf"))
	}
	for _, m := range cfg.Methods {
		if m.Name == "rfimpurity" {
			fmt.Fprintf(&b, " The forest's impurity importance favours genes of many distinct values%s; its permutation importance does not.", c.cite("strobl"))
			break
		}
	}
	if slices.Contains(cfg.Classifiers, "svm") {
		b.WriteString(" The linear SVM (C = 1, squared hinge loss, the bias regularised as in LIBLINEAR) was fitted exactly, by Newton's method in the primal (Keerthi and DeCoste 2005), on up to 128 features, and by dual coordinate descent (tolerance 1e-4, at most 1000 passes) on more.")
	}
	for _, m := range cfg.Methods {
		switch {
		case method.PaperMIDS(m):
			fmt.Fprintf(&b, " For %s the minimal independent dominating set was computed once on all samples, as in the MIDS paper, not inside each training set: the test samples shaped the filter, so its stability and accuracy are optimistic.", m.Name)
		case method.GroupsFromAll(m):
			b.WriteString(" For DRAGS the dense feature groups were found once on the expression values of all samples (not their classes), and only the groups' relevance was computed in each training set: the test samples shaped the groups, so its stability is optimistic.")
		}
		if method.PaperBandwidth(m) {
			fmt.Fprintf(&b, " For %s the bandwidth counted each feature as its own first neighbour, as the DRAGS paper computed it (h = mean over features of the summed distance to the K-1 nearest others, divided by K).", strings.ToUpper(m.Name))
		}
	}
	for _, m := range res.Methods {
		if svm := method.SVMSettings(m.Spec); svm != "" {
			fmt.Fprintf(&b, " %s used %s.", m.Label, svm)
			if m.Unconverged > 0 {
				iter, _ := method.Value(m.Spec, "maxIter")
				fmt.Fprintf(&b, " %d of its SVM fits stopped at the cap of %g passes before meeting the tolerance.", m.Unconverged, iter)
			}
		}
		if note := m.FewGroupsNote(); note != "" {
			b.WriteString(" " + strings.ToUpper(note[:1]) + note[1:] + ".")
		}
	}
	if slices.Contains(cfg.Classifiers, "wekasvm") || slices.Contains(cfg.Classifiers, "weka1nn") {
		b.WriteString(" The Weka-default classifiers scaled every feature to [0,1] by its range in the training samples; the SVM used the hinge loss with C = 1, as Weka's SMO.")
	}
	fmt.Fprintf(&b, " The random seed was %d.", cfg.Seed)
	return b.String(), c.refs()
}

// refs are the references cited, numbered in the order of citing.
func (c *citer) refs() []string {
	var refs []string
	for i, k := range c.keys {
		refs = append(refs, fmt.Sprintf("[%d] %s", i+1, references[k]))
	}
	return refs
}

// geoSource is "GEO GDS507, platform GPL97; " for data from GEO, else "".
func geoSource(d experiment.DataInfo) string {
	if d.Accession == "" {
		return ""
	}
	if d.Platform == "" {
		return "GEO " + d.Accession + "; "
	}
	return "GEO " + d.Accession + ", platform " + d.Platform + "; "
}

func joinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// kList formats the ks up to max: "1-50" for a run without gaps.
func kList(ks []int, max int) string {
	var in []int
	for _, k := range ks {
		if k <= max {
			in = append(in, k)
		}
	}
	if len(in) == 0 {
		return "none"
	}
	if len(in) > 2 && in[len(in)-1]-in[0] == len(in)-1 {
		return fmt.Sprintf("%d-%d", in[0], in[len(in)-1])
	}
	var s []string
	for _, k := range in {
		s = append(s, fmt.Sprint(k))
	}
	return strings.Join(s, ", ")
}

// SignatureParagraph describes how the signature sig of res was made and validated, as
// TRIPOD asks of a prediction model: the genes' source, the locked classifier and its
// preprocessing, the validation design (the study's resampling with the selection and
// the classifier refit in every training set), the measures with their intervals, and
// the permutation test when one was run.
func SignatureParagraph(res *experiment.Result, sig *study.Signature) string {
	c := sig.Choice
	m := res.Methods[c.Method].Label
	var b strings.Builder
	genes := fmt.Sprintf("the first %d features of %s's ranking on all %d samples", c.K, m, res.Data.Samples)
	if c.Frequent {
		genes = fmt.Sprintf("the %d features %s selected most often in its top %d over the resamples", c.K, m, c.K)
	}
	fmt.Fprintf(&b, "The signature is %s. A %s was trained on all samples on these genes", genes, experiment.ClassifierLabel(c.Classifier))
	if res.Config.ZScore {
		b.WriteString(", each gene z-scored with the mean and standard deviation of all samples")
	}
	if strings.HasPrefix(c.Classifier, "weka") {
		b.WriteString(" and scaled to [0,1] by its range")
	}
	fmt.Fprintf(&b, ", and locked in model.json (%s). ", sig.Model.DigestText())
	b.WriteString(lockedModelWords(sig.Model))
	pos := "one-vs-rest for each class"
	if sig.Positive >= 0 {
		pos = sig.Classes[sig.Positive] + " as the positive class, " + sig.PositiveWhy
	}
	fmt.Fprintf(&b, "How well the procedure predicts was estimated by the study's own resampling (%s), the gene selection and the classifier refit inside every training set and applied to its held-out samples: each repetition's held-out decision values were pooled into a ROC curve (%s). %s (The AUC's interval: DeLong, DeLong and Clarke-Pearson, Biometrics 44:837-845, 1988, for the variance of the pooled held-out AUC, widened by 1 + sqrt(n_train/n_test) for the variation of what the folds learn, a factor measured by simulation; Newcombe, Statistics in Medicine 25:559-573, 2006, and Agresti and Coull, The American Statistician 52:119-126, 1998, for its floor near 0 and 1. The classifier's rule's intervals: Nadeau and Bengio, Machine Learning 52:239-281, 2003, the repetitions as the units; Wilson, JASA 22:209-212, 1927.)",
		experiment.ProtocolText(res.Config), pos, sig.Performance())
	if sig.Perm != nil {
		what := "the whole procedure"
		if sig.Perm.Choice {
			what = "the whole procedure, every method and the advice's choice of method and k included,"
		}
		fmt.Fprintf(&b, " In a permutation test the class labels were permuted %s and %s repeated each time: %s.", text.Count(len(sig.Perm.AUCs), "time"), what, sig.Perm.Says())
	}
	tests := "Welch's t-test, or one-way ANOVA for more classes, with Benjamini-Hochberg's FDR over all genes"
	if sig.Scale.Moderated {
		tests = "limma-voom's moderated t-test (voom, lmFit and eBayes; Law et al. 2014), with Benjamini-Hochberg's FDR over the genes edgeR's filter kept"
		if sig.Positive < 0 {
			tests = "limma-voom's moderated F-test of the classes (voom, lmFit and eBayes, design ~ class; Law et al. 2014), with Benjamini-Hochberg's FDR over the genes edgeR's filter kept"
		}
	}
	fmt.Fprintf(&b, " The genes' fold changes (%s), Hedges' g and p-values (%s) were computed on all samples after the selection: they describe the genes and do not test the signature.", sig.Scale.Why, tests)
	return b.String()
}

// lockedModelWords describes a locked logistic regression's penalty or a forest's
// out-of-bag error, and that their probabilities are their own; "" for other models.
func lockedModelWords(m *signature.Model) string {
	switch {
	case m.Logit != nil:
		return fmt.Sprintf("Its penalty was alpha = %g and lambda = %.4g (%s); its probabilities are its own (no Platt scaling), and exp(coefficient) is a gene's odds ratio per standard deviation (given without confidence intervals: penalised coefficients have no valid standard errors). ", m.Logit.Alpha, m.Logit.Lambda, m.Logit.Chosen)
	case m.Forest != nil:
		oob := ""
		if m.Forest.OOBError != nil {
			oob = fmt.Sprintf("; its out-of-bag error on the training samples was %.3f", *m.Forest.OOBError)
		}
		return fmt.Sprintf("The forest has %d trees%s; a class's probability is its share of the votes (no Platt scaling). ", len(m.Forest.Trees), oob)
	}
	return ""
}

// ValidationParagraph describes the locked model's validation on an independent cohort:
// the cohort and both files' digests, how genes were matched and the values scaled,
// what was left out, and the measures with the AUC's DeLong interval.
func ValidationParagraph(v *signature.Validation) string {
	m := v.Model
	var b strings.Builder
	fmt.Fprintf(&b, "The locked model (%s) was applied unchanged to %s, %s (file SHA-256 %s). ", m.DigestText(), v.CohortKind(), v.Cohort, v.SHA256)
	byID, bySym, byAlias := 0, 0, 0
	for _, mt := range v.Matches {
		switch mt.By {
		case "id":
			byID++
		case "symbol":
			bySym++
		case "alias":
			byAlias++
		}
	}
	fmt.Fprintf(&b, "Of its %d genes, %d were found by feature id and %d by gene symbol", len(m.Genes), byID, bySym)
	if byAlias > 0 {
		fmt.Fprintf(&b, " and %d by their current symbol through an alias table (%s)", byAlias, genes.Human().Source)
	}
	if miss := len(m.Genes) - byID - bySym - byAlias; miss > 0 {
		what := "their terms taken at the training mean"
		if m.W == nil {
			what = "distances measured on the genes present"
		}
		fmt.Fprintf(&b, "; %d were missing (%s)", miss, what)
	}
	b.WriteString(". ")
	if h := v.Options.Harmonize; h != "" && h != "none" {
		b.WriteString("Harmonisation before the model was applied: " + signature.HarmonizationText(h) + "; the cohort's own level of each gene was therefore not used. ")
	} else {
		b.WriteString("The cohort's values were preprocessed and scaled as the training data were, with the training means and standard deviations. ")
	}
	fmt.Fprintf(&b, "%s predicted", text.Count(len(v.Samples), "sample was|samples were"))
	if len(v.Skipped) > 0 {
		fmt.Fprintf(&b, " (%d left out for missing values)", len(v.Skipped))
	}
	mt := v.Metrics
	if mt == nil {
		b.WriteString("; the cohort gives no class the model knows, so only predictions are reported.")
		return b.String()
	}
	fmt.Fprintf(&b, "; on the %d of a class the model knows: %s", mt.N, v.Measures())
	b.WriteString(".")
	return b.String()
}

// addedValueMethods says how a survival signature's added value over clinical
// covariates was assessed: the covariates and their coding, the complete cases, the
// two Cox models, the likelihood-ratio test and the change in C with its interval.
func addedValueMethods(c *citer, av *study.AddedValue) string {
	var cat []string
	for _, t := range av.Terms {
		if t.Model == study.CovariatesModel && t.Level != "" && !slices.Contains(cat, t.Covariate) {
			cat = append(cat, t.Covariate)
		}
	}
	coding := ""
	if len(cat) > 0 {
		coding = fmt.Sprintf(" (%s coded by indicators of each level against the first)", joinAnd(cat))
	}
	missing := ""
	if av.N < av.Samples {
		missing = fmt.Sprintf(", %d with a missing covariate left out", av.Samples-av.N)
	}
	return fmt.Sprintf(" The added value of the signature over the clinical covariates %s%s was assessed on the %s with every covariate (%s%s): unpenalised Cox models (Efron's ties) of the covariates alone and of the covariates with the cross-validated risk score (each patient's held-out score of the first repetition, in its training set's SDs, so that no patient is scored by a model fitted to it) were compared by the likelihood-ratio test on 1 df and by the change in Harrell's C of their linear predictors, with its 95%% confidence interval from the paired infinitesimal jackknife%s.",
		joinAnd(av.Covariates), coding, text.Count(av.N, "patient"), text.Count(av.Events, "event"), missing, c.cite("concordance"))
}

func (c *citer) cite(key string) string {
	if _, ok := references[key]; !ok {
		return ""
	}
	for i, k := range c.keys {
		if k == key {
			return fmt.Sprintf(" [%d]", i+1)
		}
	}
	c.keys = append(c.keys, key)
	return fmt.Sprintf(" [%d]", len(c.keys))
}

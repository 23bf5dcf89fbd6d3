package app

import (
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// glossary says each term of the forms and results in one sentence, in a biologist's
// words; a "?" beside a term shows its sentence, and the guide lists them all.
var glossary = map[string]string{
	"Sim_ID":                        "How much two gene lists of the same length overlap (Dice: twice the shared genes over both lists' lengths): 1 when the resamples pick the same genes, near k/p when they pick at random.",
	"S_S":                           "Kalousis's stability: the shared genes over all genes in either list (Tanimoto); like Sim_ID but stricter, 1 for identical lists.",
	"Sim_ID^M":                      "Sim_ID for groups of correlated genes: each group of one list is matched to at most one of the other, so two lists that pick different probes of the same blob still count as agreeing.",
	"Sim_V^M":                       "How close the matched groups' centres are (the mean |correlation| of matched centres): high when two lists pick the same biology even through different genes.",
	"Phi":                           "Nogueira's Phi: how consistently each gene is selected over all resamples, corrected for chance (0 for random lists, 1 for the same list every time), with a 95% confidence interval.",
	"top group":                     "The methods whose test error McNemar's test cannot tell from the best method's (p >= 0.05): they predict equally well, so among them choose the most stable.",
	"stability mode":                "reference compares each resample's list with the list chosen on all samples; pairwise compares every pair of resamples' lists with each other.",
	"k grid":                        "The lengths of gene list compared: stability and accuracy are measured for the top k genes at each k.",
	"selection frequency":           "In how many resamples a gene was in the top k: a gene chosen in 95 of 100 resamples is a robust choice; one chosen in 5 is luck of the draw.",
	"Na":                            "The largest random subset of genes the wrapper scores at once, as a percentage of all genes: 0.4 means 0.4% (20 of 5000 genes), not 40%.",
	"epsilon":                       "The correlation above which MIDS links two genes as redundant: at 0.6, genes with |r| > 0.6 are represented by one of them.",
	"folds":                         "Stratified k-fold CV splits the samples into k parts, each with samples of every class: every class needs at least k samples.",
	"independent cohort":            "Samples the signature never saw, best from another study: the locked model is applied unchanged, so its accuracy and AUC there say how it will predict new patients. Cross-validation on the training samples is usually more optimistic.",
	"ROC curve":                     "How well the scores separate the two classes at every threshold: the share of positives found (sensitivity) against the share of negatives wrongly called positive (1 - specificity). The diagonal is guessing.",
	"AUC":                           "The area under the ROC curve: the chance that a random positive sample scores above a random negative one. 0.5 is guessing, 1 perfect separation.",
	"95% CI":                        "The range meant to cover the true AUC of the signature fitted on all samples (its AUC on new samples of the same population) in 95% of studies like this one: DeLong's variance of the pooled held-out scores, widened for how much what the folds learn varies between data sets. Shown by simulation to cover 93-100% on fourteen designs, six of them not used to choose it; the older DeLong interval of one repetition covered only 66-82%.",
	"range":                         "The lowest and highest of the repetitions' AUCs: how much the estimate moves when the samples are split differently. Not a confidence interval.",
	"S_W":                           "Kalousis's weight stability: how alike two resamples' whole score vectors are (the Pearson correlation of every gene's weight), averaged over the pairs; given only for methods whose scores are weights, not ranks.",
	"S_R":                           "Kalousis's rank stability: how alike two resamples' whole rankings are (the Spearman correlation of every gene's rank), averaged over the pairs; 1 when every resample ranks all genes alike.",
	"headline AUC":                  "The one AUC every output leads with: the nested estimate when the study chose the method and k (the advice, or the value preselected from it, whatever the classifier), the plain cross-validated estimate when you chose them (honest only if fixed before this study; Nested estimate... gives the other). Every other AUC shown is labelled: optimistic, pooled, or a range.",
	"pooled AUC":                    "One repetition's held-out scores of every sample put together into one ROC curve; the outputs give their mean and range over the repetitions. Not the headline: the headline averages the resamples' own AUCs and has an interval.",
	"nested AUC":                    "The AUC of the whole procedure, the advice's choice of method and k included: each training set makes the choice again from its own samples, and is judged on samples the choice never saw. The headline when the advice chose.",
	"optimistic AUC":                "The AUC of the advice's choice judged on the same resamples that chose it: it flatters the signature (on pure noise it averages above 0.5). Shown beside the nested AUC, never as the headline.",
	"score agreement":               "How alike two resamples' whole score vectors are: the Pearson correlation of every gene's weight, averaged over the pairs (Kalousis's S_W); given only for methods whose scores are weights, not ranks. 1 when every resample weighs all genes alike.",
	"rank agreement":                "How alike two resamples' whole rankings are: the Spearman correlation of every gene's rank, averaged over the pairs (Kalousis's S_R); 1 when every resample ranks all genes alike.",
	"averaged over k":               "In the accuracy (or Harrell's C) legend, the curve's average height over the k range: the area under the measure-vs-k curve divided by the width of the range. One number for how well the method predicts across all list lengths; not a ROC AUC.",
	"scaled 0-1":                    "The classifiers \"SVM, scaled 0-1\" and \"1-NN, scaled 0-1\" are Weka's defaults as the DRAGS paper used them (SMO and IBk): every gene scaled to [0,1] by its range in the training samples, and for the SVM the hinge loss with C = 1. Choose them to reproduce that paper; the linear SVM and 1-NN z-score the genes instead.",
	"workers":                       "How many rankings run at once (goroutines, one per processor core by default). More use more memory; the results are the same for any number.",
	"accuracy curve's area":         "On the Accuracy tab, the area under a method's accuracy-vs-k curve, scaled to the k range: one number for how well the method predicts across all list lengths. Not a ROC AUC.",
	"sensitivity":                   "The share of the positive class's samples the classifier calls positive, at its own decision rule; its 95% CI is from the resamples' spread (Nadeau and Bengio's corrected variance).",
	"specificity":                   "The share of the other class's samples the classifier calls negative, at its own decision rule.",
	"PPV":                           "Positive predictive value: of the samples the classifier calls positive, the share that are. It depends on how common the positive class is: the figure holds at the study's share of positives, not in a population where the disease is rarer.",
	"NPV":                           "Negative predictive value: of the samples the classifier calls negative, the share that are. Like PPV it holds at the study's share of positives only.",
	"operating point":               "Where on the ROC curve a rule sits: its sensitivity and specificity. The dot is the classifier's own rule (what the locked model does); the triangle is Youden's threshold, the one that maximises sensitivity + specificity - 1 on these same scores, so it flatters itself and needs confirming on new samples.",
	"probability":                   "The chance a sample is of the positive class. Logistic regression and random forests give their own (the fitted probability; the share of trees voting for the class); for the other classifiers it comes from the score by Platt scaling (a logistic curve fitted to the cross-validated scores), each sample's from a curve fitted without it, and the locked model keeps the curve for new samples.",
	"logistic regression":           "A model of the log odds of the class as a weighted sum of the genes (z-scored), with a penalty that shrinks the weights so that more genes than samples can be used: ridge (alpha 0) keeps every gene, lasso (alpha 1) sets some to 0. Its probabilities are its own; the penalty's strength lambda is chosen by cross-validation within the training samples, as R's glmnet does.",
	"lambda":                        "The strength of logistic regression's penalty: large lambda shrinks every weight toward 0 (a cautious model), small lambda fits the training samples closely. By default it is the lambda of least held-out deviance in a 10-fold cross-validation of the training samples (glmnet's lambda.min).",
	"odds ratio":                    "exp(coefficient) of a gene in logistic regression: how many times the odds of the positive class multiply when the gene rises by one standard deviation, the other genes fixed. A penalised model gives no confidence interval for it: its coefficients are shrunk toward 1 on purpose and have no valid standard error.",
	"random forest":                 "Many decision trees (500 by default), each grown on a bootstrap sample of the training samples and choosing every split among a few genes drawn at random (the square root of their number); the class most trees vote for wins, and each class's share of the votes is its probability.",
	"out-of-bag error":              "A random forest's error on the samples each tree did not see (about a third of them per tree): an honest estimate of its error that needs no separate test set.",
	"permutation importance":        "How much a random forest's accuracy on the samples a tree did not see drops when one gene's values are shuffled among them (Breiman 2001): 0 for a gene the forest does not use.",
	"impurity importance":           "How much a random forest's splits on a gene purify its nodes (the Gini decrease), summed over the trees. It favours genes with many distinct values even when they carry no signal (Strobl et al. 2007): prefer the permutation importance.",
	"elastic-net path":              "The order in which genes enter a penalised logistic regression as its penalty is relaxed from the value that keeps every gene out (Friedman et al. 2010): the earlier a gene enters, the more it tells about the classes on its own terms.",
	"survival outcome":              "An outcome that is a time: for each patient the time from diagnosis (or treatment) to the event (relapse, death) or, when the event was not seen, to the last follow-up (censored: event 0). Steadfast finds columns named time and event (or OS.time and OS, DFS_months and DFS_event) or takes those named on the Data tab; the study then ranks genes with the Cox score test and measures Harrell's C of a Cox model.",
	"censored":                      "A patient whose event was not seen: alive or event-free at the last follow-up (event 0). The time is then a lower bound; survival methods use it as such rather than dropping the patient.",
	"Cox score test":                "How strongly one gene's value goes with the hazard of the event: the score test of a Cox model of that gene alone, at a hazard ratio of 1 (chi-square U^2/I, Efron's ties, as R's coxph). It ranks genes in either direction: higher values with earlier or with later events.",
	"Cox model":                     "Cox's proportional-hazards model: the hazard of the event is a baseline hazard times exp(b1 x1 + ... + bk xk) of the k genes (z-scored on the training samples). Its linear predictor is the risk score. Steadfast fits it with Efron's ties and a small ridge penalty (lambda/2 sum b^2, lambda 1 by default) so that it fits when the genes near the number of events.",
	"Harrell's C":                   "The concordance of a risk score with survival: of the pairs of patients whose order of events is known, the share in which the one with the higher risk score had the event first (ties in the score count a half). 0.5 is chance, 1 a perfect order. Measured on the held-out samples of every resample.",
	"hazard ratio":                  "How many times the hazard of the event multiplies when a value rises by one standard deviation (the risk score's, or a gene's with the others held), from a Cox model: above 1 the higher value goes with earlier events. Its interval is Wald's.",
	"risk group":                    "Patients cut by their risk score: at the median of the training samples' scores (low and high risk) or at their tertiles. Cross-validated groups cut each patient by the scores of the training samples that did not include them, so the Kaplan-Meier curves of the groups are honest; the groups of the locked model on its own samples are optimistic.",
	"time-dependent AUC":            "How well the risk score separates the patients who had the event by a time (the horizon) from those still event-free then: cumulative cases against dynamic controls, censored patients weighted by the inverse of the chance of staying in follow-up (riskRegression's Score, timeROC).",
	"added value":                   "What a signature adds to the clinical covariates a reviewer would ask about (age, grade, stage, nodes...): a Cox model of the covariates alone and one with the cross-validated risk score too, on the patients with every covariate. The likelihood-ratio test says whether the score improves the fit; the change in Harrell's C (with its paired interval) how much better the two models order the patients; the forest plot shows each covariate's hazard ratio alone and with the score, and the score's given the covariates.",
	"horizon":                       "A time at which a survival signature is judged: its time-dependent AUC and its calibration (predicted against Kaplan-Meier survival by risk group). By default the median follow-up (reverse Kaplan-Meier); name others in the data's unit (e.g. 2, 5 for years).",
	"Brier score":                   "The mean squared difference between the probabilities and what happened (1 positive, 0 not): 0 is perfect, 0.25 is always saying 50%.",
	"calibration":                   "Whether a probability of 0.8 means 8 in 10 are positive. The plot bins the samples by probability against the share positive; the intercept (0 ideal) says whether probabilities are too high or low overall, the slope (1 ideal) whether they are too extreme (below 1) or too timid (above 1).",
	"balanced accuracy":             "The mean over the classes of the share of each class's samples predicted right: fair when the classes differ in size.",
	"positive class":                "The class the AUC, sensitivity and fold changes are about. A class named like a control (normal, healthy, benign, wild type, untreated) is the reference, the other positive; else the alphabetically first is the reference.",
	"fold change":                   "How much higher the positive class's values are than the reference's, in log2 units: 1 is twice as high, -1 half. On logged data the difference of the mean log2 values; on raw intensities log2 of the ratio of the means, values below 20 raised to 20.",
	"Hedges' g":                     "The difference of the two classes' means in units of their pooled standard deviation, corrected for small samples: 0.2 small, 0.8 large, whatever the scale of the values.",
	"missing values":                "Intensities (proteomics, metabolomics) miss values where a protein was below detection, not at random. Each training set first keeps the proteins measured in enough of one class's samples (Valid values), then fills the rest: auto (the default) takes minprob for mass-spectrometry intensities (a MaxQuant table), whose missing values lie below detection, and knn for any other values (an array's missing cells are not below detection); the Data tab's notes say which; minprob draws each from a normal 1.8 SD below the sample's mean and 0.3 SD wide (Perseus); knn averages the sample's values of the protein's 10 nearest proteins (impute.knn); halfmin takes half the protein's least training value; none fills nothing (only complete proteins are then analysed). A test sample or a cohort is filled from what the training samples fitted alone.",
	"normalisation":                 "Makes the samples comparable before imputation, fitted on each training set: median centring moves each sample's median to the training samples' mean median (log scale); quantile gives every sample the training samples' mean distribution (preprocessCore); sample sum scales each sample to the training samples' mean total (unlogged values, metabolomics).",
	"valid values":                  "The valid-value filter (Perseus, DEP): a protein is kept when it is measured in at least this share of the samples of at least one class (0.7: 5 of 7). The others are ranked last in every training set they fail, and named in the left-out list.",
	"design table":                  "A table giving each sample's condition: one column naming the samples as the data do (MaxQuant's intensity columns, e.g. A-1), one named condition (or class, group). Without it the class is read from sample names ending in a replicate number (A-1 is of class A). Press Re-read file after choosing it.",
	"RNA-seq counts":                "Read counts are normalised as edgeR does, inside every training set: genes with too few reads are set aside (filterByExpr, ranked last), each library is scaled by its TMM factor against the training samples' reference, and the values are log2 counts per million; a test sample or a new patient is normalised against that same reference alone. The signature's p-values are then limma-voom's.",
	"limma-voom p":                  "For read counts: limma's moderated t-test on voom's precision-weighted log-CPM, on all samples after the selection (Law et al. 2014): it describes the gene, it does not test the signature.",
	"limma-voom F p":                "For read counts of three classes or more: limma's moderated F-test of the classes (design ~ class, topTable over its coefficients) on voom's precision-weighted log-CPM, on all samples after the selection (Law et al. 2014): it describes the gene, it does not test the signature.",
	"Welch p":                       "Welch's t-test of the gene between the two classes (ANOVA's F test with more classes), on all samples after the selection: it describes the gene, it does not test the signature.",
	"FDR":                           "The Benjamini-Hochberg false discovery rate of the gene's p over all genes measured: among genes at or below this value, about this share are expected to be false.",
	"permutation test":              "The class labels shuffled many times and the whole procedure redone each time: p is the share of shuffled studies that reach the observed AUC (counting the observed one). With N permutations p cannot fall below 1/(N+1). For a survival signature the patients' (time, event) pairs are shuffled together and the statistic is the cross-validated Harrell's C.",
	"nested estimate":               "When the method and k are the advice's, they were chosen on the same resamples that estimate them, which flatters the estimate. The nested estimate makes the choice again inside each training set, from those samples alone, and judges it on the held-out samples.",
	"k most frequent":               "The k genes most often in the resamples' top k, instead of the method's first k on all samples: a consensus of the resamples.",
	"samples grouped by":            "An annotation whose equal values mark samples that are not independent, such as one patient's tumour and normal tissue or repeated arrays of one mouse. Resampling then keeps each group wholly in the training or wholly in the test samples of every split, so the estimate is not flattered by testing on a patient the model was trained on. Press Re-read file after choosing it.",
	"enrichment":                    "Whether the signature's genes fall in a gene set (a GO term, a pathway) more often than chance: the one-sided hypergeometric test against the genes this platform measured that have any annotation in the collection (not the whole genome), with Benjamini-Hochberg q over the sets. Stability is the share of resamples whose own top k genes make the term significant: a term found in one resample's genes only is luck.",
	"camera":                        "A second test of each gene set, over all genes measured rather than the signature's: whether the set's genes as a whole move with the class more than the other genes do (limma's camera, Wu and Smyth 2012), allowing for the genes of a set moving together. Up means higher in the positive class. It needs no cut-off and sees sets whose genes each change a little.",
	"harmonisation":                 "Putting a cohort from another platform or batch on the training data's scale before the locked model is applied. none: the model's own scaling. standardize: each gene centred and scaled over the cohort's samples. combat: ComBat (empirical Bayes, as sva's) with the training data as the fixed reference; the mean-only forms leave each gene's spread as it is. All use the cohort's own gene levels, never its classes, and assume its classes are mixed much as the training data's: with an unbalanced cohort they remove part of the biology.",
	"standardise within the cohort": "For a cohort on another platform or batch, whose values sit at other levels: each gene is centred and scaled over the cohort's own samples, then put on the training scale. It keeps each sample's position among the cohort's samples but not the cohort's own level of a gene, so it assumes the cohort's classes are mixed much as the training data's were.",
}

// explain is a small "?" button that shows term's sentence of the glossary.
func (u *UI) explain(term string) *widget.Button {
	if _, ok := glossary[term]; !ok {
		panic("app: no glossary entry for " + term) // caught by every test that builds the window
	}
	b := widget.NewButtonWithIcon("", theme.QuestionIcon(), func() {
		u.showInfo(term, glossary[term])
	})
	b.Importance = widget.LowImportance
	return b
}

// measureTerms are the glossary's terms of the first stability measures, in the order
// of plots.Measures.
var measureTerms = []string{"Sim_ID", "S_S", "Sim_ID^M", "Sim_V^M", "Phi"}

// explainMeasure is a "?" that says the measure chosen in sel, or that a measure from
// the literature is described in the report's methods.
func (u *UI) explainMeasure(sel *widget.Select) *widget.Button {
	b := widget.NewButtonWithIcon("", theme.QuestionIcon(), func() {
		if i := sel.SelectedIndex(); i >= 0 && i < len(measureTerms) {
			u.showInfo(measureTerms[i], glossary[measureTerms[i]])
			return
		}
		u.showInfo(sel.Selected, sel.Selected+" is one of the stability measures from the literature (Nogueira et al. 2018's catalogue): 1 means the same genes in every resample; a chance-corrected one is 0 for random lists. The report's methods name its reference.")
	})
	b.Importance = widget.LowImportance
	return b
}

// tabGuide says what each tab shows and how to read it.
var tabGuide = []struct{ tab, text string }{
	{"Data", "What was read: samples, features, classes, missing values, and what the values call for (log2 for raw intensities). Reading options (class, sheet, gene symbols) belong to the file open; Re-read file applies them. GEO accession... downloads a GEO series or DataSet with its platform's gene symbols."},
	{"Methods", "The ways of ranking genes to compare: single-gene scores (F-statistic, information gain, ReliefF), linear SVM methods (SVM-ONE, SVM-RFE and its MIDS and ensemble variants) and group methods (DRAGS, CGS, K-means) that choose groups of correlated genes."},
	{"Protocol", "How the samples are resampled: 10 x 10-fold CV, DRAGS 2008's 3-fold splits, or Kalousis's nested CV. A warning appears here when a class is too small for the folds, with the fix."},
	{"Stability", "For each k, how alike the resamples' top-k lists are (see the measure's ?). Higher is more stable; the dashed line is what random lists would give."},
	{"Accuracy", "For each k, how well a classifier trained on the top k genes predicts the held-out samples, with its spread over the resamples."},
	{"Selection grid", "One row per resample, one column per gene ever in its top k: a solid column is a gene every resample chose."},
	{"Top features", "The genes most often in the top k, with their mean rank and their score on all samples: the candidates for validation."},
	{"Errors", "Each method's test error and S_S stability side by side; the top group is the methods that predict equally well (see its ?): prefer the most stable of them."},
	{"Signature", "The biomarker signature: a method's genes at k (the Errors tab's advice preselected) with a classifier locked on all samples (Save model...), each gene's direction, fold change and descriptive p-value, and how well the whole procedure predicts, from the study's own resamples: the cross-validated ROC curves with their AUC and its 95% interval (the nested estimate as the headline when the study chose the method and k: its advice, whatever the classifier; results of another choice than the one shown are marked stale), a heatmap of the genes across the samples, and a permutation test. Validate... applies the locked model to a second data set (a file or a GEO accession) and shows its predictions, accuracy and ROC curve beside the cross-validated one."},
	{"Groups", "For group methods, the groups chosen on all samples: their members, how they correlate (heat map) and their values by class."},
	{"Tools", "K chooser: the bandwidth for DRAGS; Wrapper: the bootstrap wrapper's subset sizes; MIDS: how many genes stand for all others at each correlation threshold; Sample size: how stability grows with more samples on synthetic data."},
}

// guideEntry is one entry of the guide: a tab or a term, and what it says.
type guideEntry struct{ name, text string }

// guideEntries are the guide's entries: the tabs in order, then every term of the
// glossary alphabetically.
func guideEntries() []guideEntry {
	var out []guideEntry
	for _, t := range tabGuide {
		out = append(out, guideEntry{t.tab + " tab", t.text})
	}
	terms := make([]string, 0, len(glossary))
	for t := range glossary {
		terms = append(terms, t)
	}
	sort.Slice(terms, func(i, j int) bool { return strings.ToLower(terms[i]) < strings.ToLower(terms[j]) })
	for _, t := range terms {
		out = append(out, guideEntry{t, glossary[t]})
	}
	return out
}

// glossaryBlocks are the entries that mention query (all for ""), as guideText says
// them, a paragraph each with the name in bold, for the guide window.
func glossaryBlocks(query string) []docBlock {
	var out []docBlock
	for _, para := range strings.Split(guideText(query), "\n\n") {
		name, text, ok := strings.Cut(para, ": ")
		if !ok || strings.Contains(name, ".") {
			out = append(out, docBlock{kind: blockPara, runs: []run{{text: para}}})
			continue
		}
		out = append(out, docBlock{kind: blockPara, runs: []run{{text: name + ":", style: fyne.TextStyle{Bold: true}}, {text: " " + text}}})
	}
	return out
}

// guideText is the guide's entries that mention query (in their name or text, case
// aside; all of them for ""), an entry a paragraph.
func guideText(query string) string {
	q := strings.ToLower(strings.TrimSpace(query))
	var b strings.Builder
	if q == "" {
		b.WriteString("Steadfast ranks genes with several methods under resampling and shows how stable each method's choice is, and how well it predicts.\n\n")
	}
	n := 0
	for _, e := range guideEntries() {
		if q != "" && !strings.Contains(strings.ToLower(e.name+" "+e.text), q) {
			continue
		}
		b.WriteString(e.name + ": " + e.text + "\n\n")
		n++
	}
	if n == 0 {
		b.WriteString("Nothing in the guide mentions \"" + query + "\".")
	}
	return strings.TrimSpace(b.String())
}

// showInfo shows title's explanation msg in a dialog that Enter and Escape close.
func (u *UI) showInfo(title, msg string) {
	d := dialog.NewInformation(title, msg, u.win)
	u.closeOnKeys(d)
	d.Show()
}

// closeOnKeys makes Enter and Escape close d while it shows: nothing behind it keeps
// the keyboard's focus meanwhile, and the window's own key handling returns after.
func (u *UI) closeOnKeys(d dialog.Dialog) {
	c := u.win.Canvas()
	prev := c.OnTypedKey()
	c.Unfocus()
	c.SetOnTypedKey(func(e *fyne.KeyEvent) {
		switch e.Name {
		case fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter:
			d.Hide()
			return
		}
		if prev != nil {
			prev(e)
		}
	})
	d.SetOnClosed(func() { c.SetOnTypedKey(prev) })
}

// signatureTerms are the glossary's terms of the Signature tab, in reading order.
var signatureTerms = []string{"positive class", "ROC curve", "AUC", "headline AUC", "95% CI", "range", "nested estimate", "nested AUC", "optimistic AUC", "pooled AUC", "sensitivity", "specificity", "PPV", "NPV", "operating point", "balanced accuracy",
	"probability", "Brier score", "calibration", "enrichment",
	"fold change", "Hedges' g", "Welch p", "limma-voom p", "limma-voom F p", "FDR", "selection frequency", "k most frequent", "permutation test"}

// explainTerms is a "?" that shows terms with their sentences in one scrolling dialog.
func (u *UI) explainTerms(title string, terms []string) *widget.Button {
	var b strings.Builder
	for _, t := range terms {
		s, ok := glossary[t]
		if !ok {
			panic("app: no glossary entry for " + t)
		}
		b.WriteString(t + ": " + s + "\n\n")
	}
	text := strings.TrimSpace(b.String())
	btn := widget.NewButtonWithIcon("", theme.QuestionIcon(), func() {
		l := widget.NewLabel(text)
		l.Wrapping = fyne.TextWrapWord
		d := dialog.NewCustom(title, "Close", container.NewVScroll(l), u.win)
		d.Resize(fyne.NewSize(720, 520))
		u.closeOnKeys(d)
		d.Show()
	})
	btn.Importance = widget.LowImportance
	return btn
}

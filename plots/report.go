package plots

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

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
	"kalousis":    "Kalousis A, Prados J, Hilario M. Stability of feature selection algorithms: a study on high-dimensional spaces. Knowl. Inf. Syst. 12:95-116, 2007.",
	"nogueira":    "Nogueira S, Sechidis K, Brown G. On the stability of feature selection algorithms. J. Mach. Learn. Res. 18(174):1-54, 2018.",
	"mcnemar":     "Dietterich TG. Approximate statistical tests for comparing supervised classification learning algorithms. Neural Computation 10:1895-1923, 1998.",
	"ktsp":        "Tan AC, Naiman DQ, Xu L, Winslow RL, Geman D. Simple decision rules for classifying human cancers from gene expression profiles. Bioinformatics 21:3896-3904, 2005.",
	"perseus":     "Tyanova S, Temu T, Sinitcyn P, et al. The Perseus computational platform for comprehensive analysis of (prote)omics data. Nature Methods 13:731-740, 2016.",
	"dep":         "Zhang X, Smits AH, van Tilburg GB, Ovaa H, Huber W, Vermeulen M. Proteome-wide identification of ubiquitin interactions using UbIA-MS. Nature Protocols 13:530-550, 2018 (the DEP package).",
	"knn":         "Troyanskaya O, Cantor M, Sherlock G, et al. Missing value estimation methods for DNA microarrays. Bioinformatics 17:520-525, 2001.",
	"quantile":    "Bolstad BM, Irizarry RA, Åstrand M, Speed TP. A comparison of normalization methods for high density oligonucleotide array data based on variance and bias. Bioinformatics 19:185-193, 2003.",
}

// citer numbers references in the order the paragraph first cites them.
type citer struct {
	keys []string
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

// MethodsParagraph describes the study of res in words a manuscript can take, with the
// numbered references it cites.
func MethodsParagraph(res *experiment.Result) (string, []string) {
	cfg := res.Config
	var c citer
	var names []string
	for _, s := range cfg.Methods {
		label := s.Name
		if in, ok := method.Lookup(s.Name); ok {
			label = in.Label
		}
		base, mids := strings.CutSuffix(s.Name, "+mids")
		if base == "svmone" {
			base = "svmrfe" // the weights of one SVM, as Guyon et al. rank them before elimination
		}
		ref := c.cite(base)
		if mids {
			ref += c.cite("mids")
		}
		names = append(names, label+ref)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Features of %s (%s%d samples, %d features", res.Data.Name, geoSource(res.Data), res.Data.Samples, len(res.Data.Features))
	for i, cl := range res.Data.Classes {
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
	fmt.Fprintf(&b, " Stability was assessed over %s of stratified %d-fold resampling", text.Count(cfg.Repeats, "repetition"), cfg.Folds)
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
	var refs []string
	for i, k := range c.keys {
		refs = append(refs, fmt.Sprintf("[%d] %s", i+1, references[k]))
	}
	return b.String(), refs
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

// svgOf renders f as an SVG document at o's size.
func svgOf(f Figure, o ExportOptions) (template.HTML, error) {
	p, err := f.Build()
	if err != nil {
		return "", err
	}
	cv := vgsvg.NewWith(vgsvg.UseWH(o.Width, o.Height)) // the browser's sans-serif: fonts embedded in every figure would make megabytes
	drawFigure(p, draw.New(cv))
	var buf bytes.Buffer
	if _, err := cv.WriteTo(&buf); err != nil {
		return "", err
	}
	s := buf.String()
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:] // inline: no XML prologue
	}
	return template.HTML(s), nil
}

type reportFigure struct {
	Title string
	SVG   template.HTML
}

type reportTable struct {
	Title  string
	Header []string
	Rows   [][]string
	More   int
	CSV    string // the file holding every row, beside the report
}

// MoreRows says how many rows the report leaves out: "1 more row", "5 more rows".
func (t reportTable) MoreRows() string { return text.Count(t.More, "more row") }

// Report writes a self-contained HTML report of res: the data, the configuration, every
// figure (inline SVG) and table, the software version and seed, and a methods paragraph
// with its references.
func Report(w io.Writer, res *experiment.Result, o ExportOptions) error {
	return ReportWith(context.Background(), w, res, nil, o)
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

// ReportWith is Report with a Signature section for sig (none when nil): its methods
// paragraph, its measures, its ROC and heatmap figures and its genes. It stops with
// ctx's error when ctx is cancelled.
func ReportWith(ctx context.Context, w io.Writer, res *experiment.Result, sig *study.Signature, o ExportOptions) error {
	svgOf := func(f Figure, o ExportOptions) (template.HTML, error) {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		return svgOf(f, o)
	}
	var figs []reportFigure
	for _, f := range All(res) {
		svg, err := svgOf(f, o)
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
		figs = append(figs, reportFigure{PlainText(f.Title), svg})
	}
	var tables []reportTable
	for _, f := range ReportTables(res) {
		max := 30
		if strings.HasPrefix(f.Name, "error-table") {
			max = 100
		}
		tables = append(tables, tableOf(f, max))
	}
	var sigFigs []reportFigure
	var sigTable, confTable, opTable, fullTable, tripodTable reportTable
	howTo := ""
	sigPara := ""
	if sig != nil {
		for _, f := range reportSignatureFigures(res, sig) {
			svg, err := svgOf(f, o)
			if err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
			sigFigs = append(sigFigs, reportFigure{PlainText(f.Title), svg})
		}
		sigTable = tableOf(Figure{Name: "signature", Title: "Signature genes", Table: geneDisplay(sig)}, reportGenes)
		confTable = tableOf(confusionFigure(sig), reportGenes)
		if h, rows := sig.OperatingDisplay(); h != nil {
			opTable = tableOf(Figure{Name: "metrics", Title: "Operating points (cross-validated; the positive class " + sig.Classes[sig.Positive] + ", at the study's prevalence)", Table: append([][]string{h}, rows...)}, 10)
		}
		sigPara = SignatureParagraph(res, sig)
		fullTable, tripodTable = tableOf(fullModelFigure(sig), 200), tableOf(tripodFigure(res, sig), 20)
		howTo = sig.HowToApply()
	}
	var enrFigs []reportFigure
	var enrTable, camTable reportTable
	enrPara := ""
	if sig != nil && sig.Enrichment != nil {
		f := EnrichmentFigure(res.Data.Name, sig.Enrichment)
		svg, err := svgOf(f, o)
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
		enrFigs = append(enrFigs, reportFigure{PlainText(f.Title), svg})
		enrTable = tableOf(enrichmentTable(sig.Enrichment), 20)
		enrPara = sig.Enrichment.Says()
		if sig.Enrichment.Camera != nil {
			enrPara += " " + sig.Enrichment.CameraSays()
			camTable = tableOf(cameraFigure(sig.Enrichment), 20)
		}
	}
	var valFigs []reportFigure
	var valTable, valConf reportTable
	valPara := ""
	if sig != nil && sig.Validation != nil {
		v := sig.Validation
		for _, f := range ValidationFigures(v) {
			svg, err := svgOf(f, o)
			if err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
			valFigs = append(valFigs, reportFigure{PlainText(f.Title), svg})
		}
		valPara = ValidationParagraph(v)
		valTable = tableOf(Figure{Name: "cohort-predictions", Title: "Predictions on the cohort (the files' digests: in the paragraph above)", Table: study.PredictionDisplay(v)}, reportGenes)
		valConf = tableOf(cohortConfusionFigure(v), 10)
	}
	para, refs := MethodsParagraph(res)
	cfg, _ := json.MarshalIndent(res.Config, "", "  ")
	var classes []string
	for i, c := range res.Data.Classes {
		classes = append(classes, fmt.Sprintf("%s (%d)", c, res.Data.ClassCounts[i]))
	}
	return reportTemplate.Execute(w, map[string]any{
		"Res": res, "Figures": figs, "Tables": tables, "Paragraph": para, "Refs": refs, "LeftOut": leftOutSummary(res),
		"Config": string(cfg), "Classes": strings.Join(classes, ", "), "Features": len(res.Data.Features),
		"Written": time.Now().Format("2006-01-02 15:04"),
		"Sig":     sig != nil, "SigParagraph": sigPara, "SigFigures": sigFigs, "SigTable": sigTable, "ConfTable": confTable, "OpTable": opTable, "Enr": enrPara != "", "EnrParagraph": enrPara, "EnrFigures": enrFigs, "EnrTable": enrTable, "FullTable": fullTable, "HowTo": howTo, "TripodTable": tripodTable,
		"Val": valPara != "", "ValParagraph": valPara, "ValFigures": valFigs, "ValTable": valTable, "ValConf": valConf, "CamTable": camTable,
	})
}

// ReportTables are the tables the report shows cut short: every method's top features
// and, with two or more methods, each classifier's error table. Whoever writes the
// report writes their CSVs (f.Name + ".csv") beside it, which the report names.
func ReportTables(res *experiment.Result) []Figure {
	var out []Figure
	for i := range res.Methods {
		out = append(out, TopTable(res, i))
	}
	if len(res.Methods) > 1 {
		for _, cl := range res.Config.Classifiers {
			out = append(out, ErrorTable(res, cl))
		}
	}
	if t := StabilityTestTable(res); len(t.Table) > 1 {
		out = append(out, t)
	}
	return out
}

func tableOf(f Figure, max int) reportTable {
	t := reportTable{Title: PlainText(f.Title), CSV: f.Name + ".csv"}
	if len(f.Table) == 0 {
		return t
	}
	t.Header, t.Rows = f.Table[0], f.Table[1:]
	if len(t.Rows) > max {
		t.More, t.Rows = len(t.Rows)-max, t.Rows[:max]
	}
	return t
}

var reportTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Steadfast report: {{.Res.Data.Name}}</title>
<style>
body{font-family:"Liberation Sans",Arial,Helvetica,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:.85em;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}
th{background:#f2f2f2}figure{margin:1.5em 0}figcaption{font-size:.9em;color:#444}
pre{background:#f7f7f7;padding:.8em;font-size:.8em;overflow-x:auto}.para{background:#f5f9ff;padding:.8em;border-left:3px solid #0072B2}
svg{max-width:100%;height:auto}
</style></head><body>
<h1>Steadfast report: {{.Res.Data.Name}}</h1>
<p>Steadfast {{.Res.Version}}, run in {{printf "%.0f" .Res.Seconds}} s; report written {{.Written}}. Seed {{.Res.Config.Seed}}.</p>
<h2>Data</h2>
<p>{{.Res.Data.Name}}{{if .Res.Data.Accession}} (GEO {{.Res.Data.Accession}}{{if .Res.Data.Platform}}, platform {{.Res.Data.Platform}}{{end}}){{end}}: {{.Res.Data.Samples}} samples, {{.Features}} features after preprocessing; classes {{.Classes}}.{{if .Res.Data.Dropped}} {{len .Res.Data.Dropped}} features were dropped (constant or incomplete).{{end}}{{if .LeftOut}} Left out or ranked last, each named with why in left-out.csv: {{.LeftOut}}.{{end}}</p>
<h2>Methods paragraph</h2>
<p class="para">{{.Paragraph}}</p>
<ol style="font-size:.9em">{{range .Refs}}<li style="list-style:none">{{.}}</li>{{end}}</ol>
<h2>Figures</h2>
{{range .Figures}}<figure>{{.SVG}}<figcaption>{{.Title}}</figcaption></figure>
{{end}}
<h2>Tables</h2>
{{range .Tables}}{{template "table" .}}
{{end}}
{{if .Sig}}<h2>Signature</h2>
<p class="para">{{.SigParagraph}}</p>
{{range .SigFigures}}<figure>{{.SVG}}<figcaption>{{.Title}}</figcaption></figure>
{{end}}{{template "table" .SigTable}}{{template "table" .ConfTable}}{{if .OpTable.Header}}{{template "table" .OpTable}}{{end}}
{{template "table" .FullTable}}<p>{{.HowTo}}</p>
{{template "table" .TripodTable}}
{{end}}{{if .Enr}}<h2>What the genes mean</h2>
<p class="para">{{.EnrParagraph}}</p>
{{range .EnrFigures}}<figure>{{.SVG}}<figcaption>{{.Title}}</figcaption></figure>
{{end}}{{template "table" .EnrTable}}{{if .CamTable.Header}}{{template "table" .CamTable}}{{end}}
{{end}}{{if .Val}}<h2>Validation</h2>
<p class="para">{{.ValParagraph}}</p>
{{range .ValFigures}}<figure>{{.SVG}}<figcaption>{{.Title}}</figcaption></figure>
{{end}}{{if .ValConf.Header}}{{template "table" .ValConf}}{{end}}{{template "table" .ValTable}}
{{end}}<h2>Configuration</h2>
<pre>{{.Config}}</pre>
</body></html>
{{define "table"}}<h3>{{.Title}}</h3>
<table><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>{{if .More}}<p>{{.MoreRows}} in {{.CSV}}, beside this report.</p>{{end}}{{end}}`))

// geneDisplay is the signature's gene table as people read it, header first (the CSV
// beside the report keeps every digit).
func geneDisplay(sig *study.Signature) [][]string {
	head, rows := sig.GeneDisplay()
	return append([][]string{head}, rows...)
}

// reportSignatureFigures are the signature's figures a report shows: all of them (the
// ROC curves with the operating points, the heatmap, the genes by class, the
// calibration and, after a permutation test, its null distribution).
func reportSignatureFigures(res *experiment.Result, sig *study.Signature) []Figure {
	return SignatureFigures(res, sig)
}

// enrichmentTable is the enrichment's terms as people read them, for the report (all in
// enrichment.csv).
func enrichmentTable(e *study.Enrichment) Figure {
	rows := [][]string{{"term", "name", "selected / in universe", "q (BH)", "stability", "genes"}}
	for _, t := range e.Terms {
		rows = append(rows, []string{t.Set.ID, t.Set.Name, fmt.Sprintf("%d / %d", t.X, t.M), text.PValue(t.Q), text.Sig3(t.Stability), strings.Join(t.Genes, ", ")})
	}
	return Figure{Name: "enrichment", Title: "Gene-set terms, most significant first", Table: rows}
}

// fullModelFigure is the locked model in full (TRIPOD 15a) as a table.
func fullModelFigure(sig *study.Signature) Figure {
	h, rows := sig.FullModel()
	shown := make([][]string, len(rows))
	for i, r := range rows {
		shown[i] = make([]string, len(r))
		for j, c := range r {
			shown[i][j] = c
			if v, err := strconv.ParseFloat(c, 64); err == nil && j > 0 {
				shown[i][j] = strconv.FormatFloat(v, 'g', 6, 64)
			}
		}
	}
	return Figure{Name: "signature-full-model", Title: "Full model: every coefficient and the intercept (TRIPOD 15a), to 6 significant digits; model.json keeps every digit", Table: append([][]string{h}, shown...)}
}

// reportGenes is the most signature genes (and cohort predictions) a report's table
// lists, in HTML and PDF alike; the CSV beside it has them all.
const reportGenes = 50

// cameraFigure is camera's sets as people read them (camera.csv keeps every digit).
func cameraFigure(e *study.Enrichment) Figure {
	t := study.CameraTable(e.Camera, e.CameraPositive)
	rows := [][]string{{"term", "ontology", "name", "genes", "direction in " + e.CameraPositive, "p", "FDR"}}
	for _, r := range t[1:] {
		p, _ := strconv.ParseFloat(r[5], 64)
		q, _ := strconv.ParseFloat(r[6], 64)
		rows = append(rows, []string{r[0], r[1], r[2], r[3], r[4], text.PValue(p), text.PValue(q)})
	}
	return Figure{Name: "camera", Title: "Camera over the whole ranking: the sets most significant first", Table: rows}
}

// cohortConfusionFigure is a validation's own confusion matrix.
func cohortConfusionFigure(v *signature.Validation) Figure {
	return Figure{Name: "cohort-confusion", Title: "Confusion matrix on the cohort (its samples of a class the model knows, at the classifier's own rule)", Table: study.CohortConfusion(v)}
}

// tripodFigure is the TRIPOD checklist table: where the report answers each item.
func tripodFigure(res *experiment.Result, sig *study.Signature) Figure {
	return Figure{Name: "tripod", Title: "TRIPOD checklist: where this report answers the items of model development and internal validation", Table: sig.TRIPOD(res)}
}

// confusionFigure is the signature's cross-validated confusion matrix as a table.
func confusionFigure(sig *study.Signature) Figure {
	head, rows := sig.ConfusionDisplay()
	return Figure{Name: "signature-confusion", Title: sig.ConfusionCaption(), Table: append([][]string{head}, rows...)}
}

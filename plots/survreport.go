package plots

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/internal/text"
)

// SurvivalParagraph describes how a survival signature was made and how well it
// predicts, as REMARK asks of a prognostic marker study: the genes' source, the locked
// Cox model, the risk groups' cut-off, the cross-validated measures with their
// intervals, and the optimistic ones labelled.
func SurvivalParagraph(res *experiment.Result, s *study.SurvivalSignature) string {
	c := s.Model.Cox
	cv := s.CV
	var b strings.Builder
	how := "selected on all samples by " + res.Methods[s.Choice.Method].Label
	if s.Choice.Frequent {
		how = "most often among the resamples' top " + fmt.Sprint(s.Choice.K) + " of " + res.Methods[s.Choice.Method].Label
	}
	fmt.Fprintf(&b, "The signature is the %s %s. A Cox proportional-hazards model of them (Efron's ties, each gene z-scored with its training mean and SD, the ridge penalty lambda/2 sum beta^2 with lambda = %g) was locked on all %d patients (%d events); its risk score is the model's linear predictor, and its %s.",
		text.Count(len(s.Genes), "gene"), how, c.Ridge, len(s.Samples), s.Outcome.Events(), c.GroupRule())
	fmt.Fprintf(&b, " How well the procedure predicts was estimated from the study's own resamples (%s, stratified by the event): in each, the genes ranked first on its training samples and the Cox model fitted there scored its held-out patients. Harrell's C was %.3f (95%% CI %.3f-%.3f, %s), the mean over %s; the held-out risk score's hazard ratio %s (the first repetition's held-out scores, each in its training set's SDs); the cross-validated risk groups (each patient cut by the training scores of the resample that held it out) differed by the log-rank test with p = %s, an approximate p for groups so formed.",
		experiment.ProtocolText(res.Config), cv.C.Mean, cv.C.Low, cv.C.High, signature.CIntervalMethod, text.Count(cv.C.Resamples, "resample"), cv.HR[0].Text("SD", "the held-out risk score"), pText(cv.LogRank[0].P))
	b.WriteString(survivalHonestWords(s)) // the headline C (nested when the advice chose) and the permutation test
	for h, t := range cv.Horizons {
		auc, n := 0.0, 0.0
		for _, r := range cv.TimeAUC {
			if a := r[h].AUC; a == a {
				auc, n = auc+a, n+1
			}
		}
		fmt.Fprintf(&b, " At %s the cumulative/dynamic time-dependent AUC (inverse-probability-of-censoring weights) was %.3f.", timeText(t, s.Opts.Unit), auc/n)
	}
	fmt.Fprintf(&b, " On the patients it was fitted to, the locked model's C was %.3f and its hazard ratio %s: optimistic, shown for comparison only.", s.Apparent.C.C, s.Apparent.HR.Text("SD", "the locked model's risk score on its own samples"))
	return b.String()
}

// readableOf is tableOf of f as people read it: its numbers to 6 significant digits
// (the CSV beside the report keeps every digit; whole numbers stay whole) and the
// columns empty in every row (a gene symbol for data without symbols) left out.
func readableOf(f Figure, max int) reportTable {
	if len(f.Table) == 0 {
		return tableOf(f, max)
	}
	keep := make([]bool, len(f.Table[0]))
	for _, r := range f.Table[1:] {
		for j, c := range r {
			if j < len(keep) && c != "" {
				keep[j] = true
			}
		}
	}
	rows := make([][]string, len(f.Table))
	for i, r := range f.Table {
		for j, c := range r {
			if j >= len(keep) || !keep[j] {
				continue
			}
			if v, err := strconv.ParseFloat(c, 64); i > 0 && err == nil && strings.ContainsAny(c, ".eE") {
				c = strconv.FormatFloat(v, 'g', 6, 64)
			}
			rows[i] = append(rows[i], c)
		}
	}
	f.Table = rows
	return tableOf(f, max)
}

// pText writes a p-value, "< 0.0001" below it.
func pText(p float64) string {
	if p < 1e-4 {
		return "< 0.0001"
	}
	return fmt.Sprintf("%.2g", p)
}

// survivalGeneFigure is the gene table in words (signature.csv keeps every digit).
func survivalGeneFigure(s *study.SurvivalSignature) Figure {
	h, rows := s.GeneDisplay()
	return Figure{Name: "signature", Title: "Signature genes: the locked Cox model's coefficients and hazard ratios, and each gene's univariate Cox score test on all patients", Table: append([][]string{h}, rows...)}
}

// survivalMeasuresFigure is metrics.csv in words.
func survivalMeasuresFigure(s *study.SurvivalSignature) Figure {
	h, rows := s.MeasuresDisplay(false)
	return Figure{Name: "metrics", Title: s.MeasuresCaption(), Table: append([][]string{h}, rows...)}
}

// nestedCountTable is the inner choices of a nested estimate as one table of counts
// (empty without choices).
func nestedCountTable(choices []study.NestedChoice, innerFolds int) reportTable {
	if len(choices) == 0 {
		return reportTable{}
	}
	h, rows := study.NestedCountDisplay(choices)
	return tableOf(Figure{Name: "nested-choice-counts", Title: study.NestedCountCaption(choices, innerFolds), Table: append([][]string{h}, rows...)}, 100)
}

// survivalNestTable is the inner choices of s's nested estimate (empty without one).
func survivalNestTable(s *study.SurvivalSignature) reportTable {
	if s.Nested == nil {
		return reportTable{}
	}
	return nestedCountTable(s.Nested.Choices, s.Nested.InnerFolds)
}

// survivalFullModel is the locked Cox model in full: each gene's coefficient per SD,
// hazard ratio with its interval, and the scaling a new sample needs.
func survivalFullModel(s *study.SurvivalSignature) Figure {
	c := s.Model.Cox
	rows := [][]string{{"gene", "training mean", "training SD", "coefficient (per SD)", "hazard ratio per SD", "95% CI", "Wald p"}}
	for i, g := range s.Genes {
		rows = append(rows, []string{s.GeneLabels()[i], fmtNum(s.Model.Mean[i]), fmtNum(s.Model.SD[i]), fmt.Sprintf("%.6g", c.Coef[i]),
			fmt.Sprintf("%.3g", g.HR), fmt.Sprintf("%.3g-%.3g", g.HRLow, g.HRHigh), pText(g.WaldP)})
	}
	return Figure{Name: "signature-full-model", Title: "The locked Cox model, to 6 significant digits (model.json keeps every digit, the baseline hazard and the cut-offs)", Table: rows}
}

// remarkFigure is the REMARK checklist (McShane et al. 2005) of a prognostic marker
// study: where this report answers each item, and what only the authors can state.
func remarkFigure(res *experiment.Result, s *study.SurvivalSignature, val *signature.Validation) Figure {
	authors := "not known to Steadfast: the authors state it"
	cohort := "no independent cohort in this report"
	if val != nil {
		cohort = "Validation: " + val.Cohort + " (" + val.CohortKind() + ")"
	}
	rows := [][]string{{"REMARK item", "asks", "answered"},
		{"1", "the marker, the study's objectives and hypotheses", "Signature paragraph (the genes and the locked model); hypotheses: " + authors},
		{"2-4", "patients, treatment and specimens", authors},
		{"5", "the assay and its methods", "Data (file, platform when from GEO); laboratory methods: " + authors},
		{"6", "study design, end point, follow-up", fmt.Sprintf("Data: %s, %d events, %d censored (time %q, event %q)", res.Data.Name, s.Outcome.Events(), len(s.Samples)-s.Outcome.Events(), s.Model.Cox.TimeName, s.Model.Cox.EventName)},
		{"7", "rationale for the sample size", "the cross-validated C's interval says what the study can resolve; rationale: " + authors},
		{"8", "statistical methods: model building, marker handling, cut-off", "Methods and Signature paragraphs; the cut-off fixed on training scores (" + s.Model.Cox.Cut.Kind + ")"},
		{"9", "missing data", "Data: features with missing values dropped or refused, as the preprocessing says"},
		{"10", "flow of patients", fmt.Sprintf("all %d patients in every analysis; resampling: %s", len(s.Samples), experiment.ProtocolText(res.Config))},
		{"11", "marker distribution", "Figures: heatmap of the genes by risk group; predictions.csv: every risk score"},
		{"12", "relation to standard prognostic variables", added(s, "the added value over "+covariateList(s)+": Cox models with and without the risk score (added_value.csv)", "covariates: "+authors+" (steadfast signature --covariates)")},
		{"13", "univariable relation of the marker to the outcome", "signature.csv: each gene's univariate Cox score test and FDR; the risk score's hazard ratio per SD"},
		{"14", "multivariable analysis with standard variables", added(s, "the Cox model of "+covariateList(s)+" and the cross-validated risk score: hazard ratios, the likelihood-ratio test and the change in C (Signature section)", "covariates: "+authors)},
		{"15", "estimated effects with confidence intervals", "Signature paragraph and metrics.csv: C, hazard ratio, time-dependent AUC with intervals"},
		{"16", "validation", "internal: cross-validated from the study's resamples (never on the samples a model was fitted to); external: " + cohort},
		{"17-20", "interpretation, limitations, implications", authors},
	}
	return Figure{Name: "remark", Title: "REMARK checklist: where this report answers the items of a prognostic marker study", Table: rows}
}

// added is yes when s's added value over clinical covariates was measured, no
// otherwise.
func added(s *study.SurvivalSignature, yes, no string) string {
	if s.Added == nil {
		return no
	}
	return yes
}

// covariateList names the covariates of s's added value, "" without one.
func covariateList(s *study.SurvivalSignature) string {
	if s.Added == nil {
		return ""
	}
	return strings.Join(s.Added.Covariates, ", ")
}

// survivalReportFigures are the survival signature's figures in its report: its own,
// then the forest plot of its added value when measured.
func survivalReportFigures(res *experiment.Result, s *study.SurvivalSignature) []Figure {
	figs := SurvivalSignatureFigures(res, s)
	if s.Added != nil {
		figs = append(figs, AddedValueForest(res.Data.Name, s.Added))
	}
	return figs
}

// addedValueTable is the added value's table (added_value.csv) for the report.
func addedValueTable(s *study.SurvivalSignature) Figure {
	return Figure{Name: "added_value", Title: "Added value over clinical covariates (added_value.csv): hazard ratios of both Cox models, then the statistics", Table: s.Added.Table()}
}

// survivalHowTo says how to apply the locked model to a new patient.
func survivalHowTo(s *study.SurvivalSignature) string {
	return "To score a new patient: take the genes' values preprocessed as the training data were (" + prepWords(s.Model) + "), z-score each with its training mean and SD (above), apply the Cox model's own centring and scaling (model.json: cox.mean, cox.sd, cox.center), and sum the coefficients times the scaled values: that is the risk score; the patient's risk group is fixed by the training cut-offs (" + s.Model.Cox.GroupRule() + "), and the predicted survival at t is exp(-H0(t) exp(score)) with the baseline cumulative hazard H0 in model.json. steadfast predict --model model.json --data FILE does all of this."
}

// prepWords names a model's preprocessing.
func prepWords(m *signature.Model) string {
	switch {
	case m.Prep.LogCPM:
		return "log-CPM"
	case m.Prep.Log2:
		return "log2"
	}
	return "as read"
}

// survivalFields are the report template's fields of a survival signature's section,
// with a cohort's when val is not nil.
func survivalFields(ctx context.Context, res *experiment.Result, s *study.SurvivalSignature, val *signature.Validation, o ExportOptions) (map[string]any, error) {
	var figs []reportFigure
	for _, f := range survivalReportFigures(res, s) {
		svg, err := ctxSVG(ctx, f, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		figs = append(figs, reportFigure{PlainText(f.Title), svg})
	}
	data := map[string]any{
		"Sig": true, "SigParagraph": SurvivalParagraph(res, s), "SigFigures": figs,
		"SigTable":    readableOf(survivalGeneFigure(s), reportGenes),
		"OpTable":     readableOf(survivalMeasuresFigure(s), 80),
		"NestTable":   survivalNestTable(s),
		"FullTable":   readableOf(survivalFullModel(s), 200),
		"HowTo":       survivalHowTo(s),
		"TripodTable": tableOf(remarkFigure(res, s, val), 20),
	}
	if s.Added != nil {
		data["AddedParagraph"], data["AddedTable"] = s.Added.Sentence(), readableOf(addedValueTable(s), 60)
	}
	if val != nil {
		var vf []reportFigure
		for _, f := range ValidationFigures(val) {
			svg, err := ctxSVG(ctx, f, o)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.Name, err)
			}
			vf = append(vf, reportFigure{PlainText(f.Title), svg})
		}
		data["Val"], data["ValParagraph"], data["ValFigures"] = true, survivalValidationWords(val), vf
		data["ValTable"] = readableOf(Figure{Name: "cohort-predictions", Title: "Risk scores on the cohort", Table: study.SurvivalPredictionTable(val)}, reportGenes)
	}
	return data, nil
}

// survivalValidationWords describe a survival signature's cohort: the cohort, its
// digest, the genes found and the measures.
func survivalValidationWords(v *signature.Validation) string {
	return fmt.Sprintf("The locked model was applied to %s, %s (SHA-256 %s): %d of its %s found, %s scored. %s", v.Cohort, v.CohortKind(), short(v.SHA256), v.Found(), text.Count(len(v.Model.Genes), "gene"), text.Count(len(v.Samples), "patient"), v.SurvivalText(v.Model.Cox.Unit))
}

// short is a digest's first 12 digits.
func short(d string) string {
	if len(d) > 12 {
		return d[:12] + "..."
	}
	return d
}

// SurvivalReportWith is the HTML report of the survival study res with the Signature
// section of s (REMARK's checklist instead of TRIPOD's) and, when val is not nil, its
// validation on a cohort.
func SurvivalReportWith(ctx context.Context, w io.Writer, res *experiment.Result, s *study.SurvivalSignature, val *signature.Validation, o ExportOptions) error {
	data, err := runFields(ctx, res, o)
	if err != nil {
		return err
	}
	sec, err := survivalFields(ctx, res, s, val, o)
	if err != nil {
		return err
	}
	for k, v := range sec {
		data[k] = v
	}
	if s.Added != nil {
		data["Paragraph"], data["Refs"] = MethodsParagraphWith(res, s.Added)
	}
	return reportTemplate.Execute(w, data)
}

// SurvivalReportPDFWith is SurvivalReportWith as a PDF.
func SurvivalReportPDFWith(ctx context.Context, w io.Writer, res *experiment.Result, s *study.SurvivalSignature, val *signature.Validation) error {
	p, err := runPDFWith(ctx, res, s.Added)
	if err != nil {
		return err
	}
	p.text("Signature", 12, true)
	p.text(SurvivalParagraph(res, s), 10, false)
	for _, f := range survivalReportFigures(res, s) {
		if err := p.figure(f); err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	p.table(readableOf(survivalGeneFigure(s), reportGenes), 7.5)
	p.table(readableOf(survivalMeasuresFigure(s), 80), 8)
	if t := survivalNestTable(s); t.Header != nil {
		p.table(t, 8)
	}
	if s.Added != nil {
		p.text(s.Added.Sentence(), 10, false)
		p.table(readableOf(addedValueTable(s), 60), 7.5)
	}
	p.table(readableOf(survivalFullModel(s), 200), 7.5)
	p.text(survivalHowTo(s), 10, false)
	p.table(tableOf(remarkFigure(res, s, val), 20), 8)
	if val != nil {
		p.text("Validation", 12, true)
		p.text(survivalValidationWords(val), 10, false)
		for _, f := range ValidationFigures(val) {
			if err := p.figure(f); err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
		}
		p.table(readableOf(Figure{Name: "cohort-predictions", Title: "Risk scores on the cohort", Table: study.SurvivalPredictionTable(val)}, reportGenes), 7.5)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err = p.c.WriteTo(w)
	return err
}

// WriteSurvivalReport writes report.html and report.pdf of SurvivalReportWith into dir,
// each file replaced whole.
func WriteSurvivalReport(ctx context.Context, dir string, res *experiment.Result, s *study.SurvivalSignature, val *signature.Validation, size ExportOptions) error {
	var b bytes.Buffer
	if err := SurvivalReportWith(ctx, &b, res, s, val, size); err != nil {
		return err
	}
	if err := study.WriteFile(filepath.Join(dir, "report.html"), b.Bytes()); err != nil {
		return err
	}
	b.Reset()
	if err := SurvivalReportPDFWith(ctx, &b, res, s, val); err != nil {
		return err
	}
	return study.WriteFile(filepath.Join(dir, "report.pdf"), b.Bytes())
}

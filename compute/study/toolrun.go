package study

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/group"
	"steadfast/compute/score"
	"steadfast/compute/survival"

	"gonum.org/v1/gonum/mat"
)

// The tools both front ends run on the data on screen or given: one function each, so
// the window and the command line compute them the same way.

// KChooser is DRAGS Fig. 1 for ds: every gene's mean correlation to its K nearest
// genes for each K of group.ChooserKs (with self, the gene its own first neighbour, the
// DRAGS paper's reading).
func KChooser(ctx context.Context, ds *dataset.Dataset, self bool) (*KChooserResult, error) {
	if err := Ready(ds); err != nil {
		return nil, err
	}
	vals, err := group.KNNCorrelations(ctx, dataset.ZScored(ds.X), group.ChooserKs, self)
	if err != nil {
		return nil, err
	}
	return &KChooserResult{Data: ds.Name, Ks: group.ChooserKs, Values: vals}, nil
}

// Wrapper runs the bootstrap wrapper's sweep over Na on ds (z-scored for the ranking,
// as read for the learning curves) and returns its areas and baselines.
func Wrapper(ctx context.Context, ds *dataset.Dataset, sweep experiment.WrapperSweep) (*WrapperResult, error) {
	if err := classesOnly(ds, "the bootstrap wrapper (3-NN accuracy of the classes)"); err != nil {
		return nil, err
	}
	if err := Ready(ds); err != nil {
		return nil, err
	}
	aucs, base, err := sweep.Run(ctx, dataset.ZScored(ds.X), ds.X, ds.Labels, len(ds.Classes))
	if err != nil {
		return nil, err
	}
	return &WrapperResult{Data: ds.Name, NAs: sweep.NAs, AUCs: aucs, Baselines: base}, nil
}

// MIDSEpsilons is the threshold grid of the MIDS tool: the paper's range 0.5..0.8.
var MIDSEpsilons = []float64{0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8}

// MIDSAt is the correlation graph of ds (genes linked when |r| > epsilon), its MIDS,
// checked to be an independent dominating set, and its greedy maximal independent set.
func MIDSAt(ctx context.Context, ds *dataset.Dataset, epsilon float64) (group.Graph, []int, []int, error) {
	if !(epsilon > 0 && epsilon < 1) { // NaN fails too
		return group.Graph{}, nil, nil, fmt.Errorf("epsilon must lie between 0 and 1, not %g", epsilon)
	}
	g, err := group.CorrelationGraph(ctx, dataset.ZScored(ds.X), epsilon)
	if err != nil {
		return group.Graph{}, nil, nil, err
	}
	set := g.MIDS()
	if err := g.CheckIDS(set); err != nil {
		return group.Graph{}, nil, nil, fmt.Errorf("internal error, please report: %v", err)
	}
	return g, set, g.GreedyMIS(), nil
}

// MIDSSweep is the MIDS tool on ds: the MIDS, greedy set and edge counts for each of
// epsilons, and at epsilons[chosen] every MIDS gene with the genes it stands for and a
// summary. Progress counts the epsilons.
func MIDSSweep(ctx context.Context, ds *dataset.Dataset, epsilons []float64, chosen int, report func(experiment.Progress)) (*MIDSResult, error) {
	if err := Ready(ds); err != nil {
		return nil, err
	}
	if chosen < 0 || chosen >= len(epsilons) {
		return nil, fmt.Errorf("choose one of the %d epsilons", len(epsilons))
	}
	x := dataset.ZScored(ds.X)
	report(experiment.Progress{Total: len(epsilons) + 1, Stage: "correlation graphs"})
	graphs, err := group.CorrelationGraphs(ctx, x, epsilons)
	if err != nil {
		return nil, err
	}
	sets := make([][]int, len(graphs))
	var mids, greedy, edges []int
	for i, g := range graphs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		report(experiment.Progress{Done: i + 1, Total: len(graphs) + 1, Stage: fmt.Sprintf("MIDS at |r| > %g", epsilons[i])})
		sets[i] = g.MIDS()
		if err := g.CheckIDS(sets[i]); err != nil {
			return nil, fmt.Errorf("internal error, please report: %v", err)
		}
		mids, greedy, edges = append(mids, len(sets[i])), append(greedy, len(g.GreedyMIS())), append(edges, g.Edges())
	}
	f, err := relevance(ctx, ds, x)
	if err != nil {
		return nil, err
	}
	_, p := x.Dims()
	header, rows := midsRows(ds, graphs[chosen], sets[chosen], f.Score)
	if ds.Survival != nil {
		header[2] = "Cox score chi-square"
	}
	summary := fmt.Sprintf("%d genes; at |r| > %g: %d edges, MIDS %d genes (%.1f%%), greedy maximal independent set %d. Each MIDS gene below stands for the genes linked to it; the MIDS rankers (e.g. SVM-RFE + MIDS) choose among these genes only, computed again inside every training set.",
		p, epsilons[chosen], edges[chosen], mids[chosen], 100*float64(mids[chosen])/float64(p), greedy[chosen])
	return &MIDSResult{Data: ds.Name, Features: p, Epsilons: epsilons, MIDS: mids, Greedy: greedy, Edges: edges,
		Summary: summary, Header: header, Rows: rows}, nil
}

// relevance scores how each gene (column of x, the samples of ds) goes with the
// outcome: the F-statistic of the classes, or the Cox score test's chi-square of a
// survival outcome.
func relevance(ctx context.Context, ds *dataset.Dataset, x *mat.Dense) (score.Ranking, error) {
	if s := ds.Survival; s != nil {
		return score.CoxScore{}.RankSurvival(ctx, x, survival.Outcome{Time: s.Time, Event: s.Event}, nil)
	}
	return score.FStat{}.Rank(ctx, x, ds.Labels, len(ds.Classes), nil)
}

// midsRows lists the MIDS genes, most linked first: name, genes it stands for, F, and
// those genes (the first 30).
func midsRows(ds *dataset.Dataset, g group.Graph, set []int, f []float64) ([]string, [][]string) {
	sorted := append([]int(nil), set...)
	sort.SliceStable(sorted, func(a, b int) bool { return len(g.Adj[sorted[a]]) > len(g.Adj[sorted[b]]) })
	rows := make([][]string, 0, len(sorted))
	for _, j := range sorted {
		names := make([]string, 0, min(len(g.Adj[j]), 30))
		for _, k := range g.Adj[j][:min(len(g.Adj[j]), 30)] {
			names = append(names, ds.Features[k])
		}
		more := ""
		if len(g.Adj[j]) > 30 {
			more = fmt.Sprintf(", ... (%d more)", len(g.Adj[j])-30)
		}
		rows = append(rows, []string{ds.Features[j], strconv.Itoa(len(g.Adj[j])), strconv.FormatFloat(f[j], 'f', 2, 64), strings.Join(names, ", ") + more})
	}
	return []string{"MIDS gene", "linked genes", "F", "genes it stands for"}, rows
}

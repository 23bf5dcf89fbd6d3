package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/plots"
)

// enrichCommand tests what a finished run's selected genes mean: over-representation of
// a method's top k in gene sets (GO shipped, or a GMT file) against the measured genes,
// with each term's stability over the resamples; enrichment.csv and the dot plot.
func enrichCommand(c *call) error {
	outDir := c.fs.String("o", "", "output folder (replaced as a whole when everything is written)")
	name := c.fs.String("method", "", "the method, by its label or name (default: the advice's)")
	k := c.fs.Int("k", 0, "the number of top genes (default: the advice's k)")
	frequent := c.fs.Bool("frequent", false, "test the k genes selected most often over the resamples (as signature --frequent), not the method's top k on all samples")
	cl := c.fs.String("classifier", "svm", "the classifier whose advice chooses method and k")
	coll := c.fs.String("collection", "go", "the gene sets: go (the three ontologies), go-bp, go-mf, go-cc, or a GMT file (MSigDB, Reactome, WikiPathways)")
	camera := c.fs.Bool("camera", false, "also test every set over the whole ranking with limma's camera (competitive, inter-gene correlation 0.01): reads the run's data; camera.csv")
	positive := c.fs.String("positive", "", "camera's positive class of two (default: the class not named like a control)")
	data := c.fs.String("data", "", "the run's data file, for --camera (overrides its dataPath)")
	symbols := c.fs.String("symbols", "", "the platform's probe-to-gene-symbol annotation, for a run whose data had none (the study need not run again)")
	out := sizeFlags(c)
	pos, err := c.parse(1)
	if err != nil {
		return err
	}
	if len(pos) == 0 || *outDir == "" {
		return errors.New("needs a saved run and an output folder: steadfast enrich RUN.json -o OUTDIR")
	}
	size, err := out.size()
	if err != nil {
		return err
	}
	dest := study.Output{Dir: *outDir, Reads: []study.Input{{What: "saved run", Path: runPath(pos[0])}, {What: "gene-set file", Path: gmtPath(*coll)}, {What: "annotation file", Path: *symbols}}, Beside: "enrichment"}
	if err := dest.Check(); err != nil {
		return err
	}
	saved, err := loadRun(pos[0], "enrich")
	if err != nil {
		return err
	}
	res := saved.Result
	if *symbols != "" {
		found, err := study.AddSymbols(res, nil, *symbols)
		if err != nil {
			return err
		}
		c.note("gene symbols for %d of %d features from %s", found, len(res.Data.Features), filepath.Base(*symbols))
	}
	m, kk, _, err := methodAndK(res, *name, *k, *cl)
	if err != nil {
		return err
	}
	sets, err := study.Collection(*coll)
	if err != nil {
		return err
	}
	e, err := study.Enrich(res, m, kk, *frequent, sets)
	if err != nil {
		return err
	}
	ctx := c.ctx
	files := map[string][]byte{"enrichment.csv": e.CSV()}
	var said string
	if *camera {
		cfg, ds, err := openStudy(c, runPath(pos[0]), *data)
		if err != nil {
			return err
		}
		dest.Reads = append(dest.Reads, study.DataInputs(cfg.DataPath, cfg.Read)...)
		if err := dest.Check(); err != nil {
			return err
		}
		p, _ := signature.DefaultPositive(ds.Classes)
		if *positive != "" {
			if p = slices.Index(ds.Classes, *positive); p < 0 {
				return fmt.Errorf("--positive %s: not one of the classes (%s)", *positive, strings.Join(ds.Classes, ", "))
			}
		}
		terms, err := study.CameraSets(ds, p, sets)
		if err != nil {
			return err
		}
		files["camera.csv"] = study.CSV(study.CameraTable(terms, ds.Classes[p]))
		e.Camera, e.CameraPositive = terms, ds.Classes[p]
		said = e.CameraSays()
	}
	if err := writeOutputs(ctx, c, dest, files, []plots.Figure{plots.EnrichmentFigure(res.Data.Name, e)}, size, nil); err != nil {
		return err
	}
	fmt.Fprintln(c.errw, e.Says())
	if said != "" {
		fmt.Fprintln(c.errw, said)
	}
	return nil
}

// gmtPath is the collection flag's file, "" for a shipped collection.
func gmtPath(coll string) string {
	switch coll {
	case "go", "go-bp", "go-mf", "go-cc", "":
		return ""
	}
	return coll
}

# Builds compute/enrich/data/go_hs.tsv.gz, the human Gene Ontology gene sets Steadfast
# tests for enrichment: every GO term of biological process, molecular function and
# cellular component with its genes propagated from its descendants (org.Hs.egGO2ALLEGS,
# all evidence codes), kept when it has 10 to 500 genes; genes by Entrez id with their
# symbols. From Bioconductor's GO.db and org.Hs.eg.db (Debian r-bioc-go.db,
# r-bioc-org.hs.eg.db). GO is CC BY 4.0 (the Gene Ontology Consortium, geneontology.org).
# Run from the repository's root: Rscript scripts/build-go.R
suppressMessages({library(org.Hs.eg.db); library(GO.db)})
x <- toTable(org.Hs.egGO2ALLEGS)
x <- unique(x[, c("gene_id", "go_id", "Ontology")])
n <- table(x$go_id)
x <- x[x$go_id %in% names(n)[n >= 10 & n <= 500], ]
sym <- toTable(org.Hs.egSYMBOL)
genes <- sort(unique(as.integer(x$gene_id)))
gsym <- sym$symbol[match(as.character(genes), sym$gene_id)]
terms <- toTable(GOTERM)
terms <- unique(terms[, c("go_id", "Term")])
meta <- metadata(org.Hs.eg.db)
gometa <- metadata(GO.db)
src <- function(m, name) m$value[m$name == name]
out <- gzfile("compute/enrich/data/go_hs.tsv.gz", "w")
writeLines(c(
  sprintf("# Gene Ontology %s (GO.db %s), human annotations Entrez Gene %s (org.Hs.eg.db %s); GO is CC BY 4.0, the Gene Ontology Consortium, geneontology.org",
          src(gometa, "GOSOURCEDATE"), as.character(packageVersion("GO.db")), src(meta, "GOEGSOURCEDATE"), as.character(packageVersion("org.Hs.eg.db"))),
  "# G entrez symbol (gene index = order of G lines); T go_id ontology term gene-index deltas (comma separated)"), out)
writeLines(sprintf("G\t%d\t%s", genes, ifelse(is.na(gsym), "", gsym)), out)
idx <- match(as.integer(x$gene_id), genes) - 1
by <- split(idx, x$go_id)
ont <- tapply(x$Ontology, x$go_id, function(o) o[1])
ids <- sort(names(by))
lines <- vapply(ids, function(id) {
  v <- sort(by[[id]])
  d <- c(v[1], diff(v))
  sprintf("T\t%s\t%s\t%s\t%s", id, ont[[id]], terms$Term[match(id, terms$go_id)], paste(d, collapse = ","))
}, "")
writeLines(lines, out)
close(out)

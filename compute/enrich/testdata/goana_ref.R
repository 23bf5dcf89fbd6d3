# Reference for compute/enrich: limma's goana (Debian r-bioc-limma, with GO.db and
# org.Hs.eg.db) and phyper on the shipped GO sets. The universe: every gene of the
# shipped table (../data/go_hs.tsv.gz); the selection: 40 genes, the first 25 (by
# Entrez id) of GO:0019882 antigen processing and presentation and 15 others drawn with set.seed(7).
# Writes selected.txt, universe.txt (symbols) and goana.csv (go_id, N, DE, P.DE, and
# phyper's upper tail). Run from this folder: Rscript goana_ref.R
suppressMessages({library(limma); library(org.Hs.eg.db)})
lines <- readLines(gzfile("../data/go_hs.tsv.gz"))
g <- do.call(rbind, strsplit(grep("^G\t", lines, value = TRUE), "\t"))
entrez <- g[, 2]; symbol <- g[, 3]
t <- strsplit(grep("^T\t", lines, value = TRUE), "\t")
ids <- vapply(t, `[`, "", 2)
members <- lapply(t, function(f) entrez[cumsum(as.integer(strsplit(f[5], ",")[[1]])) + 1])
names(members) <- ids
immune <- sort(as.integer(members[["GO:0019882"]]))[1:25]
set.seed(7)
others <- sample(setdiff(as.integer(entrez), immune), 15)
sel <- as.character(c(immune, others))
writeLines(symbol[match(sel, entrez)], "selected.txt")
writeLines(symbol, "universe.txt")
go <- goana(de = sel, universe = entrez, species = "Hs")
go <- go[rownames(go) %in% ids, ]
N <- length(entrez); n <- length(sel)
ph <- phyper(go$DE - 1, go$N, N - go$N, n, lower.tail = FALSE)
write.csv(data.frame(go_id = rownames(go), N = go$N, DE = go$DE, P.DE = sprintf("%.17g", go$P.DE), phyper = sprintf("%.17g", ph)), "goana.csv", row.names = FALSE)
cat(R.version.string, "limma", as.character(packageVersion("limma")), "\n", file = "versions.txt")

# The peer of BenchmarkCountsOpen60kx1000: edgeR 3.40 reads the 60,000 x 1,000 count table
# (written by the benchmark: STEADFAST_COUNTS_FILE=/tmp/counts60k.tsv go test ./compute/study
# -run XXX -bench CountsOpen60k), drops the constant genes, filters, normalises and takes
# log-CPM, as `steadfast rank --data /tmp/counts60k.tsv --method fstat --log-cpm` does before
# its ranking. Time the two in turn, several runs each, and compare the medians:
#   Rscript scripts/bench/edger60k.R /tmp/counts60k.tsv
#   steadfast rank --data /tmp/counts60k.tsv --method fstat --log-cpm
suppressMessages(library(edgeR))
path <- commandArgs(trailingOnly = TRUE)[1]
raw <- read.delim(path, check.names = FALSE)
cls <- factor(unlist(raw[1, -1]))
y <- as.matrix(raw[-1, -1]); storage.mode(y) <- "numeric"; rownames(y) <- raw[-1, 1]
y <- y[rowSums(y != y[, 1]) > 0, ]
d <- DGEList(y, group = cls)
d <- calcNormFactors(d[filterByExpr(d), , keep.lib.sizes = FALSE])
l <- cpm(d, log = TRUE, prior.count = 2)
cat(nrow(l), "genes kept\n")

# Reference k-TSP pairs from switchBox (Afsari, Fertig, Geman, Marchionni 2015; Bioconductor,
# github.com/bioc/switchBox, version 1.43.0, commit 606e3de9a9a10804064ef71e9d5bbb138ed5ee3e)
# for compute/classify's KTSP.
# switchBox's source is not kept here; build it into a private library first:
#   git clone https://github.com/bioc/switchBox /tmp/switchBox  (that commit; needs pROC, gplots)
#   R CMD INSTALL -l /tmp/rlib /tmp/switchBox
# then, in compute/classify/testdata:
#   R_LIBS=/tmp/rlib Rscript ktsp_switchbox.R
# (R 4.2.2). Data: Colon (../../../../shared/data/colon.csv), log2 with values below 1
# raised to 1; classes as factor(levels = c("normal", "tumor")). Every case is trained with
# SWAP.KTSP.Train(X, group, krange = 9, FilterFunc = NULL): nine pairs, no gene filter
# (krange a single k: switchBox chooses k by a t-like statistic on the training data, not
# by cross-validation, so only the pairs are compared). Cases:
#   ref20     the 20 genes of ktsp_colon.csv (ktsp_ref.py), the odd-numbered samples;
#   balanced  all 2000 genes, 10 random sets of 15 normal + 15 tumour samples;
#   half      all 2000 genes, 10 random stratified halves (11 normal + 20 tumour).
# Writes ktsp_switchbox.csv: case, training samples (1-based, space-separated), genes
# ("all" or space-separated), pair number, gene1, gene2. A pair (gene1, gene2) votes for
# the first level, normal, when gene1 < gene2 (SWAP.KTSP.Classify), for tumour otherwise.
suppressMessages(library(switchBox))
d <- read.csv("../../../../shared/data/colon.csv", check.names = FALSE)
cls <- factor(d$class, levels = c("normal", "tumor"))
X <- t(log2(pmax(as.matrix(d[, -ncol(d)]), 1)))
ref20 <- strsplit(readLines("ktsp_colon.csv", n = 1), ",")[[1]][-1]
out <- c("case,train,genes,pair,gene1,gene2")
run <- function(name, tr, genes) {
  M <- if (identical(genes, "all")) X else X[genes, ]
  fit <- SWAP.KTSP.Train(M[, tr], cls[tr], krange = 9, FilterFunc = NULL)
  for (p in seq_len(nrow(fit$TSPs))) {
    out <<- c(out, sprintf("%s,%s,%s,%d,%s,%s", name, paste(tr, collapse = " "),
      paste(genes, collapse = " "), p, fit$TSPs[p, 1], fit$TSPs[p, 2]))
  }
}
run("ref20", seq(1, ncol(X), 2), ref20)
set.seed(51)
normal <- which(cls == "normal")
tumour <- which(cls == "tumor")
for (h in 1:10) run("balanced", sort(c(sample(normal, 15), sample(tumour, 15))), "all")
for (h in 1:10) run("half", sort(c(sample(normal, 11), sample(tumour, 20))), "all")
writeLines(out, "ktsp_switchbox.csv")

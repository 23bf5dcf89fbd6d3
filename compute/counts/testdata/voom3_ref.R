# limma reference for TestVoomOfThreeGroupsEqualsLimma: voom, lmFit and eBayes with
# design ~ group of three groups, on the nine samples of GSE63310 the RNAseq123 workflow
# uses (../../study/testdata/gse63310/GSE63310_RAW.tar, GEO's archive; groups LP, ML and
# Basal), after filterByExpr and TMM. topTable(coef = 2:3) gives limma's moderated F of
# the groups and its p. It writes voom3.csv (every 10th kept gene: Entrez id, F,
# P.Value, adj.P.Val (BH), and the three groups' fitted log-CPM at a sample of each) and
# voom3_prior.txt (df.prior, s2.prior). Run from this folder (R 4.2.2, edgeR 3.40,
# limma 3.54): Rscript voom3_ref.R
suppressMessages({library(limma); library(edgeR)})
dir <- tempfile(); untar("../../study/testdata/gse63310/GSE63310_RAW.tar", exdir = dir)
files <- file.path(dir, c("GSM1545535_10_6_5_11.txt.gz", "GSM1545536_9_6_5_11.txt.gz", "GSM1545538_purep53.txt.gz",
  "GSM1545539_JMS8-2.txt.gz", "GSM1545540_JMS8-3.txt.gz", "GSM1545541_JMS8-4.txt.gz",
  "GSM1545542_JMS8-5.txt.gz", "GSM1545544_JMS9-P7c.txt.gz", "GSM1545545_JMS9-P8c.txt.gz"))
x <- readDGE(files, columns = c(1, 3))
group <- factor(c("LP", "ML", "Basal", "Basal", "ML", "LP", "Basal", "ML", "LP"))
x$samples$group <- group
x <- calcNormFactors(x[filterByExpr(x, group = group), , keep.lib.sizes = FALSE])
design <- model.matrix(~group)
fit <- eBayes(lmFit(voom(x, design), design))
tt <- topTable(fit, coef = 2:3, number = Inf, sort.by = "none")
fitted <- fit$coefficients %*% t(design) # the groups' weighted means, at each sample
pick <- seq(1, nrow(x), by = 10)
out <- function(v) format(v, digits = 17)
write.csv(data.frame(gene = rownames(x)[pick], F = out(tt$F[pick]), P.Value = out(tt$P.Value[pick]), adj.P.Val = out(tt$adj.P.Val[pick]),
  Basal = out(fitted[pick, 3]), LP = out(fitted[pick, 1]), ML = out(fitted[pick, 2])), "voom3.csv", row.names = FALSE)
cat(sprintf("%.17g %.17g\n", fit$df.prior, fit$s2.prior), file = "voom3_prior.txt")

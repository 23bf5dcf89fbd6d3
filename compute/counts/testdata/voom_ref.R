# Reference for counts.Voom: limma 3.54's voom, lmFit and eBayes (design ~ group) on
# the simulated counts (counts.csv, 7 samples a group) after edgeR's filterByExpr and
# TMM, as limma's user guide does it. Writes voom.csv (every kept gene: logFC,
# AveExpr, t, P.Value, adj.P.Val) and voom_prior.txt (df.prior, s2.prior).
# Run from this folder: Rscript voom_ref.R
suppressMessages({library(limma); library(edgeR)})
y <- as.matrix(read.csv("counts.csv", row.names = 1))
group <- factor(rep(1:2, each = 7))
d <- DGEList(y, group = group)
d <- calcNormFactors(d[filterByExpr(d), , keep.lib.sizes = FALSE])
design <- model.matrix(~group)
v <- voom(d, design)
fit <- eBayes(lmFit(v, design))
tt <- topTable(fit, coef = 2, number = Inf, sort.by = "none")
out <- function(x) format(x, digits = 17)
write.csv(data.frame(gene = rownames(tt), logFC = out(tt$logFC), AveExpr = out(tt$AveExpr), t = out(tt$t), P.Value = out(tt$P.Value), adj.P.Val = out(tt$adj.P.Val)), "voom.csv", row.names = FALSE)
cat(sprintf("%.17g %.17g\n", fit$df.prior, fit$s2.prior), file = "voom_prior.txt")
cat(R.version.string, "limma", as.character(packageVersion("limma")), "edgeR", as.character(packageVersion("edgeR")), "\n", file = "voom_versions.txt")

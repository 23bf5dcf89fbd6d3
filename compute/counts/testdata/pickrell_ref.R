# Real RNA-seq reference for compute/counts: pickrell2k.tsv.gz holds 2,028 genes (every
# 19th of 38,415, and the six sex-chromosome genes XIST, RPS4Y1, DDX3Y, KDM5D, UTY,
# EIF1AY) of the 69 lymphoblastoid cell lines of Pickrell et al. 2010 (Nature 464:768;
# GEO GSE19480), raw counts as Bioconductor's tweeDEseqCountData 1.45.0 ships them
# (data/pickrell1.rda, github.com/bioc/tweeDEseqCountData commit 25ac306), the second
# row the sex (female 40, male 29). edgeR 3.40 and limma 3.54 on it, male against
# female: pickrell_norm.csv (each sample's library size over the kept genes and TMM
# factor), pickrell_keep.txt (the kept genes), pickrell_voom.csv (voom/lmFit/eBayes:
# logFC, AveExpr, t, P.Value) and pickrell_prior.txt. Run from this folder:
#   Rscript pickrell_ref.R
suppressMessages({library(limma); library(edgeR)})
raw <- read.delim(gzfile("pickrell2k.tsv.gz"), check.names = FALSE)
sex <- factor(unlist(raw[1, -1]), levels = c("female", "male"))
y <- as.matrix(raw[-1, -1]); storage.mode(y) <- "numeric"; rownames(y) <- raw[-1, 1]
d <- DGEList(y, group = sex)
keep <- filterByExpr(d)
d <- calcNormFactors(d[keep, , keep.lib.sizes = FALSE])
out <- function(x) format(x, digits = 17)
write.csv(data.frame(sample = colnames(d), lib = out(d$samples$lib.size), factor = out(d$samples$norm.factors)), "pickrell_norm.csv", row.names = FALSE)
writeLines(rownames(d), "pickrell_keep.txt")
design <- model.matrix(~sex)
fit <- eBayes(lmFit(voom(d, design), design))
tt <- topTable(fit, coef = 2, number = Inf, sort.by = "none")
write.csv(data.frame(gene = rownames(tt), logFC = out(tt$logFC), AveExpr = out(tt$AveExpr), t = out(tt$t), P.Value = out(tt$P.Value)), "pickrell_voom.csv", row.names = FALSE)
cat(sprintf("%.17g %.17g\n", fit$df.prior, fit$s2.prior), file = "pickrell_prior.txt")

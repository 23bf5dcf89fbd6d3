# Reference for compute/counts: edgeR 3.40's filterByExpr, calcNormFactors (TMM) and
# cpm(log = TRUE, prior.count = 2) on simulated counts (no RNA-seq set is in
# ../shared/data): 3,000 genes x 14 samples (7 per group), negative binomial
# (dispersion 0.2) around gamma-distributed means, 600 genes silent, 10% of the
# genes 4-fold up in group 2, library sizes 0.5x to 2x; set.seed(2026).
# Writes counts.csv (genes x samples, the group in the header), tmm.csv, keep.csv and
# logcpm.csv (the first 200 genes). Run from this folder: Rscript edger_ref.R
suppressMessages(library(edgeR))
set.seed(2026)
G <- 3000; n <- 14
group <- rep(1:2, each = 7)
mu <- rgamma(G, shape = 0.6, scale = 40)
mu[sample(G, 600)] <- 0
fc <- rep(1, G); fc[sample(G, 300)] <- 4
lib <- runif(n, 0.5, 2)
y <- sapply(1:n, function(s) rnbinom(G, mu = mu * lib[s] * ifelse(group[s] == 2, fc, 1), size = 5))
colnames(y) <- sprintf("s%02d_g%d", 1:n, group)
rownames(y) <- sprintf("gene%04d", 1:G)
write.csv(y, "counts.csv")
f <- calcNormFactors(y)
write.csv(data.frame(sample = colnames(y), lib = colSums(y), tmm = sprintf("%.17g", f)), "tmm.csv", row.names = FALSE)
keep <- filterByExpr(y, group = group)
write.csv(data.frame(gene = rownames(y), keep = keep), "keep.csv", row.names = FALSE)
lc <- cpm(y, lib.size = colSums(y) * f, log = TRUE, prior.count = 2)
write.csv(format(lc[1:200, ], digits = 17), "logcpm.csv")
cat(R.version.string, "edgeR", as.character(packageVersion("edgeR")), "\n", file = "versions.txt")

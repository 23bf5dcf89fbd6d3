# Reference for counts.Norm: edgeR 3.40 fitted on training samples and frozen for the
# others. Training: samples 1-5 and 8-12 of counts.csv (5 per group); test: 6, 7, 13, 14.
# On the training samples: filterByExpr(group), the kept genes' lib sizes, TMM factors and
# cpm(log = TRUE, prior.count = 2) as edgeR computes them. On a test sample: its library
# size over the training-kept genes, edgeR's own TMM of it against the training
# reference column (edgeR:::.calcFactorTMM, the reference chosen as calcNormFactors
# chooses it) divided by the geometric mean of the training samples' raw factors, and
# log2((x + p) / (L f + 2 p) 1e6), p = 2 L f / mean(training L f), cpm's prior scaling.
# Run from this folder: Rscript norm_ref.R
suppressMessages(library(edgeR))
y <- as.matrix(read.csv("counts.csv", row.names = 1))
group <- rep(1:2, each = 7)
tr <- c(1:5, 8:12); te <- c(6, 7, 13, 14)
d <- DGEList(y[, tr], group = group[tr])
keep <- filterByExpr(d)
d <- calcNormFactors(d[keep, , keep.lib.sizes = FALSE])
lc <- cpm(d, log = TRUE, prior.count = 2)
f75 <- edgeR:::.calcFactorQuantile(data = d$counts, lib.size = d$samples$lib.size, p = 0.75)
ref <- which.min(abs(f75 - mean(f75)))
raw <- sapply(seq_len(ncol(d)), function(s) edgeR:::.calcFactorTMM(obs = d$counts[, s], ref = d$counts[, ref],
  libsize.obs = d$samples$lib.size[s], libsize.ref = d$samples$lib.size[ref]))
scale <- exp(mean(log(raw)))
stopifnot(max(abs(raw / scale - d$samples$norm.factors)) < 1e-12)
yt <- y[keep, te]; libt <- colSums(yt)
ft <- sapply(seq_along(te), function(s) edgeR:::.calcFactorTMM(obs = yt[, s], ref = d$counts[, ref],
  libsize.obs = libt[s], libsize.ref = d$samples$lib.size[ref])) / scale
meanEff <- mean(d$samples$lib.size * d$samples$norm.factors)
eff <- libt * ft; p <- 2 * eff / meanEff
lct <- log2(sweep(sweep(yt, 2, p, "+"), 2, eff + 2 * p, "/") * 1e6)
out <- function(x) format(x, digits = 17)
write.csv(data.frame(sample = c(colnames(d), colnames(yt)), lib = out(c(d$samples$lib.size, libt)),
  factor = out(c(d$samples$norm.factors, ft)), set = rep(c("train", "test"), c(length(tr), length(te)))),
  "norm_factors.csv", row.names = FALSE)
write.csv(data.frame(gene = rownames(y), keep = keep), "norm_keep.csv", row.names = FALSE)
write.csv(out(cbind(lc, lct)), "norm_logcpm.csv")
cat(sprintf("reference sample %s, scale %.17g, mean effective library %.17g\n", colnames(d)[ref], scale, meanEff), file = "norm_ref.txt")

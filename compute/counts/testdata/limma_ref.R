# Reference for counts.Limma: limma's lmFit and eBayes without weights on log2
# intensities, as DEP tests proteomics data: the Proteus runs' filtered log2 LFQ
# intensities imputed by impute.knn (../../impute/testdata/knn.csv, written by
# ../../impute/testdata/impute_ref.R), design ~ condition (A the reference).
# Writes limma_proteus.csv (protein, logFC, AveExpr, t, P.Value, 17 digits) and
# limma_proteus_prior.txt (df.prior, s2.prior). Run from this folder: Rscript limma_ref.R
suppressMessages(library(limma))
y <- as.matrix(read.csv("../../impute/testdata/knn.csv", row.names = 1, check.names = FALSE))
condition <- factor(substr(colnames(y), 1, 1))
fit <- eBayes(lmFit(y, model.matrix(~condition)))
out <- data.frame(protein = rownames(y), logFC = fit$coefficients[, 2], AveExpr = fit$Amean, t = fit$t[, 2], P.Value = fit$p.value[, 2])
out[, -1] <- lapply(out[, -1], function(v) sprintf("%.17g", v))
write.csv(out, "limma_proteus.csv", row.names = FALSE, quote = FALSE)
writeLines(sprintf("%.17g", c(fit$df.prior, fit$s2.prior)), "limma_proteus_prior.txt")
cat(R.version.string, "limma", as.character(packageVersion("limma")), "\n", file = "limma_versions.txt")

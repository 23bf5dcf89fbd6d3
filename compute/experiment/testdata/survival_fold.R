# The reference for TestSurvivalFoldEqualsR (compute/experiment): one split of the
# DLBCL CHOP patients (test: every fifth, 1-based), the genes ranked by the univariate
# Cox score test on the training samples, and at each k the ridge Cox model of the top
# k genes (z-scored with the training mean and population SD, theta = 1) scored by
# Harrell's C on the test samples, and Uno's C truncated at 5 years (timewt "n/G2", ymax 5). R 4.2.2,
# survival 3.5-3.
#   Rscript survival_fold.R > survival_fold.csv
suppressMessages(library(survival))
d <- read.csv("../../../../shared/data/dlbcl_chop_survival.csv", check.names = FALSE)
x <- as.matrix(d[, -(1:3)])
idx <- seq_len(nrow(d))
test <- idx[idx %% 5 == 0]
train <- setdiff(idx, test)
ytr <- Surv(d$time[train], d$event[train])
yte <- Surv(d$time[test], d$event[test])
chisq <- sapply(seq_len(ncol(x)), function(j) {
  v <- x[train, j]
  if (sd(v) == 0) return(0)
  coxph(ytr ~ v, ties = "efron", iter.max = 0)$score
})
ord <- order(-chisq)
cat("k,c,top,uno_tau5\n")
for (k in c(1, 2, 5, 10, 20, 50)) {
  g <- ord[seq_len(k)]
  m <- colMeans(x[train, g, drop = FALSE])
  s <- apply(x[train, g, drop = FALSE], 2, function(v) sqrt(mean((v - mean(v))^2)))
  ztr <- sweep(sweep(x[train, g, drop = FALSE], 2, m), 2, s, "/")
  zte <- sweep(sweep(x[test, g, drop = FALSE], 2, m), 2, s, "/")
  fit <- coxph(ytr ~ ridge(ztr, theta = 1, scale = FALSE), ties = "efron")
  lp <- drop(zte %*% coef(fit))
  cc <- concordance(yte ~ lp, reverse = TRUE)$concordance
  uno <- concordance(yte ~ lp, reverse = TRUE, timewt = "n/G2", ymax = 5)$concordance
  cat(sprintf("%d,%.15g,%s,%.15g\n", k, cc, paste(colnames(x)[ord[seq_len(min(k, 10))]], collapse = ";"), uno))
}

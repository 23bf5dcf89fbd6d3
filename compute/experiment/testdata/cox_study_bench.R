# R's side of BenchmarkStudyCoxDLBCL/1x10 (survival_test.go): what the default survival
# study does, written as a user of survival would: one repetition of 10-fold CV on DLBCL
# CHOP (folds stratified by event), in each training set every probe ranked by the
# univariate Cox score test (coxph with iter.max = 0, Efron ties) and at k = 1..50 the
# ridge Cox model (theta 1) of the top k genes z-scored on the training samples, scored
# by Harrell's C on the held-out samples. Prints the elapsed seconds; the Go side runs
# the same work. R 4.2.2, survival 3.5-3. From the repository root:
#   go test -run '^$' -bench 'StudyCoxDLBCL/1x10' -benchtime 3x ./compute/experiment/ && Rscript compute/experiment/testdata/cox_study_bench.R
suppressMessages(library(survival))
d <- read.csv(file.path("..", "shared", "data", "dlbcl_chop_survival.csv"), check.names = FALSE)
x <- as.matrix(d[, -(1:3)])
set.seed(1)
n <- nrow(d)
fold <- integer(n)
for (e in 0:1) { # stratified by event
  i <- which(d$event == e)
  fold[i] <- sample(rep_len(1:10, length(i)))
}
start <- proc.time()[["elapsed"]]
cs <- matrix(NA, 10, 50)
for (f in 1:10) {
  train <- which(fold != f); test <- which(fold == f)
  ytr <- Surv(d$time[train], d$event[train]); yte <- Surv(d$time[test], d$event[test])
  chisq <- sapply(seq_len(ncol(x)), function(j) {
    v <- x[train, j]
    if (sd(v) == 0) return(0)
    coxph(ytr ~ v, ties = "efron", iter.max = 0)$score
  })
  ord <- order(-chisq)
  for (k in 1:50) {
    g <- ord[seq_len(k)]
    m <- colMeans(x[train, g, drop = FALSE])
    s <- apply(x[train, g, drop = FALSE], 2, function(v) sqrt(mean((v - mean(v))^2)))
    ztr <- sweep(sweep(x[train, g, drop = FALSE], 2, m), 2, s, "/")
    zte <- sweep(sweep(x[test, g, drop = FALSE], 2, m), 2, s, "/")
    fit <- coxph(ytr ~ ridge(ztr, theta = 1, scale = FALSE), ties = "efron")
    lp <- drop(zte %*% coef(fit))
    cs[f, k] <- concordance(yte ~ lp, reverse = TRUE)$concordance
  }
}
el <- proc.time()[["elapsed"]] - start
cat(sprintf("R survival, 1 x 10-fold CV of the Cox score test and C at k = 1..50 on DLBCL CHOP: %.1f s (mean C at k = 10: %.3f)\n", el, mean(cs[, 10])))

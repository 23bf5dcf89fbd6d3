# glmnet's side of BenchmarkCoxNetDLBCL and BenchmarkCoxNetAML (coxnet_bench_test.go):
# the elastic-net Cox path with glmnet's automatic lambdas (glmnet 4.1-6, R 4.2.2), on the
# times and columns coxnet_ref.R gives it, timed by system.time over several runs (the
# median elapsed time). Issue 53 asks Steadfast to take 3x glmnet's time at most. Run both
# back to back from the repository root, on a machine otherwise as idle as can be:
#   go test -run '^$' -bench 'CoxNet(DLBCL|AML)' -benchtime 10x ./compute/survival/ && Rscript compute/survival/testdata/coxnet_bench.R
suppressMessages({library(glmnet); library(survival)})
runs <- 10
sets <- list(DLBCL = "dlbcl_chop_survival.csv", AML = "aml_survival.csv")
for (set in names(sets)) {
  d <- read.csv(file.path("..", "shared", "data", sets[[set]]), check.names = FALSE)
  x <- as.matrix(d[, -(1:3)])
  y <- Surv(rank(d$time, ties.method = "min") / nrow(x), d$event)
  for (a in c(1, 0.5)) {
    el <- replicate(runs, system.time(glmnet(x, y, family = "cox", alpha = a))[["elapsed"]])
    cat(sprintf("glmnet %s alpha=%s: median %.0f ms over %d runs (min %.0f, max %.0f)\n",
                set, a, 1000 * median(el), runs, 1000 * min(el), 1000 * max(el)))
  }
}

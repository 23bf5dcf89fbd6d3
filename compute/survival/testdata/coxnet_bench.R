# glmnet's side of BenchmarkCoxNetDLBCL and BenchmarkCoxNetAML (coxnet_bench_test.go):
# the elastic-net Cox path with glmnet's automatic lambdas (glmnet 4.1-6, R 4.2.2), given
# the times and columns that coxnet_ref.R gives it (the columns in Steadfast's visiting
# order, so both take the same steps; glmnet on the file's order, another path, for
# comparison), timed by system.time over several runs: the median elapsed time. Issue 53
# asks Steadfast to take 3x glmnet's time at most. Run both back to back from the
# repository root, the machine otherwise as idle as can be:
#   go test -run '^$' -bench 'CoxNet(DLBCL|AML)' -benchtime 10x ./compute/survival/ && Rscript compute/survival/testdata/coxnet_bench.R
suppressMessages({library(glmnet); library(survival)})
runs <- 10
score_order <- function(x, time, event) { # as coxnet_ref.R's breslow_score_order
  xs <- scale(x, center = TRUE, scale = apply(x, 2, function(v) sqrt(mean((v - mean(v))^2))))
  dt <- sort(unique(time[event == 1]))
  H <- cumsum(sapply(dt, function(t) sum(time == t & event == 1) / sum(time >= t)))
  Hi <- sapply(time, function(t) if (any(dt <= t)) H[max(which(dt <= t))] else 0)
  order(-abs(colSums(xs * (event - Hi))))
}
sets <- list(DLBCL = "dlbcl_chop_survival.csv", AML = "aml_survival.csv")
for (set in names(sets)) {
  d <- read.csv(file.path("..", "shared", "data", sets[[set]]), check.names = FALSE)
  x <- as.matrix(d[, -(1:3)])
  y <- Surv(rank(d$time, ties.method = "min") / nrow(x), d$event)
  xo <- x[, score_order(x, d$time, d$event)]
  for (a in c(1, 0.5)) {
    for (cols in c("visiting order", "file order")) {
      xx <- if (cols == "file order") x else xo
      el <- replicate(runs, system.time(glmnet(xx, y, family = "cox", alpha = a))[["elapsed"]])
      cat(sprintf("glmnet %s alpha=%s, columns in the %s: median %.0f ms over %d runs (min %.0f, max %.0f)\n",
                  set, a, cols, 1000 * median(el), runs, 1000 * min(el), 1000 * max(el)))
    }
  }
}

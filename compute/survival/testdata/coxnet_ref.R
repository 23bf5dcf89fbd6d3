# glmnet references for coxnet_test.go and coxnet_rank_test.go: the elastic-net Cox path of glmnet 4.1-6 (R 4.2.2,
# survival 3.5-3) on DLBCL CHOP (181 x 3833) and AML (116 x 6283), alpha 1 and 0.5.
# From the repository root (about two minutes):
#   Rscript compute/survival/testdata/coxnet_ref.R
# writes compute/survival/testdata/coxnet_{dlbcl,aml}_a{1,0.5}.txt and coxnet_dlbcl_{user,limits,early}.txt.
#
# Times. glmnet refuses a time <= 0, and each file has one event at time 0 (CHOP_V173,
# AML_V86), which Steadfast keeps as survival::coxph does. The Breslow partial likelihood
# depends on the times only through their order and ties, so glmnet is given
# rank(time, ties = "min") / n: positive, the same order and ties, the time-0 event the
# earliest, no sample dropped (checked below with coxph's log likelihood). The ranks
# divided by n stay below 1, where glmnet's 100 machine epsilons added to censored times
# (so that a sample censored at an event time is at risk there) are not lost to rounding,
# as they are on AML's times in days.
#
# Column order. glmnet visits the columns in their order and stops at a tolerance, so
# its path depends on that order; Steadfast visits them by decreasing |score| at beta = 0.
# The reference path is glmnet on the columns in that order ("order" below, 1-based);
# "orig_*" is glmnet on the file's order, for comparison.
#
# Each file: "key value value ..." lines; entry and coef lines hold name:value pairs;
# steps are 0-based indices into the path's lambdas.
suppressMessages({library(glmnet); library(survival)})
stopifnot(packageVersion("glmnet") == "4.1.6")
out_dir <- "compute/survival/testdata"
g17 <- function(v) sprintf("%.17g", v)
pairs <- function(names, v) if (length(v)) paste(paste0(names, ":", g17(v)), collapse = " ") else ""

breslow_score_order <- function(x, time, event) {
  n <- nrow(x)
  xs <- scale(x, center = TRUE, scale = apply(x, 2, function(v) sqrt(mean((v - mean(v))^2))))
  # Breslow cumulative hazard at each sample's time (a sample censored at t at risk at t)
  dt <- sort(unique(time[event == 1]))
  H <- cumsum(sapply(dt, function(t) sum(time == t & event == 1) / sum(time >= t)))
  Hi <- sapply(time, function(t) if (any(dt <= t)) H[max(which(dt <= t))] else 0)
  ga <- abs(colSums(xs * (event - Hi))) / n
  order(-ga)
}

entry_steps <- function(B) {
  nz <- as.matrix(B != 0)
  s <- apply(nz, 1, function(r) if (any(r)) which(r)[1] - 1 else NA)
  s[!is.na(s)]
}

write_path <- function(con, prefix, fit, steps) {
  B <- fit$beta
  e <- entry_steps(B)
  writeLines(paste(paste0(prefix, "lambda"), paste(g17(fit$lambda), collapse = " ")), con)
  writeLines(paste(paste0(prefix, "devratio"), paste(g17(fit$dev.ratio), collapse = " ")), con)
  writeLines(paste(paste0(prefix, "nulldev"), g17(fit$nulldev)), con)
  writeLines(paste(paste0(prefix, "entry"), if (length(e)) paste(paste0(names(e), ":", e), collapse = " ") else ""), con)
  for (s in steps[steps <= length(fit$lambda)]) {
    b <- B[, s]
    nz <- which(b != 0)
    writeLines(paste(paste0(prefix, "coef"), s - 1, pairs(names(b)[nz], b[nz])), con)
  }
}

sets <- list(dlbcl = "dlbcl_chop_survival.csv", aml = "aml_survival.csv")
for (set in names(sets)) {
  d <- read.csv(file.path("..", "shared", "data", sets[[set]]), check.names = FALSE)
  x <- as.matrix(d[, -(1:3)])
  n <- nrow(x)
  tr <- rank(d$time, ties.method = "min") / n
  y <- Surv(tr, d$event)
  # the rank times give coxph's Breslow log likelihood on the real times, time 0 kept
  eta <- drop(scale(x[, 1:5]) %*% c(0.3, -0.2, 0.1, 0.25, -0.15))
  l_time <- coxph(Surv(d$time, d$event) ~ offset(eta), ties = "breslow")$loglik
  l_rank <- coxph(y ~ offset(eta), ties = "breslow")$loglik
  stopifnot(abs(l_time - l_rank) < 1e-10 * abs(l_time))
  ord <- breslow_score_order(x, d$time, d$event)
  set.seed(53)
  foldid <- sample(rep(1:10, length.out = n))
  stopifnot(all(tapply(d$event, foldid, sum) > 0))
  for (a in c(1, 0.5)) {
    con <- file(file.path(out_dir, sprintf("coxnet_%s_a%s.txt", set, a)), "w")
    writeLines(sprintf("# glmnet %s, R %s: glmnet(x[, order], Surv(rank(time)/n, event), family = \"cox\", alpha = %s)",
                       packageVersion("glmnet"), getRversion(), a), con)
    writeLines(paste("order", paste(ord, collapse = " ")), con)
    fit <- glmnet(x[, ord], y, family = "cox", alpha = a)
    L <- length(fit$lambda)
    steps <- unique(c(2, 5, 10, 20, 30, 45, 60, 80, L))
    write_path(con, "", fit, steps)
    writeLines(paste("npasses", fit$npasses), con)
    s_mid <- sqrt(fit$lambda[10] * fit$lambda[11]) # between two lambdas: glmnet interpolates
    b <- coef(fit, s = s_mid)[, 1]
    writeLines(paste("interp", g17(s_mid), pairs(names(b)[b != 0], b[b != 0])), con)
    fit0 <- glmnet(x, y, family = "cox", alpha = a)
    write_path(con, "orig_", fit0, steps)
    cv <- cv.glmnet(x[, ord], y, family = "cox", alpha = a, foldid = foldid)
    stopifnot(identical(cv$lambda, fit$lambda))
    writeLines(paste("folds", paste(foldid, collapse = " ")), con)
    writeLines(paste("cvm", paste(g17(cv$cvm), collapse = " ")), con)
    writeLines(paste("cvsd", paste(g17(cv$cvsd), collapse = " ")), con)
    writeLines(paste("cvindex", cv$index[1] - 1, cv$index[2] - 1, g17(cv$lambda.min), g17(cv$lambda.1se)), con)
    for (s in c("lambda.min", "lambda.1se")) {
      b <- coef(cv, s = s)[, 1]
      writeLines(paste(paste0("cvcoef_", sub("lambda.", "", s, fixed = TRUE)), pairs(names(b)[b != 0], b[b != 0])), con)
    }
    close(con)
    if (set == "dlbcl" && a == 1) { # lambdas given: all fitted, the first not at 9.9e35
      ulam <- fit$lambda[1] * c(1.1, 0.9, 0.75, 0.6, 0.5, 0.4, 0.33, 0.27, 0.22, 0.18)
      fu <- glmnet(x[, ord], y, family = "cox", alpha = a, lambda = ulam)
      con <- file(file.path(out_dir, "coxnet_dlbcl_user.txt"), "w")
      writeLines(sprintf("# glmnet %s: glmnet(x[, order], Surv(rank(time)/n, event), family = \"cox\", lambda = these)", packageVersion("glmnet")), con)
      writeLines(paste("order", paste(ord, collapse = " ")), con)
      write_path(con, "", fu, seq_along(ulam))
      close(con)
      # dfmax: the path ends after the first lambda with more than 10 non-zero; pmax: before
      # the lambda that would make more than 20 ever non-zero (glmnet warns)
      con <- file(file.path(out_dir, "coxnet_dlbcl_limits.txt"), "w")
      writeLines(sprintf("# glmnet %s: glmnet(x[, order], Surv(rank(time)/n, event), family = \"cox\", dfmax = 10), then pmax = 20", packageVersion("glmnet")), con)
      fd <- glmnet(x[, ord], y, family = "cox", alpha = a, dfmax = 10)
      write_path(con, "dfmax_", fd, length(fd$lambda))
      fp <- suppressWarnings(glmnet(x[, ord], y, family = "cox", alpha = a, pmax = 20))
      write_path(con, "pmax_", fp, length(fp$lambda))
      close(con)
      # the first 100 and 150 probe sets (n > p): the path ends early, on the deviance
      # ratio's gain (100), or on glmnet's numerical error, a non-positive weight (150)
      con <- file(file.path(out_dir, "coxnet_dlbcl_early.txt"), "w")
      writeLines(sprintf("# glmnet %s: glmnet(x[, 1:p][, order], Surv(rank(time)/n, event), family = \"cox\", alpha = a)", packageVersion("glmnet")), con)
      for (p in c(100, 150)) for (ap in c(1, 0.5)) {
        op <- breslow_score_order(x[, 1:p], d$time, d$event)
        fe <- suppressWarnings(glmnet(x[, 1:p][, op], y, family = "cox", alpha = ap))
        write_path(con, sprintf("p%d_a%s_", p, ap), fe, length(fe$lambda))
      }
      close(con)
    }
  }
}

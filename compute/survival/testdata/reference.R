# Reference values for the survival package's tests on real data: multivariable Cox
# fits (with and without a ridge), Kaplan-Meier curves and log-rank tests of risk
# groups, Harrell's and Uno's concordance, the time-dependent AUC and calibration.
# R 4.2.2, survival 3.5-3, riskRegression 2022.11.28, jsonlite. Run from
# compute/survival after testdata/univariate.R (its output ranks the genes):
#   Rscript testdata/reference.R
# Writes testdata/reference.json (15 significant digits; NA as null).
suppressMessages({
  library(survival)
  library(riskRegression)
  library(jsonlite)
})
stopifnot(packageVersion("survival") == "3.5.3",
          packageVersion("riskRegression") == "2022.11.28")
data <- "../../../shared/data"
rd <- function(f) read.csv(file.path(data, f), check.names = FALSE)

kmtab <- function(time, event, times) {
  f <- survfit(Surv(time, event) ~ 1)
  tb <- summary(f)$table
  s <- summary(f, times = times, extend = TRUE)
  list(time = f$time, n_risk = f$n.risk, n_event = f$n.event, n_censor = f$n.censor,
       surv = f$surv, std_err = f$std.err, lower = f$lower, upper = f$upper,
       median = unname(tb["median"]), median_lcl = unname(tb["0.95LCL"]),
       median_ucl = unname(tb["0.95UCL"]),
       at = list(time = s$time, n_risk = s$n.risk, n_event = cumsum(s$n.event),
                 surv = s$surv, std_err = s$std.err, lower = s$lower, upper = s$upper))
}

coxout <- function(fit) {
  list(coef = unname(coef(fit)), var = c(t(fit$var)), loglik = fit$loglik,
       iter = fit$iter[length(fit$iter)], lp = unname(fit$linear.predictors),
       means = unname(fit$means), score = if (is.null(fit$score)) NA else fit$score,
       df = if (is.null(fit$df)) length(coef(fit)) else sum(fit$df),
       penalty = if (is.null(fit$penalty)) 0 else fit$penalty[length(fit$penalty)])
}

logrank <- function(time, event, g) {
  sd <- survdiff(Surv(time, event) ~ g)
  list(obs = unname(sd$obs), exp = unname(sd$exp), var = c(t(sd$var)),
       chisq = sd$chisq, p = pchisq(sd$chisq, length(sd$n) - 1, lower.tail = FALSE))
}

conc <- function(time, event, s, tau) {
  h <- concordance(Surv(time, event) ~ s, reverse = TRUE)
  u <- concordance(Surv(time, event) ~ s, reverse = TRUE, timewt = "n/G2", ymax = tau)
  list(harrell = list(c = h$concordance, se = sqrt(h$var), count = unname(h$count)),
       uno = list(c = u$concordance, se = sqrt(u$var), count = unname(u$count)))
}

tauc <- function(time, event, s, horizons) {
  d <- data.frame(time = time, event = event)
  sc <- Score(list(m = s), formula = Hist(time, event) ~ 1, data = d, times = horizons,
              metrics = "auc", se.fit = TRUE, cens.model = "km", null.model = FALSE)
  a <- sc$AUC$score
  list(times = a$times, auc = a$AUC, se = a$se)
}

calib <- function(fit, df, time, event, g, horizons) {
  sf <- survfit(fit, newdata = df)
  base <- survfit(fit, newdata = as.data.frame(as.list(fit$means)))
  ev <- base$n.event > 0
  out <- list(base_time = base$time[ev], base_cumhaz = base$cumhaz[ev], horizons = horizons,
              pred = list(), groups = list())
  for (h in seq_along(horizons)) {
    p <- summary(sf, times = horizons[h], extend = TRUE)$surv
    out$pred[[h]] <- c(p)
    grp <- list()
    for (k in sort(unique(g))) {
      sel <- g == k
      f <- survfit(Surv(time[sel], event[sel]) ~ 1)
      s <- summary(f, times = c(0, horizons[h]), extend = TRUE)
      grp[[length(grp) + 1]] <- list(group = k, n = sum(sel), predicted = mean(p[sel]),
        observed = s$surv[2], lower = s$lower[2], upper = s$upper[2],
        n_risk = s$n.risk[2], events = sum(s$n.event))
    }
    out$groups[[h]] <- grp
  }
  out
}

one <- function(d, genes, tau, horizons, times, ridges, valid = NULL) {
  time <- d$time
  event <- d$event
  X <- as.matrix(d[, genes])
  df <- as.data.frame(X)
  names(df) <- paste0("g", seq_along(genes))
  form <- as.formula(paste("Surv(time, event) ~", paste(names(df), collapse = "+")))
  fit <- coxph(form, data = cbind(time = time, event = event, df), ties = "efron")
  out <- list(genes = genes, cox = coxout(fit),
              lrt = unname(summary(fit)$logtest), sctest = unname(summary(fit)$sctest))
  out$ridge <- lapply(ridges, function(th) {
    r <- coxph(Surv(time, event) ~ ridge(X, theta = th, scale = FALSE), ties = "efron")
    c(list(theta = th), coxout(r))
  })
  lp <- unname(fit$linear.predictors)
  g2 <- as.integer(lp > median(lp))
  g3 <- findInterval(lp, quantile(lp, c(1, 2) / 3), left.open = TRUE)
  out$groups2 <- g2
  out$groups3 <- g3
  out$km <- list(all = kmtab(time, event, times))
  for (k in 0:1) out$km[[paste0("g", k)]] <- kmtab(time[g2 == k], event[g2 == k], times)
  out$logrank2 <- logrank(time, event, g2)
  out$logrank3 <- logrank(time, event, g3)
  top <- X[, 1]
  scores <- list(lp = lp, gene = unname(top), rounded = round(unname(top) * 2) / 2, neg = -lp)
  out$scores <- scores
  out$concordance <- lapply(scores, function(s) conc(time, event, s, tau))
  out$auc <- lapply(scores, function(s) tauc(time, event, s, horizons))
  out$calibration <- calib(fit, df, time, event, g3, horizons)
  if (!is.null(valid)) {
    vX <- as.matrix(valid[, genes])
    vlp <- c(sweep(vX, 2, fit$means) %*% coef(fit))
    out$valid <- list(lp = vlp,
                      concordance = conc(valid$time, valid$event, vlp, tau),
                      auc = tauc(valid$time, valid$event, vlp, horizons))
  }
  out
}

chop <- rd("dlbcl_chop_survival.csv")
rchop <- rd("dlbcl_rchop_survival.csv")
aml <- rd("aml_survival.csv")
uchop <- read.csv("testdata/univariate_dlbcl.csv")
uaml <- read.csv("testdata/univariate_aml.csv")
top <- function(u, k) u$gene[order(-u$sctest)][1:k]
pick <- function(d, seed) { set.seed(seed); sample(names(d)[-(1:3)], 5) }

ref <- list()
ref$dlbcl_top5 <- one(chop, top(uchop, 5), 5, c(2, 5), c(0, 1, 2, 5, 10), c(1, 10), valid = rchop)
ref$dlbcl_seed1 <- one(chop, pick(chop, 1), 5, c(2, 5), c(0, 1, 2, 5, 10), c(1))
ref$dlbcl_seed2 <- one(chop, pick(chop, 2), 5, c(2, 5), c(0, 1, 2, 5, 10), c(1))
ref$aml_top5 <- one(aml, top(uaml, 5), 1000, c(365, 1000), c(0, 365, 730, 1000, 2000), c(1, 10))
ref$aml_seed1 <- one(aml, pick(aml, 1), 1000, c(365, 1000), c(0, 365, 730, 1000, 2000), c(1))

# a ridge with nearly as many genes as events: the 50 best CHOP genes on R-CHOP (60 events)
genes50 <- top(uchop, 50)
X50 <- as.matrix(rchop[, genes50])
r50 <- coxph(Surv(rchop$time, rchop$event) ~ ridge(X50, theta = 5, scale = FALSE), ties = "efron")
ref$rchop_ridge50 <- c(list(genes = genes50, theta = 5), coxout(r50))

writeLines(toJSON(ref, digits = NA, auto_unbox = TRUE, na = "null"), "testdata/reference.json")

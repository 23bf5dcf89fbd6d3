# Reference values on small hand-made sets that exercise the edge rules: tied event
# times, events tied with censorings, a time-0 event, a single event, heavy ties in
# the score. R 4.2.2, survival 3.5-3, riskRegression 2022.11.28. Run from
# compute/survival:  Rscript testdata/small.R   (writes testdata/small.json)
suppressMessages({
  library(survival)
  library(riskRegression)
  library(jsonlite)
})
stopifnot(packageVersion("survival") == "3.5.3",
          packageVersion("riskRegression") == "2022.11.28")
one <- function(time, event, x, group, tau, horizon) {
  f <- survfit(Surv(time, event) ~ 1)
  tb <- summary(f)$table
  out <- list(time = time, event = event, x = x, group = group, tau = tau, horizon = horizon,
    km = list(time = f$time, n_risk = f$n.risk, n_event = f$n.event, surv = f$surv,
              std_err = f$std.err, lower = f$lower, upper = f$upper,
              median = unname(tb["median"]), median_lcl = unname(tb["0.95LCL"]),
              median_ucl = unname(tb["0.95UCL"])))
  if (length(unique(group)) > 1) {
    sd <- survdiff(Surv(time, event) ~ group)
    out$logrank <- list(obs = unname(sd$obs), exp = unname(sd$exp), chisq = sd$chisq)
  }
  fit <- suppressWarnings(coxph(Surv(time, event) ~ x, ties = "efron"))
  out$cox <- list(coef = unname(coef(fit)), se = sqrt(fit$var[1, 1]), loglik = fit$loglik,
                  score = fit$score, iter = fit$iter)
  h <- concordance(Surv(time, event) ~ x, reverse = TRUE)
  u <- concordance(Surv(time, event) ~ x, reverse = TRUE, timewt = "n/G2", ymax = tau)
  out$harrell <- list(c = h$concordance, se = sqrt(h$var), count = unname(h$count))
  out$uno <- list(c = u$concordance, se = sqrt(u$var), count = unname(u$count))
  if (any(time <= horizon & event == 1) && any(time > horizon)) {
    sc <- Score(list(m = x), formula = Hist(time, event) ~ 1,
                data = data.frame(time = time, event = event), times = horizon,
                metrics = "auc", se.fit = TRUE, cens.model = "km", null.model = FALSE)
    out$auc <- list(auc = sc$AUC$score$AUC, se = sc$AUC$score$se)
  }
  out
}
ref <- list()
# ties: a time-0 event; two events and a censoring at 1; event and censoring at 2 and 4
ref$ties <- one(time = c(1, 1, 1, 2, 2, 3, 4, 4, 5, 0),
                event = c(1, 1, 0, 1, 0, 1, 0, 1, 0, 1),
                x = c(0.5, 2, 1, 0.5, 3, 1, 2, 0.5, 1, 2.5),
                group = c(0, 1, 0, 1, 0, 1, 0, 1, 0, 1), tau = 3, horizon = 2)
# a single event
ref$oneevent <- one(time = c(2, 3, 5, 7, 11, 13), event = c(0, 1, 0, 0, 0, 0),
                    x = c(1, 2, 1.5, 0.2, 0.7, 1.1), group = c(0, 0, 0, 1, 1, 1),
                    tau = 10, horizon = 4)
# random, heavily tied times and scores
set.seed(3)
n <- 40
ref$random <- one(time = sample(0:8, n, replace = TRUE), event = rbinom(n, 1, 0.6),
                  x = round(rnorm(n), 0), group = sample(0:2, n, replace = TRUE),
                  tau = 5, horizon = 4)
writeLines(toJSON(ref, digits = NA, auto_unbox = TRUE, na = "null"), "testdata/small.json")

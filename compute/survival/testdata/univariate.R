# Reference for ScoreTests and UnivariateCox: a univariate Cox model per gene,
# coxph(Surv(time, event) ~ x[, j], ties = "efron") with coxph's defaults, for every
# gene of DLBCL (CHOP, 181 x 3,833) and AML (116 x 6,283).
# R 4.2.2, survival 3.5-3. Run from compute/survival:
#   Rscript testdata/univariate.R
# Writes testdata/univariate_dlbcl.csv and testdata/univariate_aml.csv:
# gene, sctest (score chi-square), coef, se, loglik0, loglik, iter, infinite (coxph's
# "coefficient may be infinite" warning).
suppressMessages(library(survival))
stopifnot(packageVersion("survival") == "3.5.3")
data <- "../../../shared/data"
one <- function(file, out) {
  d <- read.csv(file.path(data, file), check.names = FALSE)
  y <- Surv(d$time, d$event)
  genes <- names(d)[-(1:3)]
  rows <- lapply(genes, function(g) {
    warned <- FALSE
    fit <- withCallingHandlers(coxph(y ~ d[[g]], ties = "efron"),
      warning = function(w) {
        if (grepl("infinite", conditionMessage(w))) warned <<- TRUE
        invokeRestart("muffleWarning")
      })
    data.frame(gene = g, sctest = fit$score, coef = unname(coef(fit)),
               se = sqrt(fit$var[1, 1]), loglik0 = fit$loglik[1],
               loglik = fit$loglik[2], iter = fit$iter, infinite = warned)
  })
  r <- do.call(rbind, rows)
  num <- sapply(r, is.numeric)
  r[num] <- lapply(r[num], function(v) sprintf("%.17g", v))
  write.csv(r, out, row.names = FALSE, quote = FALSE)
}
one("dlbcl_chop_survival.csv", "testdata/univariate_dlbcl.csv")
one("aml_survival.csv", "testdata/univariate_aml.csv")

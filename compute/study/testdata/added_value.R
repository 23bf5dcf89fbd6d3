# The reference for TestAddedValueEqualsR (compute/study): what a survival signature's
# cross-validated risk score adds to clinical covariates on the NKI 70-gene breast
# cancer data (nki70.csv; PROVENANCE.md). The score is Steadfast's (nki70_score.csv,
# written by TestWriteNKIScore: the first repetition's pooled held-out risk scores of
# the top 10 genes of a 2 x 5-fold CV study, each in its resample's training SD).
# For each case: coxph (Efron) of the covariates, and of the covariates + the score, on
# the complete cases; every term's coefficient, SE, hazard ratio with its 95% interval
# and Wald p; the log partial likelihoods; the likelihood-ratio test of adding the score
# (anova, 1 df); Harrell's C of both fits with their covariance (concordance(fit0,
# fit1)) and the difference with contrast c(-1, 1). Categorical covariates as factors
# with Steadfast's levels (first the reference): Grade Well diff, Intermediate, Poorly
# diff; ER Negative, Positive; Diam <=2cm, >2cm; N 1-3, >=4.
# Case "missing": Age missing for the 3rd, 10th and 50th patients and Grade for the
# 20th (and 10th), to check complete cases. R 4.2.2, survival 3.5-3, jsonlite 1.8.4.
#   Rscript added_value.R > added_value.json
suppressMessages({library(survival); library(jsonlite)})
d <- read.csv("nki70.csv", check.names = FALSE)
s <- read.csv("nki70_score.csv")
stopifnot(identical(s$sample, d$sample))
d$score <- s$score
d$Grade <- factor(d$Grade, levels = c("Well diff", "Intermediate", "Poorly diff"))
d$ER <- factor(d$ER, levels = c("Negative", "Positive"))
d$Diam <- factor(d$Diam, levels = c("<=2cm", ">2cm"))
d$N <- factor(d$N, levels = c("1-3", ">=4"))
dm <- d
dm$Age[c(3, 10, 50)] <- NA
dm$Grade[c(10, 20)] <- NA

terms <- function(fit) {
  s <- summary(fit)$coefficients
  list(coef = unname(s[, "coef"]), se = unname(s[, "se(coef)"]), hr = unname(s[, "exp(coef)"]),
       low = unname(summary(fit)$conf.int[, "lower .95"]), high = unname(summary(fit)$conf.int[, "upper .95"]),
       p = unname(s[, "Pr(>|z|)"]), loglik = fit$loglik[2])
}
case <- function(data, covs) {
  cc <- data[complete.cases(data[, covs]), ]
  f0 <- coxph(as.formula(paste("Surv(time, event) ~", paste(covs, collapse = " + "))), data = cc, ties = "efron")
  f1 <- update(f0, . ~ . + score)
  a <- anova(f0, f1)
  co <- concordance(f0, f1)
  contr <- c(-1, 1)
  list(covariates = covs, n = nrow(cc), events = sum(cc$event),
       base = terms(f0), full = terms(f1),
       lrt = a$Chisq[2], lrt_p = a[["Pr(>|Chi|)"]][2],
       c = unname(coef(co)), c_var = unname(co$var),
       c_diff = drop(contr %*% coef(co)), c_diff_se = sqrt(drop(contr %*% vcov(co) %*% contr)))
}
out <- list(
  age_grade_er = case(d, c("Age", "Grade", "ER")),
  all = case(d, c("Diam", "N", "ER", "Grade", "Age")),
  missing = case(dm, c("Age", "Grade", "ER")))
cat(toJSON(out, digits = NA, auto_unbox = TRUE, pretty = TRUE), "\n")

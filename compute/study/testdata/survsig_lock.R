# The reference for TestSurvivalSignatureLockEqualsR (compute/study): the Cox model of
# the 10 DLBCL CHOP genes of largest univariate Cox score test on all 181 patients,
# z-scored with their means and population SDs, ridge theta = 1 (coxph's ridge(scale =
# FALSE)), Efron ties; its risk scores' Harrell's C (concordance, reverse), the hazard
# ratio per SD of the risk score, the log-rank test of the halves cut at the median
# score (a score equal to it in the lower half), and the predicted survival at 2 and 5
# years (survfit.coxph). R 4.2.2, survival 3.5-3.
#   Rscript survsig_lock.R > survsig_lock.json
suppressMessages(library(survival))
d <- read.csv("../../../../shared/data/dlbcl_chop_survival.csv", check.names = FALSE)
x <- as.matrix(d[, -(1:3)])
y <- Surv(d$time, d$event)
chisq <- sapply(seq_len(ncol(x)), function(j) coxph(y ~ x[, j], iter.max = 0)$score)
g <- order(-chisq)[1:10]
m <- colMeans(x[, g])
s <- apply(x[, g], 2, function(v) sqrt(mean((v - mean(v))^2)))
z <- sweep(sweep(x[, g], 2, m), 2, s, "/")
fit <- coxph(y ~ ridge(z, theta = 1, scale = FALSE), ties = "efron")
lp <- drop(sweep(z, 2, fit$means) %*% coef(fit))
cc <- concordance(y ~ lp, reverse = TRUE)
hr <- coxph(y ~ I(lp / sd(lp)))
grp <- as.integer(lp > quantile(lp, 0.5))
lr <- survdiff(y ~ grp)
sf <- summary(survfit(fit, newdata = data.frame(z = I(z))), times = c(2, 5))
num <- function(v) paste(sprintf("%.15g", v), collapse = ", ")
cat(sprintf('{"genes": [%s],\n "coef": [%s],\n "se": [%s],\n "c": %.15g, "c_se": %.15g,\n "hr": %.15g, "hr_low": %.15g, "hr_high": %.15g,\n "logrank_chisq": %.15g,\n "surv2": [%s],\n "surv5": [%s]}\n',
  paste0('"', colnames(x)[g], '"', collapse = ", "), num(coef(fit)), num(sqrt(diag(fit$var))),
  cc$concordance, sqrt(cc$var), summary(hr)$conf.int[1], summary(hr)$conf.int[3], summary(hr)$conf.int[4],
  lr$chisq, num(sf$surv[1, ]), num(sf$surv[2, ])))

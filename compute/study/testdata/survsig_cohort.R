# The reference for TestSurvivalCohortEqualsR (compute/study): the Cox model of
# survsig_lock.R (the 10 DLBCL CHOP genes of largest score test, z-scored with the CHOP
# means and population SDs, ridge theta 1, Efron) applied to the independent R-CHOP
# cohort: Harrell's C of its risk scores with the SE, the hazard ratio per training SD
# of the risk score, the log-rank test of the groups cut at the training median, Uno's
# C truncated at 5 years, and the predicted survival at 2 years of the first five
# patients. R 4.2.2, survival 3.5-3.
#   Rscript survsig_cohort.R > survsig_cohort.json
suppressMessages(library(survival))
d <- read.csv("../../../../shared/data/dlbcl_chop_survival.csv", check.names = FALSE)
v <- read.csv("../../../../shared/data/dlbcl_rchop_survival.csv", check.names = FALSE)
x <- as.matrix(d[, -(1:3)])
y <- Surv(d$time, d$event)
chisq <- sapply(seq_len(ncol(x)), function(j) coxph(y ~ x[, j], iter.max = 0)$score)
g <- order(-chisq)[1:10]
m <- colMeans(x[, g])
s <- apply(x[, g], 2, function(u) sqrt(mean((u - mean(u))^2)))
z <- sweep(sweep(x[, g], 2, m), 2, s, "/")
fit <- coxph(y ~ ridge(z, theta = 1, scale = FALSE), ties = "efron")
lp <- drop(sweep(z, 2, fit$means) %*% coef(fit))
xv <- as.matrix(v[, colnames(x)[g]])
zv <- sweep(sweep(xv, 2, m), 2, s, "/")
lpv <- drop(sweep(zv, 2, fit$means) %*% coef(fit))
yv <- Surv(v$time, v$event)
cc <- concordance(yv ~ lpv, reverse = TRUE)
uno <- concordance(yv ~ lpv, reverse = TRUE, timewt = "n/G2", ymax = 5)
hr <- summary(coxph(yv ~ I(lpv / sd(lp))))$conf.int
grp <- as.integer(lpv > quantile(lp, 0.5))
lr <- survdiff(yv ~ grp)
sf <- summary(survfit(fit, newdata = data.frame(z = I(zv[1:5, ]))), times = 2)
cat(sprintf('{"c": %.15g, "c_se": %.15g, "uno": %.15g, "hr": %.15g, "hr_low": %.15g, "hr_high": %.15g, "logrank_chisq": %.15g, "high": %d, "surv2": [%s]}\n',
  cc$concordance, sqrt(cc$var), uno$concordance, hr[1], hr[3], hr[4], lr$chisq, sum(grp), paste(sprintf("%.15g", sf$surv), collapse = ", ")))

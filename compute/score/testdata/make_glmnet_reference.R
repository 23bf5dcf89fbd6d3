# glmnet reference for TestLogisticPathMatchesGlmnet: L1 logistic regression on z-scored
# Colon (all 2000 genes), class "normal" = 1, at 8 lambdas from lambda_max down to 0.05 lambda_max.
# Made with (Debian r-base-core, r-cran-glmnet), from the repository root:
#   Rscript compute/score/testdata/make_glmnet_reference.R > compute/score/testdata/colon_glmnet.txt
suppressMessages(library(glmnet))
d <- read.csv("../shared/data/colon.csv", check.names = FALSE)
x <- as.matrix(d[, -ncol(d)])
x <- scale(x)  # mean 0, sd 1 (n-1)
y <- as.numeric(d$class == d$class[1] & FALSE) + as.numeric(d$class != d$class[1])
n <- nrow(x)
lmax <- max(abs(t(x) %*% (y - mean(y)))) / n
lams <- lmax * 0.05^((0:7) / 7)
fit <- glmnet(x, y, family = "binomial", alpha = 1, lambda = lams, standardize = FALSE,
              thresh = 1e-14, maxit = 1e7)
for (l in seq_along(lams)) {
  b <- coef(fit, s = lams[l], exact = FALSE)[, 1]
  nz <- which(b[-1] != 0)
  cat("lambda", sprintf("%.17g", lams[l]), "intercept", sprintf("%.17g", b[1]), "\n")
  cat(paste(sprintf("%s:%.17g", colnames(x)[nz], b[-1][nz]), collapse = " "), "\n")
}

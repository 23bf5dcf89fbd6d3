# Expected values of TestCVInterval (compute/signature/cv_test.go): eight samples,
# two repetitions of two folds. DeLong's variance of each repetition's pooled held-out
# AUC from pROC (var(roc, method = "delong")); the rest is the formula of
# signature.Interval written out. Run: Rscript cvinterval.R
suppressMessages(library(pROC))
options(digits = 17)
labels <- c(0, 1, 0, 1, 0, 1, 0, 1)
delong <- function(test, s) var(roc(labels[test + 1], s, levels = c(0, 1), direction = "<", quiet = TRUE), method = "delong")
interval <- function(folds) { # folds: list of list(rep, test (0-based), scores)
  aucs <- sapply(folds, function(f) as.numeric(auc(roc(labels[f$test + 1], f$s, levels = c(0, 1), direction = "<", quiet = TRUE))))
  V <- mean(sapply(split(folds, sapply(folds, `[[`, "rep")), function(r)
    delong(unlist(lapply(r, `[[`, "test")), unlist(lapply(r, `[[`, "s")))))
  J <- length(aucs); A <- mean(aucs); nTest <- 4; n <- 8; n1 <- 4; n2 <- 4
  z <- qnorm(0.975); m <- 4 * n1 * n2 / (n1 + n2 + 2)
  At <- (m * A + z^2 / 2) / (m + z^2)
  se2 <- max((1 + sqrt((n - nTest) / nTest)) * V + var(aucs) / J, At * (1 - At) / (m + z^2))
  se <- sqrt(se2)
  c(mean = A, V = V, se = se, low = max(0, A - z * se), high = min(1, A + z * se))
}
f <- function(rep, test, s) list(rep = rep, test = test, s = s)
print(interval(list(f(0, 0:3, c(0.1, 0.9, 0.2, 0.8)), f(0, 4:7, c(0.5, 0.9, 0.1, 0.3)),
                    f(1, c(0, 1, 4, 5), c(0.6, 0.5, 0.1, 0.2)), f(1, c(2, 3, 6, 7), c(0.5, 0.9, 0.1, 0.3)))))
perfect <- c(0.1, 0.9, 0.2, 0.8)
print(interval(list(f(0, 0:3, perfect), f(0, 4:7, perfect), f(1, c(0, 1, 4, 5), perfect), f(1, c(2, 3, 6, 7), perfect))))

# glmnet side of the stability-selection speed comparison (issue-4 note): L1-logistic
# paths at the same 30 lambdas (lambda_max down to 0.05 lambda_max) on 100 half-samples of
# the Lung-sized synthetic set, counting selections as Steadfast does. From the repository root:
#   steadfast synth --features 12533 --samples 181 --seed 1 -o /tmp/lung.csv
#   Rscript compute/score/testdata/glmnet_lung_timing.R /tmp/lung.csv
suppressMessages(library(glmnet))
d <- read.csv(commandArgs(TRUE)[1], check.names = FALSE)
x <- scale(as.matrix(d[, 2:(ncol(d) - 1)]))
y <- as.numeric(d$class != d$class[1])
n <- nrow(x)
lmax <- max(abs(t(x) %*% (y - mean(y)))) / n
lams <- lmax * 0.05^((0:29) / 29)
set.seed(1)
t0 <- proc.time()
count <- matrix(0, ncol(x), length(lams))
for (b in 1:100) {
  idx <- sample(n, n %/% 2)
  fit <- glmnet(x[idx, ], y[idx], family = "binomial", lambda = lams, standardize = FALSE)
  count <- count + (as.matrix(fit$beta) != 0)
}
el <- (proc.time() - t0)[["elapsed"]]
cat(sprintf("glmnet, 100 half-samples x 30 lambdas: %.1f s; max selection probability %.2f\n", el, max(count) / 100))

# Reference elastic-net logistic paths and cross-validation from glmnet 4.1-6 (R 4.2.2) for
# compute/classify's ENet and Logit (TestENetEqualsGlmnet, TestLogitCVEqualsCvGlmnet).
# Command, in compute/classify/testdata:
#   Rscript glmnet_ref.R
# Data (../../../../shared/data): Colon, log2 with values below 1 raised to 1, class tumor
# (glmnet's second level) against normal; SRBCT as read, classes BL, EWS, NB, RMS
# (multinomial). glmnet(x, y, family, alpha, standardize = TRUE, thresh = 1e-13, maxit = 1e7) with its
# own lambda sequence (nlambda 100, lambda.min.ratio 0.01 when n < p else 1e-4):
#   colon40_a*    Colon's first 40 genes without a duplicate probe (none named X_dupN,
#                 none X with an X_dup1: duplicated probes are nearly equal columns, along
#                 which the lasso's split is not unique), alpha 1, 0.5, 0 (binomial)
#   colon2000_a*  all 2000 genes, alpha 1, 0.5 (n < p)
#   srbct30_a*    SRBCT's first 30 genes, alpha 0, 0.5, 1 (multinomial)
# Writes glmnet_path.csv: case, lambda index (1-based), lambda, dev.ratio, model (0 for
# binomial, else the class's index), feature (0 the intercept, j for gene j), value; only
# non-zero coefficients. For srbct30_a1 (the lasso's multinomial coefficients are not
# unique: any shift of a gene's coefficients over the classes within the median
# interval) the class probabilities of samples 1-10 instead, feature = -sample.
# cv.glmnet(..., foldid, type.measure, thresh = 1e-13, maxit = 1e7) with folds dealt in sample order
# class by class, 1, 2, ..., 10, 1, ... (continuing across classes):
#   cv_colon40_a0_dev, cv_colon40_a1_dev, cv_colon40_a1_class, cv_srbct30_a05_dev
# Writes glmnet_cv.csv: case, lambda index, lambda, cvm, cvsd, lambda.min, lambda.1se.
suppressMessages(library(glmnet))
d <- read.csv("../../../../shared/data/colon.csv", check.names = FALSE)
cy <- factor(d$class, levels = c("normal", "tumor"))
cx <- log2(pmax(as.matrix(d[, -ncol(d)]), 1))
nm <- colnames(cx)
single <- which(!grepl("_dup", nm) & !(paste0(nm, "_dup1") %in% nm))[1:40]
s <- read.csv("../../../../shared/data/srbct.csv", check.names = FALSE)
sy <- factor(s$class, levels = c("BL", "EWS", "NB", "RMS"))
sx <- as.matrix(s[, -ncol(s)])
g17 <- function(v) sprintf("%.17g", v)
out <- c("case,l,lambda,devratio,model,feature,value")
emit <- function(name, f, multi) {
  for (l in seq_along(f$lambda)) {
    head <- sprintf("%s,%d,%s,%s", name, l, g17(f$lambda[l]), g17(f$dev.ratio[l]))
    if (!multi) {
      b <- c(f$a0[l], as.numeric(f$beta[, l]))
      nz <- which(b != 0)
      out <<- c(out, sprintf("%s,0,%d,%s", head, nz - 1, g17(b[nz])))
    } else {
      for (k in seq_along(f$beta)) {
        b <- c(f$a0[k, l], as.numeric(f$beta[[k]][, l]))
        nz <- which(b != 0)
        out <<- c(out, sprintf("%s,%d,%d,%s", head, k - 1, nz - 1, g17(b[nz])))
      }
    }
  }
}
for (a in c(1, 0.5, 0)) {
  emit(sprintf("colon40_a%s", sub("\\.", "", a)), glmnet(cx[, single], cy, family = "binomial", alpha = a, thresh = 1e-13, maxit = 1e7), FALSE)
}
for (a in c(1, 0.5)) {
  emit(sprintf("colon2000_a%s", sub("\\.", "", a)), glmnet(cx, cy, family = "binomial", alpha = a, thresh = 1e-13, maxit = 1e7), FALSE)
}
for (a in c(0, 0.5)) {
  emit(sprintf("srbct30_a%s", sub("\\.", "", a)), glmnet(sx[, 1:30], sy, family = "multinomial", alpha = a, thresh = 1e-13, maxit = 1e7), TRUE)
}
f <- glmnet(sx[, 1:30], sy, family = "multinomial", alpha = 1, thresh = 1e-13, maxit = 1e7)
pr <- predict(f, sx[1:10, 1:30], type = "response")
for (l in seq_along(f$lambda)) {
  for (i in 1:10) {
    for (k in 1:4) {
      out <- c(out, sprintf("srbct30_a1,%d,%s,%s,%d,%d,%s", l, g17(f$lambda[l]), g17(f$dev.ratio[l]), k - 1, -i, g17(pr[i, k, l])))
    }
  }
}
writeLines(out, "glmnet_path.csv")
foldid <- function(y) {
  id <- integer(length(y)); nxt <- 0
  for (lev in levels(y)) for (i in which(y == lev)) { id[i] <- nxt %% 10 + 1; nxt <- nxt + 1 }
  id
}
cv <- c("case,l,lambda,cvm,cvsd,lambda_min,lambda_1se")
emitcv <- function(name, f) {
  cv <<- c(cv, sprintf("%s,%d,%s,%s,%s,%s,%s", name, seq_along(f$lambda), g17(f$lambda), g17(f$cvm), g17(f$cvsd), g17(f$lambda.min), g17(f$lambda.1se)))
}
emitcv("cv_colon40_a0_dev", cv.glmnet(cx[, single], cy, family = "binomial", alpha = 0, foldid = foldid(cy), thresh = 1e-13, maxit = 1e7))
emitcv("cv_colon40_a1_dev", cv.glmnet(cx[, single], cy, family = "binomial", alpha = 1, foldid = foldid(cy), thresh = 1e-13, maxit = 1e7))
emitcv("cv_colon40_a1_class", cv.glmnet(cx[, single], cy, family = "binomial", alpha = 1, foldid = foldid(cy), type.measure = "class", thresh = 1e-13, maxit = 1e7))
emitcv("cv_srbct30_a05_dev", cv.glmnet(sx[, 1:30], sy, family = "multinomial", alpha = 0.5, foldid = foldid(sy), thresh = 1e-13, maxit = 1e7))
writeLines(cv, "glmnet_cv.csv")

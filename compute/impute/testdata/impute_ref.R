# Reference for compute/impute on the Proteus example (../shared/data/proteus_proteomics.csv:
# 14 runs x 3,714 protein groups, MaxQuant LFQ intensities, empty = not quantified).
# log2 of the intensities; the valid-value filter (a protein measured in at least 5 of the
# 7 runs of condition A or of B, 70%); then on the kept proteins (rows) x runs (columns):
#   knn.csv       impute::impute.knn(x, k = 10, rowmax = 0.5, colmax = 0.8, maxp = nrow(x))$data
#   quantile.csv  preprocessCore::normalize.quantiles(x) (missing values stay missing)
#   target.csv    normalize.quantiles.determine.target(x[, train]) on the training runs
#                 A-1..A-5, B-1..B-5, and use.csv normalize.quantiles.use.target(x[, test],
#                 target) for the test runs A-6, A-7, B-6, B-7
#   ties.csv      normalize.quantiles of a small complete matrix with ties (ties_in.csv)
# Every value written with 17 significant digits.
# preprocessCore 1.60.2 as Debian installs it stops with "return code from pthread_create()
# is 22" (bmbolstad/preprocessCore issue 7); the reference is its unthreaded build:
#   git -C MIRROR archive 75d0a8e | tar x -C /tmp/pc   (bmbolstad/preprocessCore 1.67.1)
#   R CMD INSTALL --configure-args="--disable-threading" --library=/tmp/rlib /tmp/pc
# Run from this folder: R_LIBS=/tmp/rlib Rscript impute_ref.R
suppressMessages({library(impute); library(preprocessCore)})
d <- read.csv("../../../../shared/data/proteus_proteomics.csv", check.names = FALSE)
x <- t(log2(as.matrix(d[, -(1:2)])))
colnames(x) <- d$sample
cls <- d$class
valid <- function(c) rowSums(!is.na(x[, cls == c, drop = FALSE])) >= ceiling(0.7 * sum(cls == c) - 1e-9)
kept <- valid("A") | valid("B")
x <- x[kept, ]
w <- function(m, f) write.csv(format(m, digits = 17), f, quote = FALSE)
writeLines(rownames(x), "kept.txt")
w(impute.knn(x, k = 10, rowmax = 0.5, colmax = 0.8, maxp = nrow(x))$data, "knn.csv")
q <- normalize.quantiles(x); dimnames(q) <- dimnames(x); w(q, "quantile.csv")
train <- c(paste0("A-", 1:5), paste0("B-", 1:5)); test <- c("A-6", "A-7", "B-6", "B-7")
target <- normalize.quantiles.determine.target(x[, train])
writeLines(format(target, digits = 17), "target.csv")
u <- normalize.quantiles.use.target(x[, test], target); dimnames(u) <- dimnames(x[, test]); w(u, "use.csv")
ties <- matrix(c(3, 1, 3, 2, 5, 5,  2, 2, 2, 9, 1, 4,  7, 6, 5, 4, 3, 2,  1, 1, 8, 8, 3, 3), 6)
colnames(ties) <- paste0("s", 1:4); rownames(ties) <- paste0("p", 1:6)
w(ties, "ties_in.csv")
tq <- normalize.quantiles(ties); dimnames(tq) <- dimnames(ties); w(tq, "ties.csv")
cat(R.version.string, "impute", as.character(packageVersion("impute")), "preprocessCore", as.character(packageVersion("preprocessCore")), "\n", file = "versions.txt")

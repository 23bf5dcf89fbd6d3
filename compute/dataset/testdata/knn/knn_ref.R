# Reference for compute/dataset's default imputation of an array's missing cells (knn):
# the real Golub leukemia table (../shared/data/leukemia.gct, 7,129 probes x 72 samples,
# values as read, no log2) with 7 cells blanked (NA); the probes with one value in every
# sample left out, as Prep{DropConstant} does; then on probes (rows) x samples (columns)
#   impute::impute.knn(x, k = 10, rowmax = 0.5, colmax = 0.8, maxp = nrow(x))$data
# and the blanked cells' imputed values written (feature, sample, value, 17 significant
# digits) to leukemia_knn.csv. The Go test blanks the cells this file names.
# Run from this folder: Rscript knn_ref.R
suppressMessages(library(impute))
g <- read.delim("../../../../../shared/data/leukemia.gct", skip = 2, check.names = FALSE)
x <- as.matrix(g[, -(1:2)])
rownames(x) <- g$Name
cells <- rbind(c(101, 1), c(101, 40), c(2000, 5), c(3500, 72), c(5000, 33), c(7000, 30), c(7129, 10))
x[cells] <- NA
constant <- apply(x, 1, function(r) !anyNA(r) && length(unique(r)) == 1)
x <- x[!constant, ]
y <- impute.knn(x, k = 10, rowmax = 0.5, colmax = 0.8, maxp = nrow(x))$data
f <- g$Name[cells[, 1]]; s <- colnames(x)[cells[, 2]]
write.csv(data.frame(feature = f, sample = s, value = sprintf("%.17g", y[cbind(f, s)])), "leukemia_knn.csv", row.names = FALSE, quote = FALSE)
cat(R.version.string, "impute", as.character(packageVersion("impute")), "; constant probes left out:", sum(constant), "\n", file = "versions.txt")

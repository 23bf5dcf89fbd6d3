# Reference random forests from ranger 0.14.1 (R 4.2.2) for compute/classify's Forest
# (TestForestMatchesRanger). Command, in compute/classify/testdata:
#   Rscript forest_ranger.R
# Data (../../../../shared/data): Colon (2000 genes, 62 samples, as read), Leukemia
# (leukemia.gct with leukemia.cls: 7129 genes, 72 samples), SRBCT (2308 genes, 83
# samples, 4 classes). On each, ranger(x, y, num.trees = 500, mtry = floor(sqrt(p)),
# min.node.size = 1, replace = TRUE, sample.fraction = 1, splitrule = "gini",
# importance = "permutation", num.threads = 2, seed = s) for the 40 seeds s of
# seeds() below, and importance = "impurity" for the first 20. Since ranger's random
# numbers are not ours, the test compares distributions over seeds, not values. ranger
# seeds its tree i with (i + 1) * seed, so forests of small seeds share trees (seed 2's
# are every other of seed 1's): the seeds are primes above the 500 trees, whose forests
# share none.
# Writes forest_ranger_oob.csv (set, seed, ranger's prediction.error: the out-of-bag
# misclassification rate) and forest_ranger_importance.csv (set, gene index 1-based,
# mean permutation importance over the first 20 seeds ("A"), over the last 20 ("B"),
# mean impurity importance over the first 20), 7 significant digits.
suppressMessages(library(ranger))
seeds <- function() {
  p <- 1001:2000
  p <- p[sapply(p, function(k) all(k %% 2:floor(sqrt(k)) != 0))]
  p[1:40]
}
d <- read.csv("../../../../shared/data/colon.csv", check.names = FALSE)
colon <- list(x = as.matrix(d[, -ncol(d)]), y = factor(d$class))
g <- read.delim("../../../../shared/data/leukemia.gct", skip = 2, check.names = FALSE)
cls <- readLines("../../../../shared/data/leukemia.cls")
lab <- strsplit(trimws(cls[3]), "\\s+")[[1]]
names <- strsplit(sub("^#\\s*", "", cls[2]), "\\s+")[[1]]
leuk <- list(x = t(as.matrix(g[, -(1:2)])), y = factor(names[as.integer(lab) + 1]))
s <- read.csv("../../../../shared/data/srbct.csv", check.names = FALSE)
srbct <- list(x = as.matrix(s[, -ncol(s)]), y = factor(s$class))
sets <- list(colon = colon, leukemia = leuk, srbct = srbct)
oob <- c("set,seed,oob_error")
imp <- c("set,gene,perm_a,perm_b,impurity")
for (name in names(sets)) {
  x <- sets[[name]]$x; y <- sets[[name]]$y
  colnames(x) <- paste0("g", seq_len(ncol(x)))
  p <- ncol(x)
  perm <- matrix(0, 40, p); gini <- matrix(0, 20, p)
  fit <- function(s, mode) ranger(x = x, y = y, num.trees = 500, mtry = floor(sqrt(p)), min.node.size = 1,
    replace = TRUE, sample.fraction = 1, splitrule = "gini", importance = mode, num.threads = 2, seed = s)
  for (k in 1:40) {
    s <- seeds()[k]
    f <- fit(s, "permutation")
    oob <- c(oob, sprintf("%s,%d,%.7g", name, s, f$prediction.error))
    perm[k, ] <- f$variable.importance
    if (k <= 20) gini[k, ] <- fit(s, "impurity")$variable.importance
  }
  imp <- c(imp, sprintf("%s,%d,%.7g,%.7g,%.7g", name, seq_len(p), colMeans(perm[1:20, ]), colMeans(perm[21:40, ]), colMeans(gini)))
}
writeLines(oob, "forest_ranger_oob.csv")
writeLines(imp, "forest_ranger_importance.csv")

# Reference values for compute/harmonize: sva 3.46's ComBat with a reference batch on
# the bladderbatch vignette data (Debian r-bioc-sva, r-bioc-bladderbatch), 200 genes
# (every 111th probe), reference batch 5 (19 arrays) against batch 2 (18 arrays) and
# batch 3 (4 arrays), no covariates: Rscript combat_sva.R
suppressMessages({library(sva); library(bladderbatch)})
data(bladderdata)
e <- exprs(bladderEset)
b <- pData(bladderEset)$batch
rows <- seq(1, nrow(e), by = 111)
e <- signif(e[rows, ], 15)  # as write.csv writes them, so the CSV holds the exact input
opts <- list(par = c(TRUE, FALSE, TRUE, FALSE), mean = c(FALSE, FALSE, TRUE, TRUE),
             name = c("parametric", "nonparametric", "parametric-mean", "nonparametric-mean"))
out <- list()
for (other in c(2, 3)) {
  keep <- b %in% c(5, other)
  dat <- e[, keep]
  batch <- b[keep]
  write.csv(dat, gzfile(sprintf("bladder_ref5_batch%d.csv.gz", other)))
  write.csv(data.frame(sample = colnames(dat), batch = batch), sprintf("bladder_ref5_batch%d_batches.csv", other), row.names = FALSE)
  for (k in 1:4) {
    adj <- suppressMessages(ComBat(dat, batch, mod = NULL, par.prior = opts$par[k], mean.only = opts$mean[k], ref.batch = 5))
    write.csv(adj[, batch == other], gzfile(sprintf("combat_%s_batch%d.csv.gz", opts$name[k], other)))
  }
}
cat(R.version.string, "sva", as.character(packageVersion("sva")), "\n", file = "versions.txt")

# edgeR reference for TestRNASeqSeriesReadsRAWTar: the nine samples of GSE63310 that
# the RNAseq123 workflow (Law et al. 2016, F1000Research 5:1408) reads from GEO's
# GSE63310_RAW.tar (kept here as github.com/XueyiDong/RNAseq123workshop, commit
# 48cfa50, inst/extdata/GSE63310_RAW.tar, ships it), with the workflow's groups:
# readDGE(columns = c(1, 3)), filterByExpr on the groups, TMM. It writes ref_norm.csv
# (each sample's library size over the kept genes and TMM factor) and ref_kept.txt (the
# number of genes kept). Run from this folder (edgeR 3.40, R 4.2.2):
#   Rscript gse63310_ref.R
suppressMessages(library(edgeR))
dir <- tempfile(); untar("GSE63310_RAW.tar", exdir = dir)
files <- file.path(dir, c("GSM1545535_10_6_5_11.txt.gz", "GSM1545536_9_6_5_11.txt.gz", "GSM1545538_purep53.txt.gz",
  "GSM1545539_JMS8-2.txt.gz", "GSM1545540_JMS8-3.txt.gz", "GSM1545541_JMS8-4.txt.gz",
  "GSM1545542_JMS8-5.txt.gz", "GSM1545544_JMS9-P7c.txt.gz", "GSM1545545_JMS9-P8c.txt.gz"))
x <- readDGE(files, columns = c(1, 3))
group <- factor(c("LP", "ML", "Basal", "Basal", "ML", "LP", "Basal", "ML", "LP"))
full <- x$samples$lib.size
keep <- filterByExpr(x, group = group)
x <- calcNormFactors(x[keep, , keep.lib.sizes = FALSE], method = "TMM")
out <- function(v) format(v, digits = 17)
write.csv(data.frame(sample = substr(basename(files), 1, 10), full = out(full), lib = out(x$samples$lib.size), factor = out(x$samples$norm.factors)), "ref_norm.csv", row.names = FALSE)
writeLines(as.character(sum(keep)), "ref_kept.txt")

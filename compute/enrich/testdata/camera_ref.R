# Reference for compute/enrich's Camera: limma's camera (limma 3.54, inter.gene.cor =
# 0.01) on GDS507 (../../dataset/testdata/geo/GDS507.soft.gz: 22,645 probes, RCC 9
# against normal 8), log2 with values below 1 raised to 1, design ~ RCC, the shipped GO
# BP sets with a probe whose IDENTIFIER is one of their symbols.
# Writes camera.csv. Run from this folder: Rscript camera_ref.R
suppressMessages(library(limma))
l <- readLines(gzfile("../../dataset/testdata/geo/GDS507.soft.gz"))
b <- grep("^!dataset_table_begin", l); e <- grep("^!dataset_table_end", l)
tab <- read.delim(text = l[(b + 1):(e - 1)], check.names = FALSE, stringsAsFactors = FALSE)
samples <- colnames(tab)[-(1:2)]
# the disease state subsets
st <- grep("^!subset_description|^!subset_sample_id|^!subset_type", l, value = TRUE)
rcc <- character(0)
for (i in grep("^!subset_description = RCC", st)) rcc <- c(rcc, strsplit(sub("^!subset_sample_id = ", "", st[i + 1]), ",")[[1]])
y <- log2(pmax(as.matrix(tab[, samples]), 1))
group <- as.integer(samples %in% rcc)
stopifnot(sum(group) == 9)
design <- model.matrix(~ group)
g <- readLines(gzfile("../data/go_hs.tsv.gz"))
sym <- vapply(strsplit(grep("^G\t", g, value = TRUE), "\t"), function(f) if (length(f) > 2) f[3] else "", "")
t <- strsplit(grep("^T\t", g, value = TRUE), "\t")
t <- t[vapply(t, `[`, "", 3) == "BP"]
index <- lapply(t, function(f) which(tab$IDENTIFIER %in% sym[cumsum(as.integer(strsplit(f[5], ",")[[1]])) + 1]))
names(index) <- vapply(t, `[`, "", 2)
index <- index[lengths(index) > 0]
cam <- camera(y, index, design, contrast = 2, sort = FALSE)
write.csv(data.frame(go_id = rownames(cam), NGenes = cam$NGenes, Direction = cam$Direction,
                     PValue = sprintf("%.17g", cam$PValue), FDR = sprintf("%.17g", cam$FDR)), "camera.csv", row.names = FALSE)

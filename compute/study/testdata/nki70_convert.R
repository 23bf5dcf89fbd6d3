# Writes nki70.csv from the penalized package's data/nki70.RData (cran/penalized @
# 2bd3dc37a91e2dc9d5bb9d93a395c508737de460, version 0.9-53; GPL (>= 2)).
# Usage: Rscript nki70_convert.R path/to/nki70.RData
# A sample id column is added (NKI_ + the data frame's row name); the factors are
# written as their labels; nothing else is changed. R 4.2.2.
args <- commandArgs(trailingOnly = TRUE)
load(args[1])
d <- data.frame(sample = paste0("NKI_", rownames(nki70)), nki70, check.names = FALSE)
for (v in c("Diam", "N", "ER", "Grade")) d[[v]] <- as.character(d[[v]])
write.csv(d, "nki70.csv", row.names = FALSE, quote = FALSE)

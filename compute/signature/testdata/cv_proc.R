# pROC on the out-of-fold scores of a Colon study (F-statistic, DRAGS 2008's 10 x 3-fold,
# k = 10, log2; written by the study of cv_test.go's colonStudy), pooled per repetition,
# tumour positive. Run from compute/signature:
#   Rscript testdata/cv_proc.R > testdata/cv_colon_proc.csv
suppressMessages(library(pROC))
d <- read.csv("testdata/cv_colon_fstat_k10.csv")
cat("classifier,repetition,auc,var,low,high\n")
for (cl in unique(d$classifier)) for (r in sort(unique(d$repetition))) {
  s <- d[d$classifier == cl & d$repetition == r, ]
  x <- roc(s$class, s$score, levels = c("normal", "tumor"), direction = "<", quiet = TRUE)
  ci <- ci.auc(x, method = "delong")
  cat(sprintf("%s,%d,%.17g,%.17g,%.17g,%.17g\n", cl, r, as.numeric(auc(x)), var(x, method = "delong"), ci[1], ci[3]))
}

# pROC on the decision values of a Colon signature applied to a cohort (validate_test.go's
# colonSplit: the signature trained on every other sample of each class, the others the
# cohort; tumour positive). Run from compute/study:
#   STEADFAST_WRITE_COHORT_SCORES=1 go test -run TestCohortAUCEqualsPROC .
#   Rscript testdata/cohort_proc.R > testdata/cohort_colon_proc.csv
suppressMessages(library(pROC))
d <- read.csv("testdata/cohort_colon_scores.csv")
x <- roc(d$class, d$decision, levels = c("normal", "tumor"), direction = "<", quiet = TRUE)
ci <- ci.auc(x, method = "delong")
cat("auc,var,low,high\n")
cat(sprintf("%.17g,%.17g,%.17g,%.17g\n", as.numeric(auc(x)), var(x, method = "delong"), ci[1], ci[3]))

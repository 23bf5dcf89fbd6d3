# Recomputes a survival signature's pooled measures from its heldout-scores.csv:
# Harrell's C and Uno's C truncated at tau of each repetition's held-out risk scores
# (metrics.csv: c_index_pooled_mean_range_over_repetitions and
# uno_c_tau_T_pooled_mean_range_over_repetitions are their mean, least and largest).
# Usage: Rscript heldout_scores.R heldout-scores.csv TAU   (R 4.2.2, survival 3.5-3)
library(survival)
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1])
tau <- as.numeric(args[2])
for (r in sort(unique(d$repetition))) {
  x <- d[d$repetition == r, ]
  h <- concordance(Surv(time, event) ~ risk_score, data = x, reverse = TRUE)
  u <- concordance(Surv(time, event) ~ risk_score, data = x, reverse = TRUE, timewt = "n/G2", ymax = tau)
  cat(sprintf("repetition %d: Harrell's C %.10f (SE %.10f), Uno's C %.10f\n", r, h$concordance, sqrt(h$var), u$concordance))
}

# Clinical tables as R users write them (write.csv, row names in an unnamed first column),
# from R's survival package, for compute/dataset's covariates by name:
#   rotterdam.csv  survival::rotterdam, the first 300 patients (pid, year, age, meno, size,
#                  grade, nodes, pgr, er, hormon, chemo, rtime, recur, dtime, death)
#   colon.csv      survival::colon's death records (etype 2), the first 300 (id, study, rx,
#                  sex, age, obstruct, perfor, adhere, nodes, status, differ, extent, surg,
#                  node4, time, etype)
#   nki.csv        the same 300 Rotterdam patients named as Bioconductor's breastCancerNKI
#                  names its clinical table: samplename, age, er, grade, size, node (any
#                  positive node: 1, else 0), pgr, t.os (years), e.os
# Run from this folder: Rscript clinical_ref.R
library(survival)
r <- head(rotterdam, 300)
write.csv(r, "rotterdam.csv")
write.csv(head(colon[colon$etype == 2, ], 300), "colon.csv")
nki <- data.frame(samplename = paste0("NKI_", r$pid), age = r$age, er = r$er, grade = r$grade, size = r$size,
                  node = as.integer(r$nodes > 0), pgr = r$pgr, t.os = r$dtime / 365.25, e.os = r$death)
write.csv(nki, "nki.csv", row.names = FALSE)
cat(R.version.string, "survival", as.character(packageVersion("survival")), "\n", file = "versions.txt")

# Builds the R-written copies of Proteus' proteinGroups table the reader is tested on
# (compute/dataset/maxquant_r_test.go), and counts what each must give.
# Run from this folder: Rscript make.R  (R 4, base R only)
# The shared data hold MaxQuant's own file; R packages and users write LFQ-only tables
# back from a data frame, named as R names columns (make.names) or not.
pg <- read.delim(gzfile("../../../../../shared/data/proteus_proteinGroups.txt.gz"),
                 stringsAsFactors = FALSE, check.names = TRUE)   # R names: LFQ.intensity.A.1
set.seed(58)
rev  <- pg$Reverse == "+"
con  <- pg$Potential.contaminant == "+"
site <- pg$Only.identified.by.site == "+"
lfq  <- grep("^LFQ\\.intensity\\.", names(pg), value = TRUE)
empty <- rowSums(as.matrix(pg[, lfq]) > 0) == 0
# every marked group and every group without intensities, and 200 others drawn
others <- which(!(rev | con | site | empty))
rows <- sort(c(which(rev | con | site | empty), sample(others, 200)))
keep <- c("Protein.IDs", "Majority.protein.IDs", "Fasta.headers", lfq,
          "Only.identified.by.site", "Reverse", "Potential.contaminant")
sub <- pg[rows, keep]
# LFQ-only, R names, tab-separated, unquoted, no row names
write.table(sub, gzfile("lfq_rnames.tsv.gz"), sep = "\t", quote = FALSE, row.names = FALSE)
# the same with write.csv: quoted header, a first column of row names under ""
write.csv(sub, gzfile("lfq_rnames.csv.gz"))
# write.table's defaults, tab-separated: quoted, row names without a header cell
write.table(sub, gzfile("lfq_rownames.txt.gz"), sep = "\t")
# LFQ-only with MaxQuant's names (check.names = FALSE keeps them), as a user trims it
mq <- sub
names(mq) <- sub("^LFQ intensity ([AB]) ([0-9])$", "LFQ intensity \\1-\\2", gsub("\\.", " ", names(sub)))
write.table(mq, gzfile("lfq_maxquant.tsv.gz"), sep = "\t", quote = FALSE, row.names = FALSE)
# what each must give: groups, samples, left out (each group under its first mark, in
# the order Reverse, Potential contaminant, Only identified by site), kept, missing
r <- rev[rows]; co <- con[rows]; s <- site[rows]; e <- empty[rows]
kept <- !(r | co | s | e)
cat("groups", length(rows), "samples", length(lfq), "\n")
cat("reverse", sum(r), "contaminant_not_reverse", sum(co & !r), "site_only", sum(s & !r & !co),
    "empty_unmarked", sum(e & !(r | co | s)), "several_marks", sum((r + co + s) >= 2), "\n")
cat("left_out", sum(!kept), "kept", sum(kept), "\n")
x <- as.matrix(sub[kept, lfq])
cat("missing", sum(x == 0), "of", length(x), "\n")
cat("first kept", sub$Majority.protein.IDs[kept][1], "A.1 value", format(x[1, 1], digits = 15), "\n")

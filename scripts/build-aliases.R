# Builds compute/genes/data/hs_aliases.tsv.gz, the human gene symbol table Steadfast matches
# genes across annotation vintages with (SEPT7 -> SEPTIN7, MARCH1 -> MARCHF1): every
# current symbol with its Entrez id, then every previous or alias symbol that differs
# from the current one with the Entrez id(s) it names, from Bioconductor's org.Hs.eg.db
# (Debian r-bioc-org.hs.eg.db; NCBI Gene data, in the public domain).
# Run from the repository's root: Rscript scripts/build-aliases.R
suppressMessages(library(org.Hs.eg.db))
sym <- toTable(org.Hs.egSYMBOL)            # gene_id, symbol
ali <- toTable(org.Hs.egALIAS2EG)          # gene_id, alias_symbol
ali <- ali[!(paste(ali$gene_id, ali$alias_symbol) %in% paste(sym$gene_id, sym$symbol)), ]
meta <- metadata(org.Hs.eg.db)
src <- function(name) meta$value[meta$name == name]
out <- gzfile("compute/genes/data/hs_aliases.tsv.gz", "w")
writeLines(c(
  sprintf("# org.Hs.eg.db %s (Bioconductor), Entrez Gene %s; NCBI Gene data are in the public domain", as.character(packageVersion("org.Hs.eg.db")), src("EGSOURCEDATE")),
  "# kind\tsymbol\tentrez: S a current symbol, A a previous or alias symbol"), out)
write.table(data.frame("S", sym$symbol, sym$gene_id), out, sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
write.table(data.frame("A", ali$alias_symbol, ali$gene_id), out, sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
close(out)

#!/usr/bin/python3
# Builds the two GEO files TestRNASeqSeriesReadsRAWTar serves beside the real
# GSE63310_RAW.tar (no network here to fetch GEO's own): filelist.txt, in GEO's layout,
# listing the archive's members with their sizes; and GSE63310_series_matrix.txt.gz,
# an RNA-seq series matrix (its table empty) whose samples are the archive's, titled as
# its file names, with the cell population of the nine samples the RNAseq123 workflow
# reads (Law et al. 2016, its targets table: LP, ML, Basal) and NA for the other two,
# which the workflow does not use. Run from this folder: ./make_fixture.py
import gzip, tarfile

members = [m for m in tarfile.open("GSE63310_RAW.tar").getmembers() if m.isfile()]
with open("filelist.txt", "w") as f:
    f.write("#Archive/File\tName\tTime\tSize\tType\n")
    f.write("Archive\tGSE63310_RAW.tar\t11/14/2014 18:31:00\t1996800\tTAR\n")
    for m in members:
        f.write("File\t%s\t11/14/2014 18:31:00\t%d\tTXT\n" % (m.name, m.size))
group = {"10_6_5_11": "LP", "9_6_5_11": "ML", "purep53": "Basal", "JMS8-2": "Basal", "JMS8-3": "ML",
         "JMS8-4": "LP", "JMS8-5": "Basal", "JMS9-P7c": "ML", "JMS9-P8c": "LP"}
ids = [m.name.split("_", 1)[0] for m in members]
titles = [m.name.split("_", 1)[1].removesuffix(".txt.gz") for m in members]
q = lambda vals: "\t".join('"%s"' % v for v in vals)
lines = ['!Series_title\t"Transcriptome profiling of purified mouse mammary stem, progenitor and mature cell populations"',
         '!Series_geo_accession\t"GSE63310"', '!Series_platform_id\t"GPL13112"',
         "!Sample_title\t" + q(titles), "!Sample_geo_accession\t" + q(ids),
         "!Sample_characteristics_ch1\t" + q("cell population: " + group.get(t, "NA") for t in titles),
         "!series_matrix_table_begin", '"ID_REF"\t' + q(ids), "!series_matrix_table_end"]
with gzip.open("GSE63310_series_matrix.txt.gz", "wt") as f:
    f.write("\n".join(lines) + "\n")

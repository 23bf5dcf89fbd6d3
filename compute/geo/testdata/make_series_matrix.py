#!/usr/bin/env python3
"""Build GEO series matrices of GSE781, one per platform, from GEOquery's real family
SOFT file (Debian r-bioc-geoquery: /usr/lib/R/site-library/GEOquery/extdata/
GSE781_family.soft.gz), in the layout GEO's own series matrix files have: the
!Series_ lines, one !Sample_ line per field with a tab-separated quoted value per
sample (fields every sample of the platform has exactly once), then the table of
VALUE columns between !series_matrix_table_begin and _end. Also GPL96's platform block
alone as GPL96_family.soft.gz (GEO's full SOFT of a platform without an .annot file).

    python3 make_series_matrix.py /usr/lib/R/site-library/GEOquery/extdata/GSE781_family.soft.gz .

Files: GSE781-GPL96_series_matrix.txt.gz, GSE781-GPL97_series_matrix.txt.gz,
GPL96_family.soft.gz. gzip mtime 0, so the bytes are the same on every run.
"""
import gzip
import os
import sys


def blocks(lines):
    kind, head, table, inside = None, [], [], False
    for l in lines:
        if l.startswith("^"):
            if kind:
                yield kind, head, table
            kind, head, table, inside = l, [l], [], False
        elif l.startswith("!") and l.lower().endswith("_table_begin"):
            inside = True
        elif l.startswith("!") and l.lower().endswith("_table_end"):
            inside = False
        elif inside:
            table.append(l)
        else:
            head.append(l)
    if kind:
        yield kind, head, table


def write_gz(path, text):
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as f:
            f.write(text.encode("utf-8"))


def main(src, out):
    with gzip.open(src, "rt", encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    series, samples, platforms = None, [], {}
    for kind, head, table in blocks(lines):
        if kind.startswith("^SERIES"):
            series = head
        elif kind.startswith("^SAMPLE"):
            samples.append((head, table))
        elif kind.startswith("^PLATFORM"):
            platforms[kind.split("=")[1].strip()] = (head, table)
    for gpl in sorted(platforms):
        mine = []
        for head, table in samples:
            fields = {}
            for l in head[1:]:
                if l.startswith("!Sample_") and " = " in l:
                    k, v = l.split(" = ", 1)
                    fields.setdefault(k, []).append(v)
            if fields.get("!Sample_platform_id") == [gpl]:
                mine.append((fields, table))
        keys = [k for k in mine[0][0] if all(len(f.get(k, [])) == 1 for f, _ in mine)]
        text = []
        for l in series[1:]:
            if l.startswith("!Series_") and " = " in l:
                k, v = l.split(" = ", 1)
                if k in ("!Series_platform_id", "!Series_sample_id"):
                    continue
                text.append(f'{k}\t"{v}"')
        text.append(f'!Series_platform_id\t"{gpl}"')
        for k in keys:
            text.append(k + "\t" + "\t".join(f'"{f[k][0]}"' for f, _ in mine))
        text.append("!series_matrix_table_begin")
        ids = [f["!Sample_geo_accession"][0] for f, _ in mine]
        text.append("\t".join(['"ID_REF"'] + [f'"{i}"' for i in ids]))
        cols = []
        for _, table in mine:
            hdr = table[0].split("\t")
            vi = hdr.index("VALUE")
            cols.append({r.split("\t")[0]: r.split("\t")[vi] for r in table[1:] if r})
        probes = [r.split("\t")[0] for r in mine[0][1][1:] if r]
        for p in probes:
            text.append("\t".join([f'"{p}"'] + [c.get(p, "") for c in cols]))
        text.append("!series_matrix_table_end")
        write_gz(os.path.join(out, f"GSE781-{gpl}_series_matrix.txt.gz"), "\n".join(text) + "\n")
        print(gpl, len(mine), "samples", len(probes), "probes")
    head, table = platforms["GPL96"]
    text = head + ["!platform_table_begin"] + table + ["!platform_table_end"]
    write_gz(os.path.join(out, "GPL96_family.soft.gz"), "\n".join(text) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

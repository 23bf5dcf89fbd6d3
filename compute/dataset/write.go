package dataset

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// WriteCSV writes d with samples as rows: a header "sample,<features>,class", then one
// line per sample. Names containing commas or quotes are quoted.
func WriteCSV(w io.Writer, d *Dataset) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	q := func(s string) string {
		if strings.ContainsAny(s, ",\"\n") {
			return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
		}
		return s
	}
	bw.WriteString("sample")
	for _, f := range d.Features {
		bw.WriteByte(',')
		bw.WriteString(q(f))
	}
	bw.WriteString(",class\n")
	n, _ := d.Dims()
	buf := make([]byte, 0, 32)
	for i := 0; i < n; i++ {
		bw.WriteString(q(d.Samples[i]))
		for _, v := range d.X.RawRowView(i) {
			bw.WriteByte(',')
			buf = strconv.AppendFloat(buf[:0], v, 'g', 8, 64)
			bw.Write(buf)
		}
		bw.WriteByte(',')
		bw.WriteString(q(d.Classes[d.Labels[i]]))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

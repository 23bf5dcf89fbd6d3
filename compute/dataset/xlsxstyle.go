package dataset

import (
	"strconv"
	"strings"
	"time"
)

// dateStyles reads a styles part and says for each cell format (cellXfs, the index a
// cell's s attribute gives) whether it shows a date or time: a built-in date format
// (ids 14-22, 27-36, 45-47, 50-58) or a custom format code with d, m, y, h or s
// outside quotes and brackets.
func dateStyles(b []byte) []bool {
	custom := map[int]bool{}
	var out []bool
	s := xmlScan{b: b}
	inXfs := false
	for s.next() {
		switch string(s.name) {
		case "numFmt":
			if id, err := strconv.Atoi(s.attr("numFmtId")); err == nil {
				custom[id] = isDateCode(s.attr("formatCode"))
			}
		case "cellXfs":
			inXfs = !s.closed
		case "/cellXfs":
			inXfs = false
		case "xf":
			if inXfs {
				id, _ := strconv.Atoi(s.attr("numFmtId"))
				out = append(out, builtinDate(id) || custom[id])
			}
		}
	}
	return out
}

func builtinDate(id int) bool {
	return id >= 14 && id <= 22 || id >= 27 && id <= 36 || id >= 45 && id <= 47 || id >= 50 && id <= 58
}

// isDateCode reports whether a number format code shows a date or time.
func isDateCode(code string) bool {
	quoted, bracket := false, false
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '\\' || c == '_' || c == '*':
			i++ // the next character is literal, or padding
		case c == '[':
			bracket = true
		case c == ']':
			bracket = false
		case bracket:
		case strings.IndexByte("dmyhsDMYHS", c) >= 0:
			return true
		}
	}
	return false
}

// excelDate writes an Excel serial date (days since 1899-12-30, the 1900 system with
// its leap-year bug behind it) as an ISO date, with the time when it has one.
func excelDate(v string) string {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || f < 0 || f > 2958465 { // up to 9999-12-31
		return v
	}
	t := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC).Add(time.Duration(f * 24 * float64(time.Hour)).Round(time.Second))
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
		return t.Format("2006-01-02")
	}
	return t.Format("2006-01-02 15:04:05")
}

package dataset

import (
	"bytes"
	"fmt"
	"io"

	"steadfast/compute/memlimit"
)

// The readers hold a file whole: its text, a string copy of it, its lines, the offsets
// of their fields (a grid) and the values. textMemory counts what that comes to, from the
// text alone, so a file too large for the machine (a 1.5 MB gzip that inflates to 170
// million rows) is refused with its estimate before it is parsed, rather than swapping
// or being killed. The constants are fitted to the peak resident memory of reading
// (dataset.ReadFile under /usr/bin/time): a CSV of 10 million lines of three fields
// (169 MB, samples as rows) peaked at 2.75 GB, estimated at 3.3 GB; a count table of
// 60,001 lines of 1,001 fields (189 MB, samples as columns) at 1.07 GB, estimated at
// 1.6 GB; Chowdary (104 lines of 22,284 fields, 10.9 MB) at 62 MB, estimated at 68 MB.
const (
	perTextByte = 2   // the bytes read and their string copy
	perLine     = 240 // a line's string, record, line number, sample name and label
	perCell     = 20  // a field's offset (4 bytes) and value (8), and the garbage collector's slack
)

// textMemory estimates the bytes reading text b takes at its peak: perTextByte a byte,
// perLine a line and perCell a cell, the cells counted as the lines times the fields of
// the first line (the most of comma, tab and semicolon separators in it, plus one).
func textMemory(b []byte) (est float64, lines, cells int) {
	lines = bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		lines++
	}
	first := b
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		first = b[:i]
	}
	fields := 1 + max(bytes.Count(first, []byte{','}), bytes.Count(first, []byte{'\t'}), bytes.Count(first, []byte{';'}))
	cells = lines * fields
	return perTextByte*float64(len(b)) + perLine*float64(lines) + perCell*float64(cells), lines, cells
}

// checkTextMemory refuses text b of file when reading it would take more memory than
// the machine can give.
func checkTextMemory(file string, b []byte) error {
	est, lines, cells := textMemory(b)
	if err := memlimit.Check(fmt.Sprintf("reading it (%s of text: %d lines, about %d cells)", memlimit.Size(float64(len(b))), lines, cells), est); err != nil {
		return &ParseError{File: file, Msg: err.Error() + " (split it, or keep fewer features or samples)"}
	}
	return nil
}

// decompressLimit is the most a compressed file may inflate to: MaxFileSize, and no
// more than half of what the machine can give (the text and its copy alone take twice
// its size).
func decompressLimit() int64 {
	return min(MaxFileSize, int64(memlimit.Budget()/perTextByte))
}

// textMeter counts decompressed text as it arrives and refuses it as soon as what it
// would take to read (textMemory's estimate of the text so far) exceeds the memory the
// machine can give: a gzip bomb is stopped part way, not after inflating whole.
type textMeter struct {
	bytes, lines, fields int
	line                 []byte // the first line while it is incomplete
}

// copy appends r to out a megabyte at a time, metering each piece.
func (m *textMeter) copy(file string, out *bytes.Buffer, r io.Reader) error {
	buf := make([]byte, 1<<20)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			out.Write(buf[:n])
			if err := m.add(file, buf[:n]); err != nil {
				return err
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &ParseError{File: file, Msg: "is gzip-compressed but cannot be decompressed (" + err.Error() + "); is the download complete?"}
		}
	}
}

// add counts chunk and checks the estimate so far.
func (m *textMeter) add(file string, chunk []byte) error {
	if m.fields == 0 {
		if i := bytes.IndexByte(chunk, '\n'); i >= 0 || len(m.line)+len(chunk) > 1<<24 {
			if i < 0 {
				i = len(chunk)
			}
			m.line = append(m.line, chunk[:i]...)
			_, _, m.fields = textMemory(m.line) // one line: its cells are its fields
		} else {
			m.line = append(m.line, chunk...)
		}
	}
	m.bytes += len(chunk)
	m.lines += bytes.Count(chunk, []byte{'\n'})
	est := perTextByte*float64(m.bytes) + perLine*float64(m.lines) + perCell*float64(m.lines)*float64(max(m.fields, 1))
	if err := memlimit.Check(fmt.Sprintf("reading it (at least %s of text once decompressed: %d lines of about %d fields so far)", memlimit.Size(float64(m.bytes)), m.lines, max(m.fields, 1)), est); err != nil {
		return &ParseError{File: file, Msg: err.Error() + "; it was refused part way through decompressing (split it, or keep fewer features or samples)"}
	}
	return nil
}

// DecompressLimit is the most decompressed text a gzip file may hold for the readers:
// the smaller of MaxFileSize and what this machine's memory budget can read.
func DecompressLimit() int64 { return decompressLimit() }

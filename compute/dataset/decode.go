package dataset

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// gunzip returns b decompressed when it is gzip data (recognised by its magic bytes,
// whatever the file's name), refusing more than limit bytes out; else b itself.
// Concatenated members (bgzip) are read in turn, and zero bytes after the last
// member (a padded download, which gunzip also accepts) are ignored.
func gunzip(file string, b []byte, limit int64) ([]byte, bool, error) {
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return b, false, nil
	}
	r := bytes.NewReader(b)
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, true, &ParseError{File: file, Msg: "is gzip-compressed but damaged: " + err.Error()}
	}
	var out bytes.Buffer
	var m textMeter
	for {
		zr.Multistream(false)
		if err := m.copy(file, &out, io.LimitReader(zr, limit+1-int64(out.Len()))); err != nil {
			return nil, true, err
		}
		if int64(out.Len()) > limit {
			return nil, true, &ParseError{File: file, Msg: fmt.Sprintf("decompresses to more than the %s Steadfast reads on this machine (at most 2 GiB, and half of the memory it can give, as reading needs twice the text); split it or give it to a machine with more memory", bytesText(limit))}
		}
		rest := b[len(b)-r.Len():]
		if len(bytes.Trim(rest, "\x00")) == 0 {
			return out.Bytes(), true, nil
		}
		if err := zr.Reset(r); err != nil {
			return nil, true, &ParseError{File: file, Msg: fmt.Sprintf("holds %d bytes after its compressed data that are not gzip (%v); is the download complete?", len(rest), err)}
		}
	}
}

// toUTF8 returns text in UTF-8 with a note of what it was: UTF-16 with a byte-order
// mark (Excel's "Unicode text"), or Latin-1/Windows-1252 when b is not valid UTF-8 but
// holds no NUL byte (an older spreadsheet's CSV). Binary data are left as they are for
// the readers to refuse.
func toUTF8(b []byte) ([]byte, string) {
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}), bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		big := b[0] == 0xFE
		b = b[2:]
		u := make([]uint16, len(b)/2)
		for i := range u {
			if big {
				u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
			} else {
				u[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
			}
		}
		var out bytes.Buffer
		for _, r := range utf16.Decode(u) {
			out.WriteRune(r)
		}
		return out.Bytes(), "UTF-16 text decoded"
	case utf8.Valid(b) || bytes.IndexByte(b[:min(len(b), 8192)], 0) >= 0:
		return b, ""
	}
	out, err := charmap.Windows1252.NewDecoder().Bytes(b)
	if err != nil {
		return b, ""
	}
	return out, "not UTF-8: read as Latin-1 (Windows-1252) text"
}

// Text returns a text file's bytes as UTF-8 without a byte-order mark, whatever
// encoding toUTF8 recognises (a configuration saved by Windows Notepad as "Unicode" is
// UTF-16).
func Text(b []byte) []byte {
	b, _ = toUTF8(b)
	return bytes.TrimPrefix(b, []byte("\ufeff"))
}

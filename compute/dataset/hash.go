package dataset

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"io"
	"math"
	"os"
)

// Hash is the SHA-256 (hex) of what an analysis reads from d: its dimensions, feature
// names and symbols, class names, labels and every value (as IEEE 754 bits, so a
// missing value counts too). The file name and sample names are not part of it, so the
// same data read from another path hash alike.
func (d *Dataset) Hash() string {
	h := sha256.New()
	n, p := d.Dims()
	putInt(h, n)
	putInt(h, p)
	putStrings(h, d.Features)
	putStrings(h, d.Symbols)
	putStrings(h, d.Classes)
	for _, l := range d.Labels {
		putInt(h, l)
	}
	row := make([]byte, 8*p)
	for i := 0; i < n; i++ {
		for j, v := range d.X.RawRowView(i) {
			binary.LittleEndian.PutUint64(row[8*j:], math.Float64bits(v))
		}
		h.Write(row)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func putInt(h hash.Hash, v int) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(int64(v)))
	h.Write(b[:])
}

// putStrings writes the count, then each string's length and bytes, so that no two
// lists hash alike by shifting a boundary.
func putStrings(h hash.Hash, s []string) {
	putInt(h, len(s))
	for _, v := range s {
		putInt(h, len(v))
		h.Write([]byte(v))
	}
}

// FileSHA256 is the SHA-256 (hex) of the file at path's bytes, read as a stream.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

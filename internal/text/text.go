// Package text formats numbers and durations for people; both front ends and the
// widgets use it, so it imports nothing of the project.
package text

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Duration formats a duration for people: 45 s, 3 min 20 s, 1 h 5 min.
func Duration(d time.Duration) string {
	s := int(d.Seconds() + 0.5)
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s < 3600:
		return fmt.Sprintf("%d min %d s", s/60, s%60)
	}
	return fmt.Sprintf("%d h %d min", s/3600, (s%3600)/60)
}

// Thousands formats n with commas between groups of three digits: 1999000 -> 1,999,000.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Count is n with its noun, plural unless n is 1: Count(1, "gene") = "1 gene",
// Count(3, "gene") = "3 genes". See Plural for the spelling of the plural.
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Plural(n, noun)
}

// Plural is noun as n calls for it: itself when n is 1, else its plural (English
// regular forms: -s, -es after s, x, z, ch and sh, -ies after a consonant and y; a
// noun given as "one|many" is spelt as given, as "is|are" or "has|have").
func Plural(n int, noun string) string {
	one, many, irregular := strings.Cut(noun, "|")
	if n == 1 {
		return one
	}
	if irregular {
		return many
	}
	switch {
	case strings.HasSuffix(one, "s"), strings.HasSuffix(one, "x"), strings.HasSuffix(one, "z"),
		strings.HasSuffix(one, "ch"), strings.HasSuffix(one, "sh"):
		return one + "es"
	case len(one) > 1 && strings.HasSuffix(one, "y") && !strings.ContainsRune("aeiou", rune(one[len(one)-2])):
		return one[:len(one)-1] + "ies"
	}
	return one + "s"
}

// PValue writes a p-value or q-value for people: scientific notation with two
// significant digits ("5.5e-10", "0.034" written "3.4e-2"), "< 1e-300" below that, ""
// for NaN.
func PValue(p float64) string {
	switch {
	case p != p:
		return ""
	case p < 1e-300:
		return "< 1e-300"
	}
	s := strconv.FormatFloat(p, 'e', 1, 64) // 5.5e-10, 3.4e-02
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[:1]
	exp = strings.TrimLeft(exp[1:], "0")
	if exp == "" {
		return mant
	}
	if sign == "+" {
		sign = ""
	}
	return mant + "e" + sign + exp
}

// Sig3 writes v with three significant digits for people (an effect size, a weight,
// a frequency): 1.23, -0.0456, 1.23e+03; "" for NaN.
func Sig3(v float64) string {
	if v != v {
		return ""
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// Package geo downloads what GEOquery's getGEO downloads from NCBI's GEO file server, in
// GEOquery's layout, into a cache that is reused offline: a series' matrix (one per
// platform), a DataSet's SOFT file, and a platform's annotation for gene symbols. What
// comes over the network is untrusted: accessions are checked before they become part
// of a path or an address, redirects go only to HTTPS on NCBI's hosts (or the configured
// mirror), sizes are checked against the free disk space and the readers' limits, and a
// file is kept only when it arrived whole (its announced length, its gzip read to the
// end with its CRC). It imports no Fyne.
package geo

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"regexp"
	"strings"
)

// DefaultBase is NCBI's GEO file server.
const DefaultBase = "https://ftp.ncbi.nlm.nih.gov/geo"

// BaseEnv names the environment variable that points Steadfast at another GEO file
// server (an institutional mirror; plain http only for a server on this machine).
const BaseEnv = "STEADFAST_GEO_URL"

var accession = regexp.MustCompile(`^(GSE|GDS|GPL)[0-9]{1,9}$`)

// Parse returns s as a GEO accession in upper case (GSE2034, GDS507, GPL96) and whether
// it is one: three letters of GSE, GDS or GPL and 1 to 9 digits, nothing else.
func Parse(s string) (string, bool) {
	a := strings.ToUpper(strings.TrimSpace(s))
	return a, accession.MatchString(a)
}

// IsAccession reports whether s is a GEO series, DataSet or platform accession and not
// a file that exists (a file named GSE781 wins).
func IsAccession(s string) bool {
	if _, ok := Parse(s); !ok {
		return false
	}
	_, err := os.Stat(s)
	return err != nil
}

// stub is GEO's folder of an accession: its last three digits as nnn (GSE2034 ->
// GSE2nnn, GSE781 -> GSEnnn), as GEOquery's gsub("\\d{1,3}$", "nnn", GEO).
func stub(acc string) string {
	i := len(acc)
	for i > 3 && len(acc)-i < 3 && acc[i-1] >= '0' && acc[i-1] <= '9' {
		i--
	}
	return acc[:i] + "nnn"
}

// Paths of GEO's layout, relative to the server's base.
func matrixDir(gse string) string { return "series/" + stub(gse) + "/" + gse + "/matrix/" }
func supplDir(gse string) string  { return "series/" + stub(gse) + "/" + gse + "/suppl/" }
func gdsPath(gds string) string {
	return "datasets/" + stub(gds) + "/" + gds + "/soft/" + gds + ".soft.gz"
}
func annotPath(gpl string) string {
	return "platforms/" + stub(gpl) + "/" + gpl + "/annot/" + gpl + ".annot.gz"
}
func softPath(gpl string) string {
	return "platforms/" + stub(gpl) + "/" + gpl + "/soft/" + gpl + "_family.soft.gz"
}

// Base returns the GEO file server to use: STEADFAST_GEO_URL when set, else
// DefaultBase. A mirror must be https, or http on this machine (localhost, 127.0.0.1,
// ::1).
func Base() (*url.URL, error) {
	s := strings.TrimSpace(os.Getenv(BaseEnv))
	if s == "" {
		s = DefaultBase
	}
	return parseBase(s)
}

func parseBase(s string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSuffix(s, "/"))
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%s=%q is not a server address such as %s", BaseEnv, s, DefaultBase)
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && loopback(u.Hostname()):
	default:
		return nil, fmt.Errorf("%s=%q: GEO is fetched over https; plain http only from a server on this machine (localhost)", BaseEnv, s)
	}
	return u, nil
}

// loopback reports whether host names this machine.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// trustedHost reports whether a redirect may go to u: https on NCBI's hosts, or the
// configured server itself.
func trustedHost(u, base *url.URL) bool {
	if u.Scheme == base.Scheme && u.Host == base.Host {
		return true
	}
	h := strings.ToLower(u.Hostname())
	return u.Scheme == "https" && (h == "ncbi.nlm.nih.gov" || strings.HasSuffix(h, ".ncbi.nlm.nih.gov"))
}

package geo

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"steadfast/compute/dataset"
)

// file returns the local copy of the GEO file rel (a path in GEO's layout built from
// checked accessions and names): the cached one, else a fresh download kept only when
// whole. It records the file and its SHA-256 in f.
func (c *Client) file(ctx context.Context, rel string, f *Fetched) (string, error) {
	return c.fileAt(ctx, c.at(rel), rel, f)
}

// at is the address of rel on the server.
func (c *Client) at(rel string) *url.URL {
	u := *c.Base
	u.Path = strings.TrimSuffix(u.Path, "/") + "/" + rel
	return &u
}

// fileAt is file for the address u, kept in the cache as rel.
func (c *Client) fileAt(ctx context.Context, u *url.URL, rel string, f *Fetched) (string, error) {
	local := filepath.Join(c.Cache, filepath.FromSlash(rel))
	fromCache := true
	if _, err := os.Stat(local); err != nil {
		if err := c.download(ctx, u, local); err != nil {
			return "", err
		}
		fromCache = false
	}
	sum, err := dataset.FileSHA256(local)
	if err != nil {
		return "", err
	}
	f.Files = append(f.Files, File{Name: rel, SHA256: sum, FromCache: fromCache})
	return local, nil
}

// download fetches rel into local through a temporary file in the same folder, renamed
// into place only when it holds the announced length and, for gzip, decompresses to the
// end (its CRC checked) within the readers' limit.
func (c *Client) download(ctx context.Context, u *url.URL, local string) error {
	body, err := c.getAt(ctx, u)
	if err != nil {
		return err
	}
	defer body.Close()
	total := body.length
	name := filepath.Base(local)
	if total > dataset.MaxFileSize {
		return fmt.Errorf("GEO's %s is %s, more than the %s Steadfast reads", name, size(total), size(dataset.MaxFileSize))
	}
	dir := filepath.Dir(local)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot make the GEO cache folder %s: %v", dir, err)
	}
	if free, ok := freeSpace(dir); ok && total > 0 && uint64(total)+64<<20 > free {
		return fmt.Errorf("GEO's %s is %s and the disk holding the cache (%s) has %s free: free some space, or clear the GEO cache", name, size(total), dir, size(int64(free)))
	}
	tmp, err := os.CreateTemp(dir, ".part-*")
	if err != nil {
		return fmt.Errorf("cannot write to the GEO cache folder %s: %v", dir, err)
	}
	keep := false
	defer func() {
		if !keep {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	n, err := c.copy(ctx, tmp, body, name, total)
	if err != nil {
		return err
	}
	if total >= 0 && n != total {
		return fmt.Errorf("the download of %s was cut short (%s of %s): nothing was kept; try again", name, size(n), size(total))
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if strings.HasSuffix(name, ".gz") {
		if err := checkGzip(tmp.Name(), name); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp.Name(), local); err != nil {
		return err
	}
	keep = true
	return nil
}

// copy copies body to w, reporting progress and giving up when the context ends or
// nothing arrives for the stall time.
func (c *Client) copy(ctx context.Context, w io.Writer, body *response, name string, total int64) (int64, error) {
	stall := c.Stall
	if stall <= 0 {
		stall = 60 * time.Second
	}
	timer := time.AfterFunc(stall, body.cancel)
	defer timer.Stop()
	buf := make([]byte, 256<<10)
	var n int64
	last := time.Time{}
	for {
		k, err := body.Read(buf)
		timer.Reset(stall)
		if k > 0 {
			if _, werr := w.Write(buf[:k]); werr != nil {
				return n, fmt.Errorf("cannot write to the GEO cache: %v", werr)
			}
			n += int64(k)
			if total >= 0 && n > total {
				return n, fmt.Errorf("GEO sent more of %s than it announced (%s): nothing was kept", name, size(total))
			}
			if c.Progress != nil && time.Since(last) > 100*time.Millisecond {
				c.Progress(name, n, total)
				last = time.Now()
			}
		}
		if errors.Is(err, io.EOF) {
			if c.Progress != nil {
				c.Progress(name, n, total)
			}
			return n, nil
		}
		if err != nil {
			if ctx.Err() != nil {
				return n, ctx.Err()
			}
			if body.stalled() {
				return n, fmt.Errorf("GEO stopped sending %s after %s (nothing for %s): nothing was kept; try again", name, size(n), stall)
			}
			return n, fmt.Errorf("the download of %s broke off after %s (%v): nothing was kept; try again", name, size(n), err)
		}
	}
}

// checkGzip reads the gzip file at path to its end, its CRC and length checked, and
// refuses one that is damaged or inflates beyond the readers' limit.
func checkGzip(path, name string) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		return fmt.Errorf("GEO's %s is not a whole gzip file (%v): nothing was kept; try again", name, err)
	}
	limit := dataset.DecompressLimit()
	n, err := io.Copy(io.Discard, io.LimitReader(zr, limit+1))
	if err != nil {
		return fmt.Errorf("GEO's %s is damaged (%v): nothing was kept; try again", name, err)
	}
	if n > limit {
		return fmt.Errorf("GEO's %s unpacks to more than the %s Steadfast reads on this machine", name, size(limit))
	}
	return nil
}

// response is a body being downloaded, with its announced length (-1 unknown) and the
// means to stop it.
type response struct {
	io.ReadCloser
	length int64
	stop   context.CancelCauseFunc
	ctx    context.Context
}

// cancel stops the download as stalled.
func (r *response) cancel() { r.stop(errStalled) }

// Close closes the body and releases its context.
func (r *response) Close() error {
	err := r.ReadCloser.Close()
	r.stop(nil)
	return err
}

func (r *response) stalled() bool { return errors.Is(context.Cause(r.ctx), errStalled) }

var errStalled = errors.New("stalled")

// get asks the server for rel and returns the body of a 200 answer; other answers are
// errors a biologist can act on.
func (c *Client) get(ctx context.Context, rel string) (*response, error) {
	return c.getAt(ctx, c.at(rel))
}

// getAt is get for the address u.
func (c *Client) getAt(ctx context.Context, u *url.URL) (*response, error) {
	rctx, cancel := context.WithCancelCause(ctx)
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, u.String(), nil)
	if err != nil {
		cancel(nil)
		return nil, err
	}
	req.Header.Set("User-Agent", "Steadfast (biomarker discovery; like GEOquery)")
	resp, err := c.client().Do(req)
	if err != nil {
		cancel(nil)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, c.netError(err)
	}
	switch {
	case resp.StatusCode == http.StatusOK:
		return &response{ReadCloser: resp.Body, length: resp.ContentLength, stop: cancel, ctx: rctx}, nil
	case resp.StatusCode == http.StatusNotFound:
		resp.Body.Close()
		cancel(nil)
		return nil, &notFound{u.String()}
	}
	resp.Body.Close()
	cancel(nil)
	if resp.StatusCode >= 500 {
		return nil, fmt.Errorf("GEO's server answered %s for %s: try again later, or open a file downloaded by hand (File > Open data...)", resp.Status, u.String())
	}
	return nil, fmt.Errorf("GEO's server answered %s for %s", resp.Status, u.String())
}

// netError says that GEO could not be reached, and what to do.
func (c *Client) netError(err error) error {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return fmt.Errorf("GEO (%s) did not answer in time (%v); try again, or open a file downloaded by hand (File > Open data...)", c.Base.Host, err)
	}
	return fmt.Errorf("could not reach GEO (%s): %v; open a downloaded file with Open data..., or try again", c.Base.Host, err)
}

// client is c.HTTP with the redirect rule, or a new one honouring the proxy settings.
func (c *Client) client() *http.Client {
	hc := c.HTTP
	if hc == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone() // Proxy: HTTPS_PROXY and NO_PROXY
		tr.TLSHandshakeTimeout = 20 * time.Second
		tr.ResponseHeaderTimeout = 60 * time.Second
		hc = &http.Client{Transport: tr}
	}
	cp := *hc
	cp.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return fmt.Errorf("GEO redirected %d times", len(via))
		}
		if !trustedHost(req.URL, c.Base) {
			return fmt.Errorf("GEO redirected to %s, which is not NCBI over https: refused", req.URL.Redacted())
		}
		return nil
	}
	return &cp
}

// writeAtomic writes b to path through a temporary file renamed into place.
func writeAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".part-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// size formats a byte count: 1.5 GB, 12 MB, 300 kB, 80 bytes.
func size(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d bytes", n)
}

// freeSpace is diskFree, replaceable in tests.
var freeSpace = diskFree

// Package wire holds what the HTTP client implementations of package llm
// share: the bounded HTTP client and the translation of an SDK failure
// into an *llm.Error. It lives apart from package llm so that a program
// using only the interface (the toolwall command, which runs its clients
// in the toolwall-llm helper) links no net/http.
package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/toolwall/toolwall/llm"
)

// HTTPClient returns the HTTP client implementations send with: a clone
// of http.DefaultTransport (proxies from the environment, which Go never
// applies to loopback addresses) whose reply bodies fail with
// llm.ErrReplyTooLarge past llm.MaxReplyBytes, that follows no redirect (a model
// API does not redirect, and a redirect must not carry the key elsewhere),
// and whose overall timeout is timeout.
func HTTPClient(timeout time.Duration) *http.Client {
	return &http.Client{
		Transport: capped{http.DefaultTransport.(*http.Transport).Clone()},
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

type capped struct{ next http.RoundTripper }

func (c capped) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(r)
	if err == nil {
		resp.Body = &cappedBody{rc: resp.Body, left: llm.MaxReplyBytes}
	}
	return resp, err
}

type cappedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, llm.ErrReplyTooLarge
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return 0, llm.ErrReplyTooLarge
	}
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

// Fail turns an SDK error into an *llm.Error: parent is
// the caller's context (to tell its cancellation from the client's own
// timeout), status the HTTP status of an error reply (0 when none), key
// the API key to scrub from the text.
func Fail(parent context.Context, cfg llm.Config, key llm.Secret, status int, err error) *llm.Error {
	e := &llm.Error{Provider: cfg.Provider, Model: cfg.Model, Status: status}
	var ne net.Error
	switch {
	case parent.Err() != nil:
		e.Err = parent.Err()
		e.Msg = "the check was cancelled before the model answered"
		if errors.Is(e.Err, context.DeadlineExceeded) {
			e.Msg = "the caller's deadline passed before the model answered"
		}
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		e.Err = context.DeadlineExceeded
		e.Msg = fmt.Sprintf("no answer within %v", cfg.Timeout)
	case errors.Is(err, llm.ErrReplyTooLarge):
		e.Err = llm.ErrReplyTooLarge
		e.Msg = fmt.Sprintf("the reply is larger than %d bytes", llm.MaxReplyBytes)
	case errors.Is(err, llm.ErrEmpty):
		e.Err = llm.ErrEmpty
		e.Msg = "the reply holds no text"
	case status != 0:
		e.Err = llm.ErrStatus
		e.Msg = fmt.Sprintf("HTTP %d: %s", status, clip(key.Scrub(err.Error()), 300))
	default:
		e.Msg = clip(key.Scrub(err.Error()), 300)
	}
	return e
}

// clip cuts s to n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// Package mcpscan finds MCP servers listening on loopback ports, for the
// guardrail's safety experiences (the LLM security analyzer's auto-detection). It lives
// apart from package guardrail, and imports none of toolwall, so that a
// program that never detects links no HTTP client and the toolwall-llm
// helper that runs it links nothing else of toolwall.
package mcpscan

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DetectTimeout bounds the probe of one port (300 ms).
const DetectTimeout = 300 * time.Millisecond

// MaxPorts bounds how many ports one detection probes (16, as
// guardrail.MaxDetectPorts).
const MaxPorts = 16

// Detect asks each port on 127.0.0.1 whether an MCP server answers there
// (an MCP initialize request, Streamable HTTP transport, endpoint /mcp)
// and returns the names the servers give in their serverInfo, sorted,
// without repeats (guardrail.Canonical turns them into set names). It is
// the LLM security analyzer's auto_detect_safety_experiences with the edges its review
// asked for: it runs only when called with ports (an explicit opt-in:
// guardrail.Experiences.DetectPorts), probes only the loopback address,
// at most MaxPorts ports (the rest are ignored with a warning) within
// DetectTimeout each and concurrently, closes every session it opened,
// and writes nothing to stdout: what it finds or fails at goes to log.
func Detect(ctx context.Context, ports []int, log *slog.Logger) []string {
	if len(ports) > MaxPorts {
		log.Warn("toolwall: MCP detection probes at most this many ports", "max", MaxPorts, "ignored", ports[MaxPorts:])
		ports = ports[:MaxPorts]
	}
	client := &http.Client{
		Timeout:       DetectTimeout,
		Transport:     &http.Transport{Proxy: nil, DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	var mu sync.Mutex
	var out []string
	var wg sync.WaitGroup
	for _, p := range ports {
		if p < 1 || p > 65535 {
			log.Warn("toolwall: MCP detection skips an invalid port", "port", p)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			name, err := probe(ctx, client, p)
			if err != nil {
				log.Debug("toolwall: no MCP server detected", "port", p, "err", err)
				return
			}
			log.Info("toolwall: detected MCP server", "port", p, "name", name)
			mu.Lock()
			out = append(out, name)
			mu.Unlock()
		}()
	}
	wg.Wait()
	slices.Sort(out)
	return slices.Compact(out)
}

// probe sends an MCP initialize request to port and returns the
// serverInfo name of the answer.
func probe(ctx context.Context, client *http.Client, port int) (string, error) {
	url := "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"toolwall-detect","version":"1"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		defer closeSession(ctx, client, url, id)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	data := io.LimitReader(resp.Body, 64<<10)
	var msg []byte
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(data)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data:"); ok {
				msg = []byte(strings.TrimSpace(d))
				break
			}
		}
	} else {
		msg, _ = io.ReadAll(data)
	}
	var r struct {
		Result struct {
			ServerInfo struct {
				Name string `json:"name"`
			} `json:"serverInfo"`
		} `json:"result"`
	}
	if err := json.NewDecoder(bytes.NewReader(msg)).Decode(&r); err != nil || r.Result.ServerInfo.Name == "" {
		return "", fmt.Errorf("not an MCP initialize result")
	}
	return r.Result.ServerInfo.Name, nil
}

// closeSession ends the session an initialize opened (best effort).
func closeSession(ctx context.Context, client *http.Client, url, id string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, url, nil)
	if err != nil {
		return
	}
	req.Header.Set("Mcp-Session-Id", id)
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
	}
}

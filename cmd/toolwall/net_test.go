package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHookLinksNoNetworkLibraries: the binary the hook starts for every
// tool call does not link the network drivers' libraries, whose package
// initialization would cost every hook call about 2 ms, nor net/http,
// TLS and html/template (audit serve and fetch run toolwall-net: the
// binary is a quarter smaller and starts about a fifth faster).
func TestHookLinksNoNetworkLibraries(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, heavy := range []string{"github.com/prometheus/", "github.com/jackc/", "github.com/modelcontextprotocol/", "github.com/toolwall/toolwall/server", "github.com/toolwall/toolwall/mcpproxy",
			"net/http", "crypto/tls", "html/template", "github.com/toolwall/toolwall/audit/auditweb", "github.com/toolwall/toolwall/executor/fetch"} {
			if dep == strings.TrimSuffix(heavy, "/") || strings.HasPrefix(dep, strings.TrimSuffix(heavy, "/")+"/") {
				t.Errorf("toolwall links %s", dep)
			}
		}
	}
}

// TestServeRunsNet: `toolwall serve` runs toolwall-net from beside the
// toolwall binary, with --config passed on; without it, it says how to
// install it.
func TestServeRunsNet(t *testing.T) {
	dir := filepath.Dir(bin)
	if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "toolwall-net"), "../toolwall-net").CombinedOutput(); err != nil {
		t.Fatalf("building toolwall-net: %v\n%s", err, out)
	}
	conf := configFile(t, "")
	cmd := exec.Command(bin, "--config", conf, "serve", "--listen", "127.0.0.1:0", "--store", "memory")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "TOOLWALL_TOKEN=")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	got := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "toolwall serve: listening") {
				got <- sc.Text()
			}
		}
	}()
	select {
	case <-got:
	case <-time.After(30 * time.Second):
		t.Fatal("toolwall serve did not start toolwall-net")
	}

	lone := filepath.Join(t.TempDir(), "toolwall")
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lone, data, 0o700); err != nil {
		t.Fatal(err)
	}
	c := exec.Command(lone, "mcp-proxy", "--", "true")
	c.Env = append(os.Environ(), "PATH=/nonexistent")
	out, err := c.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "go install ./cmd/toolwall-net") {
		t.Errorf("without toolwall-net: %v %s", err, out)
	}
}

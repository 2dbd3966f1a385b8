package places

import (
	"net/netip"
	"testing"
	"time"

	"github.com/toolwall/toolwall/analysis/analysistest"
)

var classByName = map[string]Class{
	"none": None, "auth": AuthFile, "project": ProjectSecret, "key": PrivateKey,
	"credential": Credential, "system": SystemSecret,
}

func TestClassify(t *testing.T) {
	for _, r := range analysistest.ReadTSV(t, "classify.tsv", 3) {
		want, ok := classByName[r.Fields[0]]
		if !ok {
			t.Fatalf("classify.tsv:%d: unknown class %q", r.Line, r.Fields[0])
		}
		p := r.Fields[2]
		if got := Classify(p); got != want {
			t.Errorf("classify.tsv:%d: Classify(%q) = %v, want %v", r.Line, p, got, want)
		}
		if got := Protected(p, "/home/user", "/workspace/app"); got != (r.Fields[1] == "yes") {
			t.Errorf("classify.tsv:%d: Protected(%q) = %v, want %s", r.Line, p, got, r.Fields[1])
		}
	}
}

func TestHolds(t *testing.T) {
	for dir, want := range map[string]bool{
		"/": true, "/home": true, "/home/user": true, "/etc": true, "/home/user/.ssh": true,
		"/home/user/.aws": true, "/home/other": false, "/Users/*": true, "/home/*": true, "/root": true,
		"/workspace/app": false, "/home/user/src": false, "/tmp": false, "/Users/*/Documents": false,
		"/home/user/.*": true,
	} {
		if got := Holds(dir, "/home/user"); got != want {
			t.Errorf("Holds(%q) = %v, want %v", dir, got, want)
		}
	}
}

func TestAppendTarget(t *testing.T) {
	for p, want := range map[string]bool{
		"/home/user/.ssh/authorized_keys": true, "/root/.ssh/authorized_keys2": true,
		"/etc/passwd": true, "/etc/sudoers.d/agent": true, "/etc/pam.d/sshd": true,
		"/private/etc/sudoers": true, "/proc/self/root/etc/passwd": true,
		"/home/user/.ssh/config": false, "/home/user/.ssh/known_hosts": false, "/etc/hosts": false,
	} {
		if got := AppendTarget(p); got != want {
			t.Errorf("AppendTarget(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestAgent(t *testing.T) {
	for _, r := range analysistest.ReadTSV(t, "agent.tsv", 2) {
		kind, _ := Agent(r.Fields[1], "/home/user")
		want := map[string]AgentFile{"none": NotAgent, "work": AgentWork, "settings": AgentSettings}[r.Fields[0]]
		if kind != want {
			t.Errorf("agent.tsv:%d: Agent(%q) = %v, want %s", r.Line, r.Fields[1], kind, r.Fields[0])
		}
	}
}

func TestToken(t *testing.T) {
	for _, r := range analysistest.ReadTSV(t, "tokens.tsv", 3) {
		kind, svc, ok := Token(r.Fields[2])
		if r.Fields[0] == "-" {
			if ok {
				t.Errorf("tokens.tsv:%d: Token(%q) = %q, want none", r.Line, r.Fields[2], kind)
			}
			continue
		}
		name := svc.Name
		if name == "" {
			name = "-"
		}
		if !ok || kind != r.Fields[0] || name != r.Fields[1] {
			t.Errorf("tokens.tsv:%d: Token(%q) = %q %q %v, want %q %q", r.Line, r.Fields[2], kind, name, ok, r.Fields[0], r.Fields[1])
		}
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct {
		name    string
		secret  bool
		service string
	}{
		{"OPENAI_API_KEY", true, "OpenAI"}, {"GITHUB_TOKEN", true, "GitHub"}, {"GH_TOKEN", true, "GitHub"},
		{"AWS_SECRET_ACCESS_KEY", true, "AWS"}, {"AWS_ACCESS_KEY_ID", false, "AWS"}, {"NPM_TOKEN", true, "npm"},
		{"NODE_AUTH_TOKEN", true, "npm"}, {"HF_TOKEN", true, "Hugging Face"}, {"PYPI_API_TOKEN", true, "PyPI"},
		{"DOCKERHUB_TOKEN", true, "Docker Hub"}, {"ANTHROPIC_API_KEY", true, "Anthropic"},
		{"NEXT_PUBLIC_SUPABASE_ANON_KEY", true, "Supabase"}, {"SUPABASE_URL", false, "Supabase"},
		{"DB_PASSWORD", true, ""}, {"API_TOKEN", true, ""}, {"HOME", false, ""}, {"PATH", false, ""},
		{"STRIPE_PUBLISHABLE_KEY", false, "Stripe"}, {"AZURE_OPENAI_API_KEY", true, "Azure OpenAI"},
	} {
		if got := SecretName(c.name); got != c.secret {
			t.Errorf("SecretName(%q) = %v, want %v", c.name, got, c.secret)
		}
		svc, ok := NameService(c.name)
		if svc.Name != c.service || ok != (c.service != "") {
			t.Errorf("NameService(%q) = %q %v, want %q", c.name, svc.Name, ok, c.service)
		}
	}
	if NameStem("NEXT_PUBLIC_SUPABASE_URL") != NameStem("SUPABASE_SERVICE_ROLE_KEY") {
		t.Error("NameStem does not pair SUPABASE_URL with SUPABASE_SERVICE_ROLE_KEY")
	}
	if s, _ := NameService("GITHUB_TOKEN"); !s.Serves("api.github.com") || s.Serves("github.com.x.example") || s.Serves("x.example") {
		t.Error("GitHub serves the wrong hosts")
	}
}

func TestDrop(t *testing.T) {
	for _, c := range []struct {
		host, path string
		want       bool
	}{
		{"discord.com", "/api/webhooks/1/x", true}, {"discord.com", "/channels/1", false},
		{"hooks.slack.com", "/services/T/B/x", true}, {"file.io", "/", true}, {"transfer.sh", "/x.txt", true},
		{"abc.oast.fun", "/", true}, {"WEBHOOK.SITE", "/x", true}, {"api.telegram.org", "/bot123:x/sendDocument", true},
		{"api.github.com", "/user", false}, {"example.com", "/", false}, {"notfile.io.example.com", "/", false},
	} {
		if _, ok := Drop(c.host, c.path); ok != c.want {
			t.Errorf("Drop(%q, %q) = %v, want %v", c.host, c.path, ok, c.want)
		}
	}
}

func TestParseIPv4(t *testing.T) {
	for _, r := range analysistest.ReadTSV(t, "ipv4.tsv", 3) {
		in, want, canon := r.Fields[0], r.Fields[1], r.Fields[2] == "yes"
		addr, canonical, ok := ParseIPv4(in)
		if want == "invalid" {
			if ok {
				t.Errorf("ipv4.tsv:%d: ParseIPv4(%q) = %v, want invalid", r.Line, in, addr)
			}
			continue
		}
		if !ok || addr != netip.MustParseAddr(want) || canonical != canon {
			t.Errorf("ipv4.tsv:%d: ParseIPv4(%q) = %v canonical=%v ok=%v, want %s canonical=%v", r.Line, in, addr, canonical, ok, want, canon)
		}
	}
}

func TestNetworkOf(t *testing.T) {
	for s, want := range map[string]Network{
		"127.0.0.1": Loopback, "10.1.2.3": Private, "169.254.169.254": Metadata, "::1": Loopback,
		"::ffff:10.0.0.1": Private, "64:ff9b::a00:1": Private, "2002:c0a8:101::1": Private, "fe80::1%eth0": Private,
		"8.8.8.8": Public, "2606:4700:4700::1111": Public, "192.0.2.1": Reserved, "fd00:ec2::254": Metadata,
	} {
		if got := NetworkOf(netip.MustParseAddr(s)); got != want {
			t.Errorf("NetworkOf(%s) = %v, want %v", s, got, want)
		}
	}
}

func FuzzParseIPv4(f *testing.F) {
	for _, r := range analysistest.ReadTSV(f, "ipv4.tsv", 3) {
		f.Add(r.Fields[0])
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, canonical, ok := ParseIPv4(s)
		if !ok {
			return
		}
		if !a.Is4() {
			t.Fatalf("ParseIPv4(%q) = %v, not IPv4", s, a)
		}
		if canonical && a.String() != s {
			t.Fatalf("ParseIPv4(%q) canonical but prints as %v", s, a)
		}
		if b, err := netip.ParseAddr(s); err == nil && b != a {
			t.Fatalf("ParseIPv4(%q) = %v, netip says %v", s, a, b)
		}
	})
}

// FuzzClassify feeds paths and token texts (untrusted: they come from
// the model's tool calls) to every path and text function: none may
// panic, all must be deterministic and fast.
func FuzzClassify(f *testing.F) {
	for _, r := range analysistest.ReadTSV(f, "classify.tsv", 3) {
		f.Add(r.Fields[2])
	}
	for _, r := range analysistest.ReadTSV(f, "tokens.tsv", 3) {
		f.Add(r.Fields[2])
	}
	f.Fuzz(func(t *testing.T, s string) {
		start := time.Now()
		if Classify(s) != Classify(s) {
			t.Fatalf("Classify(%q) not deterministic", s)
		}
		Protected(s, "/home/user", "/workspace/app")
		Holds(s, "/home/user")
		Write(s, "/home/user", "/workspace/app")
		Agent(s, "/home/user")
		k1, _, _ := Token(s)
		k2, _, _ := Token(s)
		if k1 != k2 {
			t.Fatalf("Token(%q) not deterministic", s)
		}
		if d := time.Since(start); d > 2*time.Second { // a pathological case, not a speed target
			t.Fatalf("%d bytes took %v", len(s), d)
		}
	})
}

func BenchmarkClassify(b *testing.B) {
	ps := []string{"/home/user/.ssh/id_rsa", "/workspace/app/src/main.go", "/home/user/.config/gcloud/x", "/etc/hosts"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Classify(ps[i%len(ps)])
	}
}

func BenchmarkWrite(b *testing.B) {
	ps := []string{"/home/user/.ssh/authorized_keys", "/workspace/app/src/main.go", "/etc/cron.d/x", "/home/user/.claude/plans/p.md"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Write(ps[i%len(ps)], "/home/user", "/workspace/app")
	}
}

func BenchmarkToken(b *testing.B) {
	ts := []string{"https://api.github.com/user", "Authorization: Bearer ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "-sS", "https://example.com/very/long/path/with/segments?and=query"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Token(ts[i%len(ts)])
	}
}

func BenchmarkParseURL(b *testing.B) {
	us := []string{"https://docs.python.org/3/library/shutil.html", "http://0x7f.1/", "http://[::ffff:127.0.0.1]/"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		ParseURL(us[i%len(us)])
	}
}

package secrets

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/places"
	"github.com/toolwall/toolwall/shell"
)

// Rule ids reported by [Analyzer]. Scores: deny 0.95, ask 0.6.
const (
	// RuleRead (ask): a command reads, prints, encodes, copies or
	// archives a secret file (a [places.Class] for which Secret is true),
	// or hands one to a script.
	RuleRead = "secrets.read"
	// RuleExfil (deny): a secret file, a tree holding secrets, the
	// environment, or a secret value (an environment variable, a key
	// read from a secret file, a token a command prints) is sent to the
	// network, to a host other than the secret's own service.
	RuleExfil = "secrets.exfil"
	// RuleTokenEgress (deny): a credential-shaped token
	// ([places.Token]) written on the command line or in a fetched URL is
	// sent to a host other than its issuer's.
	RuleTokenEgress = "secrets.token-egress"
	// RuleEgress (ask): a secret value is sent to a host that may not be
	// its own service: the destination is only known at run time, or
	// the secret's service is unknown.
	RuleEgress = "secrets.egress"
	// RuleOutput (ask): the output of a command that describes this
	// machine or account (whoami, id, hostname, ps, a system file) is
	// sent to the network.
	RuleOutput = "secrets.output-egress"
	// RuleDNS (ask): a command's output is carried in a DNS name
	// (ping "$(…).x.example", dig $(…).x.example): DNS-shaped egress.
	RuleDNS = "secrets.dns-data"
	// RuleDrop (ask): a local file or a command's output is sent to a
	// paste site, a file drop, a chat webhook or a request catcher
	// ([places.Drop]), or handed to a peer-to-peer file sender (wormhole,
	// croc).
	RuleDrop = "secrets.drop"
	// RuleInsecureUpload (ask): a request body, a file or standard input
	// is sent to a host outside this machine and its private networks
	// with TLS certificate verification off (curl -k/--insecure, wget
	// --no-check-certificate): anyone on the path can read or change it,
	// and a self-signed server is what an attacker's collector looks like.
	RuleInsecureUpload = "secrets.insecure-upload"
	// RuleDeleteAuth (deny; ask when the path is only partly known): a
	// [places.Protected] file is deleted, truncated or overwritten.
	RuleDeleteAuth = "secrets.delete-auth"
	// RuleModifyAuth (deny): a file that grants access
	// ([places.AppendTarget]) is appended to or edited in place, or a
	// key or login file has its permissions loosened.
	RuleModifyAuth = "secrets.modify-auth"
	// RuleDeleteCredential (deny): a credential store or private key
	// outside the project is deleted or emptied (rm ~/.aws/credentials,
	// : > ~/.kube/config).
	RuleDeleteCredential = "secrets.delete-credential"
	// RuleDeleteSystem (ask): a system configuration file under /etc is
	// deleted or emptied one by one (rm -f /etc/security/*.conf).
	RuleDeleteSystem = "secrets.delete-system"
	// RuleCommit (ask): a secret file is staged into git by name (git
	// add -f .env), the step before it is pushed to a shared remote.
	RuleCommit = "secrets.commit"
	// RuleServe (ask): a file server is started on a tree that holds
	// secrets (python3 -m http.server in home or ~/.ssh), which hands
	// them to anyone who can reach the port.
	RuleServe = "secrets.serve"
	// RuleSearch (ask): find looks through a credential store, or through
	// the file system outside the project, for private keys and
	// credential files by name (find / -name id_rsa, find ~/.aws -name
	// credentials): ATT&CK T1552.001, T1552.004.
	RuleSearch = "secrets.search"
	// RulePrint (ask): a command prints a credential (its catalog entry
	// says "prints secret": gh auth token, aws secretsmanager
	// get-secret-value, kubectl get secret -o yaml, vault kv get, op
	// read, git credential fill) where the output reaches the agent, so
	// the secret enters the model's context and its provider's logs. A
	// credential written to a file, or piped into a program that keeps
	// it (docker login --password-stdin), is not printed. An operator
	// allows a named command in a project with an [[allow]] entry of the
	// policy (command = "gh auth token"), or the rule everywhere with
	// rules.disable.
	RulePrint = "secrets.print"
	// RuleSession (ask): a Chromium-family browser is started on the
	// user's own profile with its remote-debugging port open, which hands
	// every cookie and logged-in session to any local program (ATT&CK
	// T1539). A headless browser or one given its own --user-data-dir
	// passes.
	RuleSession = "secrets.session"
)

// Analyzer reports reads, network sends and destruction of secret and
// authentication files by shell commands, secret values and tokens sent
// to hosts other than their own service, and credential tokens in URLs a
// fetch tool is given. It reports nothing in RootContext (the
// root helper gets only the catastrophic set).
var Analyzer = &analysis.Analyzer{
	Name:  "secrets",
	Rules: rules,
	Doc: "secrets finds shell commands that read private keys, cloud credentials, system " +
		"password files or project .env files (ask), send them, the environment or a secret " +
		"value to a host other than its own service (deny), or delete, overwrite or append to " +
		"authentication and credential files such as ~/.ssh/* and ~/.aws/credentials (deny).",
	Tools: []string{toolwall.ToolBash, toolwall.ToolWebFetch},
	Run:   run,
}

const (
	category  = "secrets"
	denyScore = 0.95
	askScore  = 0.6
)

// state is one call's analysis.
type state struct {
	call          toolwall.Call
	script        *shell.Script
	r             *analysis.Report
	home, project string
	index         map[*shell.Command]int
	facts         map[*shell.Command]*facts
	// taint maps a file this script wrote to what it now holds.
	taint map[string][]source
	// vars maps a variable assigned in this script to what it holds.
	vars map[string][]source
	// sockets maps a file descriptor a redirection opened on /dev/tcp or
	// /dev/udp to its host.
	sockets map[string]string
	// ownUse marks secret values sent to their own service.
	ownUse map[string]bool
	// ups memoises upstream, tainted the entries of taint. These maps and
	// the ones below are made on first write.
	ups  map[*shell.Command][]source
	subs map[*shell.Command][]*shell.Command
	// classes and held remember places.Classify and places.Holds.
	classes map[string]places.Class
	held    map[string]bool
	tainted map[string]bool
	seen    map[string]bool
}

func run(_ context.Context, in *analysis.Input, r *analysis.Report) {
	if in.Call.IsRoot() {
		return
	}
	if in.Call.Tool == toolwall.ToolWebFetch {
		fetch(in.Call, r)
		return
	}
	if in.Script == nil {
		return
	}
	project := in.Call.Project
	if project == "" {
		project = in.Call.Cwd
	}
	s := &state{
		call: in.Call, script: in.Script, r: r, home: in.Call.Home, project: project,
		index: make(map[*shell.Command]int, len(in.Script.Commands)),
		facts: make(map[*shell.Command]*facts, len(in.Script.Commands)),
		seen:  map[string]bool{},
	}
	for i, c := range in.Script.Commands {
		s.index[c] = i
	}
	for _, c := range in.Script.Commands {
		s.examine(c)
	}
	for _, c := range in.Script.Commands {
		s.egress(c)
		s.printed(c)
	}
	// A single key read from a secret file (grep GITHUB_TOKEN .env) is a
	// read unless it only went to its own service.
	for _, c := range in.Script.Commands {
		for _, k := range s.facts[c].keys {
			if !s.ownUse[k.id()] {
				s.readFinding(c, source{kind: kFile, class: k.class, path: k.path})
			}
		}
	}
}

// add appends f once per rule and key.
func (s *state) add(f toolwall.Finding, key string) {
	k := f.Rule + "\x00" + key
	if s.seen[k] {
		return
	}
	s.seen[k] = true
	f.Category = category
	switch f.Action {
	case toolwall.Deny:
		f.Score = denyScore
	default:
		f.Score = askScore
	}
	s.r.Add(f)
}

// tag appends a risk tag once.
func (s *state) tag(t toolwall.Tag, p, detail string) {
	k := "tag\x00" + string(t) + "\x00" + p + "\x00" + detail
	if s.seen[k] {
		return
	}
	s.seen[k] = true
	s.r.Tag(t, p, detail)
}

// quote renders c for a reason, at most 120 bytes.
func quote(c *shell.Command) string {
	q := strings.Join(strings.Fields(c.String()), " ")
	if len(q) > 120 {
		q = q[:117] + "..."
	}
	return strings.ReplaceAll(q, "`", "'")
}

// fetch judges the URL a fetch tool is given: a credential token in it
// goes to the URL's host.
func fetch(call toolwall.Call, r *analysis.Report) {
	raw, ok := call.Field("url")
	if !ok {
		return
	}
	kind, svc, ok := places.Token(raw)
	if !ok {
		return
	}
	u, err := places.ParseURL(raw)
	host := strings.ToLower(u.Host)
	switch {
	case err == nil && (svc.Serves(host) || u.Network == places.Loopback):
		return
	case !svc.Known() && err == nil:
		r.Add(toolwall.Finding{Rule: RuleEgress, Category: category, Score: askScore, Action: toolwall.Ask,
			Reason: fmt.Sprintf("Fetching this URL was stopped for a human: it carries %s whose issuer is unknown, and a URL ends up in logs and proxies. Send the token in a header to its own service instead, or ask the user to confirm.", kind)})
		r.Tag(toolwall.TagEgress, "", "credential token")
		return
	}
	r.Add(toolwall.Finding{Rule: RuleTokenEgress, Category: category, Score: denyScore, Action: toolwall.Deny,
		Reason: fmt.Sprintf("Fetching this URL was refused: it carries %s to %s, not to its issuer, and a leaked credential can only be fixed by rotating it. Do not put credentials in URLs; if a service needs one, ask the user to configure it.", kind, hostOr(host))})
	r.Tag(toolwall.TagEgress, "", "credential token")
}

func hostOr(h string) string {
	if h == "" {
		return "a host that cannot be read"
	}
	return h
}

// put sets m[k] = v, making m first when it is nil.
func put[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = map[K]V{}
	}
	(*m)[k] = v
}

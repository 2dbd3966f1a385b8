package ops

import (
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// The host firewall: iptables and its kin, nft, ufw, pfctl, firewall-cmd
// and netsh. Each program is read through its catalog entry; a finding
// names the strongest thing the command does: switching the firewall off
// or emptying it (system.firewall-off), cutting every connection
// (system.network-cut), or any other change of its rules, policy or state
// (system.firewall). Listing and status commands pass.

func (k *checker) firewallOff(x cmdCtx, why string) {
	k.systemAsk(x, "system.firewall-off", why,
		"Add or remove the one rule you need, or ask the user")
}

func (k *checker) networkCut(x cmdCtx, why string) {
	k.systemAsk(x, "system.network-cut", why,
		"Change the one interface, route or rule you need, or ask the user")
}

// firewallChange reports system.firewall: a change to the firewall's
// rules, policy or state that neither switches it off nor cuts every
// connection. The firewall decides what may reach the machine, so a
// human confirms every change (like a write under /etc, which asks).
func (k *checker) firewallChange(x cmdCtx) {
	k.askShown(x, "system.firewall", catSystem,
		"it changes the machine's firewall, which decides what may reach this machine and what it may reach",
		"Ask the user to make the firewall change; to reach a service you run, use localhost or a container's published port instead")
}

// iptables and ip6tables (and their -legacy / -nft builds): -F / --flush
// removes every rule of a table; a DROP policy or a match-all DROP rule
// on INPUT or OUTPUT cuts every connection; any other -A, -I, -D, -R, -N,
// -X, -E or -P changes the rules. -L, -S, -C and -Z pass.
// iptables-restore and iptables-apply load a rule set (unless -t only
// tests it); iptables-save only prints. ebtables and arptables, which share the
// entry, filter bridged frames and ARP: link-layer filters, not the host
// firewall, and left alone.
func (k *checker) iptables(x cmdCtx) {
	switch x.name {
	case "iptables-save":
		return
	case "iptables-restore":
		if !x.has("test") {
			k.firewallChange(x)
		}
		return
	case "iptables-apply":
		if !x.has("help", "version") {
			k.firewallChange(x)
		}
		return
	}
	if !strings.HasPrefix(x.cmd.Name, "iptables") && !strings.HasPrefix(x.cmd.Name, "ip6tables") {
		return
	}
	if k.iptablesOff(x) {
		return
	}
	if x.has("append", "insert", "delete", "replace", "new-chain", "delete-chain", "rename-chain", "policy") {
		k.firewallChange(x)
	}
}

// iptablesOff reports a flush of the host firewall, a DROP policy or a
// match-all DROP rule on INPUT or OUTPUT.
func (k *checker) iptablesOff(x cmdCtx) bool {
	if x.has("flush") {
		k.firewallOff(x, "flushing the firewall rules leaves every port of the machine open")
		return true
	}
	drop := func(v string) bool { return strings.EqualFold(v, "drop") || strings.EqualFold(v, "reject") }
	chainIO := func(v string) bool { return strings.EqualFold(v, "input") || strings.EqualFold(v, "output") }
	for _, w := range x.values("policy") {
		if chainIO(w.Value) && drop(x.operand(0)) {
			k.networkCut(x, "a DROP policy on "+w.Value+" cuts every connection that no rule allows, SSH included")
			return true
		}
	}
	for _, w := range x.values("append", "insert") {
		if !chainIO(w.Value) {
			continue
		}
		jump := x.values("jump")
		if len(jump) == 0 || !drop(jump[len(jump)-1].Value) {
			continue
		}
		if len(x.values("source", "destination", "protocol", "in-interface", "out-interface", "match")) == 0 {
			k.networkCut(x, "a rule that drops every packet of "+w.Value+" cuts every connection, SSH included")
			return true
		}
	}
	return false
}

// nft: flush of any rule set, table or chain, and delete of a table or
// chain, switch the firewall off; add, create, insert, replace, delete,
// destroy, rename and import change it, and so does loading commands
// from a file (-f) or from standard input (-i fed by a pipe, a file or a
// heredoc). nft takes a command as one word or as many, and several
// separated by ";". -c only checks; list, describe, monitor, get and
// reset (of counters) pass.
func (k *checker) nft(x cmdCtx) {
	if x.has("check") {
		return
	}
	var words []string
	for _, w := range x.operands() {
		words = append(words, strings.ToLower(w.Value))
	}
	change := x.has("file") || x.has("interactive") && x.cmd.Stdin.Kind != shell.StdinInherit
	for _, cmd := range strings.FieldsFunc(strings.Join(words, " "), func(r rune) bool { return r == ';' || r == '\n' }) {
		f := strings.Fields(cmd)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "flush":
			k.firewallOff(x, "nft flush removes firewall rules and can leave every port of the machine open")
			return
		case "delete", "destroy":
			if len(f) > 1 && (f[1] == "table" || f[1] == "chain") {
				k.firewallOff(x, "nft "+f[0]+" removes firewall rules and can leave every port of the machine open")
				return
			}
			change = true
		case "add", "create", "insert", "replace", "rename", "import":
			change = true
		}
	}
	if change {
		k.firewallChange(x)
	}
}

// ufw: disable, reset, and default allow of incoming traffic switch the
// firewall off; enable, allow, deny, reject, limit, insert, prepend,
// delete, route and any other default change it. --dry-run changes
// nothing; status, show, reload, version, app and logging pass here
// (logging off is the persist analyzer's).
func (k *checker) ufw(x cmdCtx) {
	if x.has("dry-run") {
		return
	}
	switch verb := strings.ToLower(x.operand(0)); verb {
	case "disable", "reset":
		k.firewallOff(x, "ufw "+verb+" switches the firewall off")
	case "default":
		if x.operand(1) == "allow" && (x.operand(2) == "" || x.operand(2) == "incoming") {
			k.firewallOff(x, "ufw default allow lets every incoming connection through")
			return
		}
		k.firewallChange(x)
	case "enable", "allow", "deny", "reject", "limit", "insert", "prepend", "delete", "route":
		k.firewallChange(x)
	}
}

// pfctl: -d disables pf and -F all / -F rules flushes it; -e enables it,
// -f loads a rule file (standard input for "-"), any other -F flushes
// state, -k/-K kill states and a -T command other than show, test or zero
// changes a table. -n only parses: nothing is loaded or changed.
func (k *checker) pfctl(x cmdCtx) {
	if x.has("n") {
		return
	}
	flushed, flushAll := false, false
	for _, w := range x.values("flush") {
		flushed = true
		switch strings.ToLower(w.Value) {
		case "all", "rules", "a", "r":
			flushAll = true
		}
	}
	if x.has("disable") || flushAll {
		k.firewallOff(x, "pfctl -d / -F switches the packet filter off or empties it")
		return
	}
	change := flushed || x.has("enable", "load", "kill-states", "kill-src-nodes")
	for _, w := range x.values("table-command") {
		v := strings.ToLower(w.Value)
		change = change || v == "" || !strings.HasPrefix("show", v) && !strings.HasPrefix("test", v) && !strings.HasPrefix("zero", v)
	}
	if change {
		k.firewallChange(x)
	}
}

// firewallCmd: firewalld's default zone set to trusted accepts
// everything; panic mode drops every packet; any other --add-*,
// --remove-*, --change-*, --new-*, --delete-*, --set-*, --load-*,
// --runtime-to-permanent, --reset-to-defaults, --panic-off, lockdown and
// --passthrough option changes the firewall (also through --direct).
// --list-*, --get-*, --query-*, --info-*, --state, --reload and
// --check-config pass.
func (k *checker) firewallCmd(x cmdCtx) {
	for _, w := range x.values("set-default-zone") {
		if w.Value == "trusted" {
			k.firewallOff(x, "making trusted the default zone lets every connection through the firewall")
			return
		}
	}
	if x.has("panic-on") {
		k.networkCut(x, "firewalld panic mode drops every packet, SSH included")
		return
	}
	for _, o := range x.inv.Opts {
		switch n := o.Name; {
		case n == "runtime-to-permanent", n == "reset-to-defaults", n == "panic-off", n == "lockdown-on", n == "lockdown-off", n == "passthrough":
		case strings.HasPrefix(n, "add-"), strings.HasPrefix(n, "remove-"), strings.HasPrefix(n, "change-"),
			strings.HasPrefix(n, "new-"), strings.HasPrefix(n, "delete-"), strings.HasPrefix(n, "set-"), strings.HasPrefix(n, "load-"):
		default:
			continue
		}
		k.firewallChange(x)
		return
	}
}

// netsh (Windows): in the advfirewall or firewall context, "set … state
// off" and "set opmode disable" switch the firewall off; add, delete,
// set, reset and import change it. show, dump and export pass. netsh
// reads its words without regard to case.
func (k *checker) netsh(x cmdCtx) {
	var w []string
	for _, v := range x.values("c") {
		w = append(w, strings.ToLower(v.Value))
	}
	for _, o := range x.operands() {
		w = append(w, strings.ToLower(o.Value))
	}
	if len(w) == 0 || w[0] != "advfirewall" && w[0] != "firewall" {
		return
	}
	change := false
	for i, v := range w[1:] {
		next := ""
		if i+2 < len(w) {
			next = w[i+2]
		}
		switch {
		case v == "state" && next == "off", v == "opmode" && (next == "disable" || next == "mode=disable"):
			k.firewallOff(x, "it switches the Windows firewall off")
			return
		case v == "add", v == "delete", v == "set", v == "reset", v == "import":
			change = true
		}
	}
	if change {
		k.firewallChange(x)
	}
}

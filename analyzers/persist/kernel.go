package persist

import (
	"strings"

	"github.com/toolwall/toolwall/shell"
)

func init() {
	register((*checker).insmod, "insmod", "kextload", "kextutil")
	register((*checker).modprobe, "modprobe")
	register((*checker).kmutil, "kmutil")
	register((*checker).sysctl, "sysctl")
	register((*checker).grubInstall, "grub-install", "grub2-install")
	register((*checker).efibootmgr, "efibootmgr")
}

func (k *checker) kernel(c *shell.Command, why string) {
	k.ask(quote(c), RuleKernel, catPersist, why,
		"Do not load kernel code or change kernel and boot settings; tell the user what you need and let them do it")
}

// insmod, kextload, kextutil: loading a kernel module or extension
// (ATT&CK T1547.006). Removal (rmmod, kextunload) passes: it is undone by
// loading again.
func (k *checker) insmod(c *shell.Command) {
	if helpOnly(c) || len(c.Args) < 2 {
		return
	}
	k.kernel(c, c.Name+" loads code into the running kernel, where it runs with full control of the machine")
}

// modprobe NAME loads a module installed in the system's module tree:
// warn (insmod of an arbitrary file asks); -r/--remove, -n/--dry-run and
// the --show-* and -c queries pass.
func (k *checker) modprobe(c *shell.Command) {
	a := parse(c.Args[1:], spec{vals: "CdSo", long: []string{"config=", "dirname=", "set-version=", "remove", "dry-run", "show",
		"show-depends", "showconfig", "show-config", "show-modversions", "dump-modversions", "show-exports", "resolve-alias", "all",
		"verbose", "quiet", "force", "first-time", "ignore-install", "ignore-remove", "use-blacklist", "syslog", "version", "help"}})
	if len(a.operands) == 0 || helpOnly(c) || a.has("-r", "--remove", "-n", "--dry-run", "--show", "-D", "--show-depends", "-c",
		"--showconfig", "--show-config", "--show-modversions", "--dump-modversions", "--show-exports", "-R", "--resolve-alias") {
		return
	}
	k.warn(quote(c), RuleKernel, catPersist, "modprobe loads "+a.operand(0)+" from the installed module tree into the running kernel",
		"Load kernel modules only when the user asked for it")
}

// kmutil load (macOS).
func (k *checker) kmutil(c *shell.Command) {
	a := parse(c.Args[1:], spec{posix: true})
	if a.lower(0) == "load" {
		k.kernel(c, "kmutil load loads a kernel extension, which runs with full control of the machine")
	}
}

// sysctl: setting a security knob (sysctl -w NAME=VALUE, or NAME=VALUE
// as BSD and macOS take it), or loading settings from a file outside
// /etc (-p FILE, --load FILE).
func (k *checker) sysctl(c *shell.Command) {
	a := parse(c.Args[1:], spec{opt: "p", long: []string{"load", "system", "write", "all", "names", "values"}})
	for _, o := range a.operands {
		name, _, set := strings.Cut(o.Value, "=")
		if !set {
			continue
		}
		if what, ok := securityKnobs[strings.ReplaceAll(name, "/", ".")]; ok {
			k.kernel(c, "it changes "+name+" ("+what+"), which weakens a protection of the whole machine")
			return
		}
	}
	files := a.values("-p", "--load")
	if a.has("-p", "--load") {
		files = append(files, a.operands...)
	}
	for _, f := range files {
		if f.Dynamic || !strings.HasPrefix(f.Value, "/etc/") && !strings.HasPrefix(f.Value, "/usr/lib/sysctl.d/") && !strings.HasPrefix(f.Value, "/run/sysctl.d/") {
			k.kernel(c, "it loads kernel settings from "+f.Raw+", which can switch protections of the whole machine off")
			return
		}
	}
}

// grub-install writes a boot loader.
func (k *checker) grubInstall(c *shell.Command) {
	if helpOnly(c) {
		return
	}
	k.kernel(c, c.Name+" writes a new boot loader; a wrong one leaves the machine unbootable or boots other code")
}

// efibootmgr: creating, deleting or reordering boot entries (-c, -B, -o,
// -n, -a, -A, -b with a change); -v and no options only list.
func (k *checker) efibootmgr(c *shell.Command) {
	a := parse(c.Args[1:], spec{vals: "bdeEilLnoOpt", long: []string{"bootnum=", "disk=", "edd=", "device=", "loader=", "label=",
		"bootnext=", "bootorder=", "part=", "timeout=", "append-binary-args=", "create", "create-only", "delete-bootnum",
		"delete-bootorder", "delete-bootnext", "active", "inactive", "remove-dups", "unicode", "verbose", "quiet", "driver", "sysprep"}})
	if a.has("-c", "--create", "-C", "--create-only", "-B", "--delete-bootnum", "-o", "--bootorder", "-n", "--bootnext",
		"-a", "--active", "-A", "--inactive", "-O", "--delete-bootorder", "-N", "--delete-bootnext") {
		k.kernel(c, "efibootmgr changes the machine's firmware boot entries: what boots next, or whether it boots at all")
	}
}

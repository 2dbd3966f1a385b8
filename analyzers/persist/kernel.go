package persist

import (
	"strings"

	"github.com/toolwall/toolwall/shell"
)

func (k *checker) kernel(c *shell.Command, why string) {
	k.ask(quote(c), RuleKernel, catPersist, why,
		"Do not load kernel code or change kernel and boot settings; tell the user what you need and let them do it")
}

// insmod, kextload, kextutil: loading a kernel module or extension
// (ATT&CK T1547.006). Removal (rmmod, kextunload) passes: it is undone by
// loading again.
func (k *checker) insmod(c *shell.Command) {
	if helpOnly(c) || len(operands(c)) == 0 {
		return
	}
	k.kernel(c, c.Name+" loads code into the running kernel, where it runs with full control of the machine")
}

// modprobe's entry holds modprobe, insmod, rmmod and depmod. modprobe
// NAME loads a module installed in the system's module tree: warn
// (insmod of an arbitrary file asks); -r/--remove, -n/--dry-run and the
// --show-* and -c queries pass.
func (k *checker) modprobe(c *shell.Command) {
	switch c.Name {
	case "insmod":
		k.insmod(c)
		return
	case "rmmod", "depmod":
		return
	}
	if len(operands(c)) == 0 || helpOnly(c) || has(c, "remove", "dry-run", "show", "show-depends", "D", "showconfig", "show-config",
		"show-modversions", "dump-modversions", "show-exports", "resolve-alias", "R") {
		return
	}
	k.warn(quote(c), RuleKernel, catPersist, "modprobe loads "+operand(c, 0)+" from the installed module tree into the running kernel",
		"Load kernel modules only when the user asked for it")
}

// kmutil load (macOS).
func (k *checker) kmutil(c *shell.Command) {
	if c.Inv.Sub("load") {
		k.kernel(c, "kmutil load loads a kernel extension, which runs with full control of the machine")
	}
}

// sysctl: setting a security knob (sysctl -w NAME=VALUE, or NAME=VALUE
// as BSD and macOS take it), or loading settings from a file outside
// /etc (-p FILE, --load FILE).
func (k *checker) sysctl(c *shell.Command) {
	ops := operands(c)
	for _, o := range ops {
		name, _, set := strings.Cut(o.Value, "=")
		if !set {
			continue
		}
		if what, ok := securityKnob(strings.ReplaceAll(name, "/", ".")); ok {
			k.kernel(c, "it changes "+name+" ("+what+"), which weakens a protection of the whole machine")
			return
		}
	}
	if !has(c, "load") {
		return
	}
	files := append(values(c, "load"), ops...)
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

// efibootmgr: creating, deleting or reordering boot entries; -v and no
// options only list.
func (k *checker) efibootmgr(c *shell.Command) {
	if has(c, "create", "create-only", "delete", "bootorder", "bootnext", "active", "inactive", "delete-bootorder", "delete-bootnext") {
		k.kernel(c, "efibootmgr changes the machine's firmware boot entries: what boots next, or whether it boots at all")
	}
}

// mokutil --disable-validation turns Secure Boot checking off; --import
// enrolls a key the boot loader then trusts.
func (k *checker) mokutil(c *shell.Command) {
	if has(c, "disable-validation", "import", "reset") {
		k.kernel(c, "mokutil changes which kernels and modules Secure Boot trusts")
	}
}

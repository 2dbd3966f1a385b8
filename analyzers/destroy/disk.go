package destroy

import (
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// blockPrefixes are device-node name prefixes of disks and partitions
// under /dev, each with the kind of character that must follow it: 'a'
// a letter (sda, vdb, xvdf, hdc), '0' a digit (nvme0n1, mmcblk0p1, disk2,
// rdisk2s1, md0, dm-0, nbd0, mtdblock0). Loop devices are left out on
// purpose: they are backed by an image file the user chose.
var blockPrefixes = [...]struct {
	name string
	next byte
}{
	{"sd", 'a'}, {"hd", 'a'}, {"vd", 'a'}, {"xvd", 'a'}, {"nvme", '0'}, {"mmcblk", '0'},
	{"disk", '0'}, {"rdisk", '0'}, {"md", '0'}, {"dm-", '0'}, {"nbd", '0'}, {"mtdblock", '0'},
	// ZFS volumes, Ceph RBD, bcache, persistent memory, SCSI generic;
	// FreeBSD's ada, da and nvd disks.
	{"zd", '0'}, {"rbd", '0'}, {"bcache", '0'}, {"pmem", '0'}, {"sg", '0'},
	{"ada", '0'}, {"da", '0'}, {"nvd", '0'},
}

// devNotDisk reports whether a subdirectory of /dev holds no disks; any
// other /dev/<dir>/<name> is taken for an LVM logical volume
// (/dev/vg0/root).
func devNotDisk(dir string) bool {
	switch dir {
	case "shm", "pts", "fd", "mqueue", "hugepages", "input", "snd", "net", "bus", "char", "cpu", "dri", "serial",
		"vfio", "usb", "v4l", "dma_heap", "hidraw", "tty", "vhost", "bsg", "pty", "vc", "disk", "mapper":
		return true
	}
	return false
}

// blockDevice reports whether p (absolute, clean) names a disk or
// partition device: the names above, /dev/root, /dev/mapper/*,
// /dev/md/*, /dev/disk/by-*/*.
func blockDevice(p string) bool {
	rest, ok := strings.CutPrefix(p, "/dev/")
	if !ok || rest == "" {
		return false
	}
	if rest == "root" || strings.HasPrefix(rest, "disk/by-") || strings.HasPrefix(rest, "md/") ||
		strings.HasPrefix(rest, "block/") || strings.HasPrefix(rest, "zvol/") ||
		(strings.HasPrefix(rest, "mapper/") && rest != "mapper/control") {
		return true
	}
	if dir, lv, ok := strings.Cut(rest, "/"); ok && lv != "" && !strings.Contains(lv, "/") && !devNotDisk(dir) {
		return true
	}
	for _, b := range blockPrefixes {
		r, ok := strings.CutPrefix(rest, b.name)
		if !ok || r == "" || strings.Contains(r, "/") {
			continue
		}
		if b.next == 'a' && r[0] >= 'a' && r[0] <= 'z' || b.next == '0' && r[0] >= '0' && r[0] <= '9' {
			return true
		}
	}
	return false
}

// diskTool reports whether c runs a disk tool: an entry of the catalog's
// disk.txt, or dd.
func diskTool(c *shell.Command) bool {
	p := c.Inv.Program()
	return p != nil && (p.Root().File == "disk.txt" || p.Root().Grammar == "dd")
}

// writes judges what a command writes, appends to or changes in place
// (redirections, tee, dd of=, cp's destination, the device operands of
// disk tools; shred, srm and wipe overwrite what they delete): onto a
// block device it is denied (disk.overwrite, disk.format or
// disk.partition by the program, c153–c168); a /dev/ path only known at
// run time asks (disk.dynamic-device), except bash's network pseudo-files
// (/dev/tcp/HOST/PORT, /dev/udp/…), which open a connection and are never
// a disk, whatever their dynamic part; under a system root it is tagged
// a system write. A path written through a symbolic link made earlier in
// the call is the path the link names. install, mv and ln replace a
// device node rather than
// write the disk behind it; mount writes nothing.
func (a *run) writes(c *shell.Command, prog string) {
	switch prog {
	case "install", "mv", "ln", "mount", "umount":
		return
	case "parted":
		if partedReads(c.Inv) {
			return
		}
	}
	tool := c.Inv != nil && diskTool(c)
	var denied []string
	for _, x := range c.Effects {
		switch x.Kind {
		case shell.Writes, shell.Appends, shell.Modifies:
		case shell.Deletes:
			if prog != "shred" && prog != "srm" && prog != "wipe" {
				continue
			}
		default:
			continue
		}
		w := x.Word
		if x.Path == "" {
			if w.Dynamic && !netDevice(w.Prefix) && (strings.HasPrefix(w.Prefix, "/dev/") || tool && strings.HasPrefix("/dev/", w.Prefix)) {
				a.ask("disk.dynamic-device", quote(c)+" needs confirmation: it writes to "+w.Raw+
					", a path only known at run time, which may be a disk. Write the literal device path.")
			}
			continue
		}
		p := x.Path
		if !x.Remote && len(a.env.links) > 0 {
			p = a.env.unlink(p, true) // writing through a link writes what it names
		}
		if !blockDevice(p) {
			if !x.Remote && a.env.systemWrite(p) {
				a.r.Tag(toolwall.TagSystemWrite, p, "")
			}
			if !x.Remote && systemFile(p) && empties(c, prog, x) {
				a.systemFile(c, p, "empties")
			}
			continue
		}
		dup := false
		for _, d := range denied {
			dup = dup || under(p, d)
		}
		if dup {
			continue
		}
		denied = append(denied, p)
		a.r.Tag(toolwall.TagSystemWrite, p, "")
		rule, verb, instead := diskRule(c, prog, x)
		a.deny(rule, quote(c)+" was refused: it "+verb+" the disk device "+p+
			", destroying the partitions and file systems on it. "+instead)
	}
}

// netDevice reports whether prefix, the literal start of a path, is
// inside bash's network pseudo-files /dev/tcp/ or /dev/udp/. bash opens a
// socket for a redirection to any path under them (redir.c,
// NETWORK_REDIRECTIONS) and never the file system; other shells find no
// such directory. What is sent there is the network analyzers' concern.
func netDevice(prefix string) bool {
	return strings.HasPrefix(prefix, "/dev/tcp/") || strings.HasPrefix(prefix, "/dev/udp/")
}

// empties reports whether effect x of command c leaves a file empty:
// truncate or shred of it, or a truncating redirection (">") of a
// command that prints nothing (":", true, a bare redirection, echo 0>).
func empties(c *shell.Command, prog string, x shell.Effect) bool {
	switch {
	case x.Kind == shell.Modifies:
		return prog == "truncate" || prog == "shred"
	case x.Kind != shell.Writes || x.Role != programs.Unknown || x.From != ">" && x.From != ">|":
		return false
	}
	if len(c.Args) == 0 || c.Name == ":" || c.Name == "true" {
		return true
	}
	for _, r := range c.Redirects {
		if r.Target.Value == x.Word.Value && r.Fd != "" && r.Fd != "1" {
			return true // another descriptor than the output: the file is only truncated
		}
	}
	return false
}

// diskRule names the rule, the verb and the advice for a write onto a
// block device by program prog (x is the effect).
func diskRule(c *shell.Command, prog string, x shell.Effect) (rule, verb, instead string) {
	image := "Work on an image file instead; changing a real disk is for the user to run."
	switch {
	case prog == "" || x.Role == programs.Unknown && x.From != "operand":
		return "disk.overwrite", "writes straight onto", "Write to a regular file instead; writing a real device is for the user to run."
	case prog == "mkfs" || strings.HasPrefix(prog, "mkfs.") || prog == "mkswap" || prog == "newfs":
		return "disk.format", "formats", image
	case prog == "wipefs":
		return "disk.format", "erases the file system signatures of", image
	case prog == "cryptsetup" || prog == "nvme" || prog == "sg_format" || prog == "sg_sanitize":
		return "disk.format", "erases", image
	case prog == "zpool":
		return "disk.format", "writes ZFS labels onto", image
	case prog == "pvcreate" || prog == "vgcreate":
		return "disk.format", "writes an LVM label onto", image
	case prog == "mdadm":
		return "disk.format", "writes a RAID superblock onto", image
	case prog == "fdisk" || prog == "sfdisk" || prog == "sgdisk" || prog == "parted":
		return "disk.partition", "rewrites the partition table of", "List partitions with `lsblk` or `fdisk -l`; repartitioning a real disk is for the user to run."
	case prog == "diskutil":
		return "disk.format", "erases", image
	case prog == "dd" || c.Inv.Program().Root().Grammar == "dd":
		return "disk.overwrite", "writes straight onto", "Write to an image file instead (of=./disk.img); flashing a real device is for the user to run."
	case prog == "badblocks":
		return "disk.overwrite", "overwrites every block of", image
	case prog == "blkdiscard":
		return "disk.overwrite", "discards every block of", image
	case prog == "hdparm":
		return "disk.overwrite", "erases", image
	case prog == "shred" || prog == "srm" || prog == "wipe":
		return "disk.overwrite", "overwrites", image
	}
	return "disk.overwrite", "writes straight onto", "Write to an image file instead; writing a real device is for the user to run."
}

// partedReads reports whether parted only reads: -l, or every command
// after the device is one that prints (print, unit, help, version,
// align-check, select).
func partedReads(v *shell.Invocation) bool {
	if v.Has("list", "help", "version") {
		return true
	}
	if len(v.Operands) < 2 {
		return false // no command: parted is interactive
	}
	for _, op := range v.Operands[1:] {
		w := v.Args[op.Word]
		if w.Dynamic {
			return false
		}
		switch strings.ToLower(w.Value) {
		case "print", "p", "unit", "help", "version", "align-check", "select", "quit", "s", "b", "kb", "mb", "gb", "tb",
			"kib", "mib", "gib", "tib", "b%", "%", "cyl", "chs", "compact", "opt", "min", "minimal", "optimal", "free", "all", "list", "devices":
		default:
			if strings.Trim(w.Value, "0123456789") != "" {
				return false
			}
		}
	}
	return true
}

// disk checks disk and volume commands that destroy data without naming
// a device path: zpool destroy, zfs destroy, lvremove and vgremove (a
// pool, dataset or volume by name), diskutil's erase and partition verbs
// (disks by name: disk2), and flashrom writing this machine's own
// firmware (-p internal).
func (a *run) disk(c *shell.Command, prog string) {
	v := c.Inv
	p := v.Program()
	if p == nil {
		return
	}
	switch prog {
	case "zpool":
		if p.Name == "destroy" {
			a.deny("disk.format", quote(c)+" was refused: zpool destroy throws away every file system and volume of the pool, "+
				"which cannot be undone. List pools with `zpool list`; destroying one is for the user to run.")
		}
	case "zfs":
		if p.Name == "destroy" && !v.Has("dry-run") {
			a.deny("disk.format", quote(c)+" was refused: zfs destroy throws away a file system, volume or snapshot with its data, "+
				"which cannot be undone. List datasets with `zfs list`; destroying one is for the user to run.")
		}
	case "lvremove":
		if !v.Has("test", "h", "help") {
			a.deny("disk.format", quote(c)+" was refused: it removes LVM volumes with every file on them, which cannot be undone. "+
				"List volumes with `lvs` or `vgs`; removing one is for the user to run.")
		}
	case "diskutil":
		verb := p.Name
		if p.Parent == nil || p.Name == "apfs" {
			// diskutil's verbs are not case-sensitive (ERASEDISK): an
			// unmatched one is the first operand
			verb = v.Operand(0).Value
		}
		rule := ""
		switch strings.ToLower(verb) {
		case "erasedisk", "erasevolume", "reformat", "zerodisk", "randomdisk", "secureerase", "deletecontainer", "deletevolume", "erasecd":
			rule = "disk.format"
		case "partitiondisk", "splitpartition", "mergepartitions", "resizevolume", "addpartition", "resizecontainer":
			rule = "disk.partition"
		}
		if rule != "" {
			a.deny(rule, quote(c)+" was refused: diskutil "+verb+" erases or repartitions a disk, destroying what is on it. "+
				"List disks with `diskutil list`; erasing or repartitioning is for the user to run.")
		}
	case "flashrom":
		for _, w := range v.Values("programmer") {
			if strings.HasPrefix(w.Prefix, "internal") && v.Has("write", "erase") {
				a.deny("disk.overwrite", quote(c)+" was refused: it rewrites this machine's firmware flash, and a bad image leaves it unable to boot. "+
					"Flashing firmware is for the user to run.")
				return
			}
		}
	}
}

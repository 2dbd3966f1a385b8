package destroy

import (
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/shell"
)

// blockPrefixes are device-node name prefixes of disks and partitions
// under /dev, each with the kind of character that must follow it: 'a'
// a letter (sda, vdb, xvdf, hdc), '0' a digit (nvme0n1, mmcblk0p1, disk2,
// rdisk2s1, md0, dm-0, nbd0, mtdblock0). Loop devices are left out on
// purpose: they are backed by an image file the user chose.
var blockPrefixes = []struct {
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

// devNotDisks are subdirectories of /dev that hold no disks; any other
// /dev/<dir>/<name> is taken for an LVM logical volume (/dev/vg0/root).
var devNotDisks = map[string]bool{
	"shm": true, "pts": true, "fd": true, "mqueue": true, "hugepages": true, "input": true, "snd": true,
	"net": true, "bus": true, "char": true, "cpu": true, "dri": true, "serial": true, "vfio": true,
	"usb": true, "v4l": true, "dma_heap": true, "hidraw": true, "tty": true, "vhost": true, "bsg": true, "pty": true,
	"vc": true,
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
	if dir, lv, ok := strings.Cut(rest, "/"); ok && lv != "" && !strings.Contains(lv, "/") && !devNotDisks[dir] && dir != "disk" && dir != "mapper" {
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

// devices returns the block devices among words, and whether a word is a
// /dev/ path only known at run time.
func (a *run) devices(c *shell.Command, words []shell.Word) (devs []string, dynamic bool) {
	for _, w := range words {
		if w.Dynamic {
			dynamic = dynamic || strings.HasPrefix(w.Prefix, "/dev/")
			continue
		}
		if p := a.env.abs(w.Value, c.Cwd); blockDevice(p) {
			devs = append(devs, p)
		}
	}
	return devs, dynamic
}

// Partition-table tools' read-only options: with one of them (and, for
// sgdisk, nothing else) the tool only lists.
var (
	fdiskRO  = []string{"l", "list", "h", "help", "V", "version", "s", "getsz"}
	sfdiskRO = []string{"l", "list", "d", "dump", "J", "json", "s", "show-size", "V", "verify", "g",
		"show-geometry", "F", "list-free", "T", "list-types", "v", "version", "h", "help"}
	sfdiskWrite = []string{"delete", "reorder", "r", "part-type", "part-label", "part-uuid", "part-attrs",
		"relocate", "disk-id", "A", "activate", "N", "partno", "append", "a", "wipe", "w", "wipe-partitions", "W"}
	sgdiskRO     = "piOvLVEFfDP?"
	sgdiskLongRO = []string{"print", "info", "verify", "print-mbr", "list-types", "version", "help", "usage",
		"pretend", "backup", "display-alignment", "end-of-largest", "first-in-largest", "first-aligned-in-largest"}
	partedWrite = []string{"mklabel", "mktable", "mkpart", "mkpartfs", "rm", "resizepart", "resize", "name",
		"set", "toggle", "rescue", "disk_set", "disk_toggle", "move", "cp", "mkfs", "type"}
)

// disk checks programs that format, partition or overwrite block devices
// (c153–c168). Image files are never matched: only device nodes.
func (a *run) disk(c *shell.Command, n string, args []shell.Word) {
	switch {
	case n == "dd" || n == "dcfldd" || n == "dc3dd" || n == "ddpt" || n == "sg_dd":
		a.dd(c, args)
	case strings.HasPrefix(n, "mkfs") || strings.HasPrefix(n, "newfs") || n == "mke2fs" || n == "mkswap" ||
		n == "mkdosfs" || n == "mkntfs" || n == "mkexfatfs" || n == "mkudffs" || n == "mkreiserfs" || n == "mkjfs":
		a.diskRule(c, args[1:], "disk.format", "formats")
	case n == "bmaptool" && len(args) > 1 && args[1].Value == "copy":
		a.diskRule(c, args[2:], "disk.overwrite", "writes an image onto")
	case n == "pvcreate" || n == "vgcreate" || n == "vgextend" || n == "pvremove":
		a.diskRule(c, args[1:], "disk.format", "writes an LVM label onto")
	case n == "zpool":
		a.zpool(c, args)
	case n == "mdadm":
		for _, w := range args[1:] {
			switch w.Value {
			case "--create", "-C", "--build", "-B", "--zero-superblock", "--add", "-a":
				a.diskRule(c, args[1:], "disk.format", "writes a RAID superblock onto")
				return
			}
		}
	case n == "sg_format" || n == "sg_sanitize":
		for _, w := range args[1:] {
			if n == "sg_sanitize" || w.Value == "--format" || w.Value == "-F" || (strings.HasPrefix(w.Value, "-") && !strings.HasPrefix(w.Value, "--") && strings.Contains(w.Value, "F")) {
				a.diskRule(c, args[1:], "disk.format", "low-level formats")
				return
			}
		}
	case n == "flashrom":
		a.flashrom(c, args)
	case n == "wipefs":
		p := parseArgs(args[1:], optSpec{shortArg: "otO", long: []string{"all", "offset", "no-act", "backup", "force", "types", "output", "help", "version"}, longArg: []string{"offset", "types", "output"}})
		if p.has("a", "all", "o", "offset") && !p.has("n", "no-act") {
			a.diskRule(c, p.operands, "disk.format", "erases the signatures of")
		}
	case n == "shred":
		p := parseArgs(args[1:], optSpec{shortArg: "ns", long: []string{"force", "iterations", "random-source", "size", "remove", "verbose", "exact", "zero", "help", "version"}, longArg: []string{"iterations", "random-source", "size"}})
		a.tagDeletes(c, p.operands)
		a.diskRule(c, p.operands, "disk.overwrite", "overwrites")
	case n == "blkdiscard":
		a.diskRule(c, args[1:], "disk.overwrite", "discards every block of")
	case n == "ddrescue" && len(args) > 2:
		a.diskRule(c, args[2:], "disk.overwrite", "writes onto")
	case n == "badblocks":
		p := parseArgs(args[1:], optSpec{shortArg: "bcdeiopt"})
		if p.has("w") {
			a.diskRule(c, p.operands, "disk.overwrite", "overwrites every block of")
		}
	case n == "hdparm":
		for _, w := range args[1:] {
			if v := w.Value; strings.HasPrefix(v, "--security-erase") || strings.HasPrefix(v, "--trim-sector-ranges") || v == "--write-sector" {
				a.diskRule(c, args[1:], "disk.overwrite", "erases")
				break
			}
		}
	case n == "cryptsetup" || n == "nvme":
		for _, w := range args[1:] {
			switch strings.ToLower(w.Value) {
			case "luksformat", "erase", "lukserase", "format", "sanitize":
				a.diskRule(c, args[1:], "disk.format", "erases")
				return
			}
		}
	case n == "diskutil":
		a.diskutil(c, args)
	case n == "fdisk" || n == "sfdisk" || n == "sgdisk" || n == "gdisk" || n == "cfdisk" || n == "parted":
		a.partition(c, n, args)
	}
}

// diskRule denies rule when words name a block device, and asks when one
// is a /dev/ path only known at run time.
func (a *run) diskRule(c *shell.Command, words []shell.Word, rule, verb string) {
	devs, dynamic := a.devices(c, words)
	for _, d := range devs {
		a.r.Tag(toolwall.TagSystemWrite, d, "")
		a.deny(rule, quote(c)+" was refused: it "+verb+" the disk device "+d+
			", destroying the partitions and file systems on it. Work on an image file instead; changing a real disk is for the user to run.")
	}
	if len(devs) == 0 && dynamic {
		a.ask("disk.dynamic-device", quote(c)+" needs confirmation: it "+verb+" a device only known at run time, which may be a disk. Write the literal device path.")
	}
}

// ddOutputs are the operands of dd and its forensic variants (dcfldd,
// dc3dd, ddpt, sg_dd) that name a file they write.
var ddOutputs = []string{"of=", "wipe=", "hwipe=", "hof=", "ofs=", "hofs="}

// ddOutput returns the file an operand names for writing.
func ddOutput(v string) (string, bool) {
	for _, p := range ddOutputs {
		if of, ok := strings.CutPrefix(v, p); ok {
			return of, true
		}
	}
	return "", false
}

// dd checks the output operands of dd and its variants (c153–c156,
// c307–c308).
func (a *run) dd(c *shell.Command, args []shell.Word) {
	for _, w := range args[1:] {
		if w.Dynamic {
			if d, ok := ddOutput(w.Prefix); ok && (strings.HasPrefix("/dev/", d) || strings.HasPrefix(d, "/dev/")) {
				a.ask("disk.dynamic-device", quote(c)+" needs confirmation: it writes to "+w.Raw+
					", a file only known at run time, which may be a disk. Write the literal output path.")
			}
			continue
		}
		of, ok := ddOutput(w.Value)
		if !ok {
			continue
		}
		p := a.env.abs(of, c.Cwd)
		if a.env.systemWrite(p) {
			a.r.Tag(toolwall.TagSystemWrite, p, "")
		}
		if blockDevice(p) {
			a.deny("disk.overwrite", quote(c)+" was refused: it writes straight onto the disk device "+p+
				", destroying its partitions and file systems. Write to an image file instead (of=./disk.img); flashing a real device is for the user to run.")
		}
	}
}

// zpool checks ZFS pool commands that write labels onto disks (create,
// add, attach, replace, labelclear) and zpool destroy, which throws away
// every dataset of a pool.
func (a *run) zpool(c *shell.Command, args []shell.Word) {
	sub := ""
	if len(args) > 1 {
		sub = args[1].Value
	}
	switch sub {
	case "create", "add", "attach", "replace", "labelclear", "initialize":
		a.diskRule(c, args[2:], "disk.format", "writes ZFS labels onto")
	case "destroy":
		a.deny("disk.format", quote(c)+" was refused: zpool destroy throws away every file system and volume of the pool, "+
			"which cannot be undone. List pools with `zpool list`; destroying one is for the user to run.")
	}
}

// flashrom denies writing or erasing the machine's own firmware (-p
// internal): a bad image leaves it unable to boot. Programming an external
// chip is ordinary embedded work.
func (a *run) flashrom(c *shell.Command, args []shell.Word) {
	p := parseArgs(args[1:], optSpec{shortArg: "prlicE", long: []string{"programmer", "read", "write", "verify", "erase",
		"chip", "layout", "image", "help", "version"}, longArg: []string{"programmer", "read", "write", "verify", "chip", "layout", "image"}})
	prog, _ := p.val("p", "programmer")
	if strings.HasPrefix(prog, "internal") && p.has("w", "write", "E", "erase") {
		a.deny("disk.overwrite", quote(c)+" was refused: it rewrites this machine's firmware flash, and a bad image leaves it unable to boot. "+
			"Flashing firmware is for the user to run.")
	}
}

// diskutil checks macOS diskutil verbs that erase or repartition.
func (a *run) diskutil(c *shell.Command, args []shell.Word) {
	for _, w := range args[1:] {
		rule := ""
		switch strings.ToLower(w.Value) {
		case "erasedisk", "erasevolume", "reformat", "zerodisk", "randomdisk", "secureerase",
			"deletecontainer", "deletevolume", "erasecd":
			rule = "disk.format"
		case "partitiondisk", "splitpartition", "mergepartitions", "resizevolume", "addpartition", "resizecontainer":
			rule = "disk.partition"
		default:
			continue
		}
		a.deny(rule, quote(c)+" was refused: diskutil "+w.Value+" erases or repartitions a disk, destroying what is on it. "+
			"List disks with `diskutil list`; erasing or repartitioning is for the user to run.")
		return
	}
}

// partition checks partition-table editors: listing is allowed, anything
// else on a disk device is denied (c164–c165).
func (a *run) partition(c *shell.Command, n string, args []shell.Word) {
	spec := optSpec{shortArg: "abcCHSLOtuoxXZ"}
	switch n {
	case "sgdisk":
		// sgdisk's -Z, -z, -o, -g … take no value (sgdisk(8)).
		spec = optSpec{shortArg: "aAbBcdhijlmnNrRtTuU"}
	case "parted":
		spec = optSpec{shortArg: "a", long: []string{"list", "script", "machine", "align", "fix", "json", "help", "version"}, longArg: []string{"align"}}
	}
	p := parseArgs(args[1:], spec)
	switch n {
	case "fdisk", "gdisk":
		if p.has(fdiskRO...) {
			return
		}
	case "sfdisk":
		if p.has(sfdiskRO...) && !p.has(sfdiskWrite...) {
			return
		}
	case "sgdisk":
		ro := len(p.opts) > 0
		for _, o := range p.opts {
			if !(len(o.k) == 1 && strings.Contains(sgdiskRO, o.k)) && !contains(sgdiskLongRO, o.k) {
				ro = false
			}
		}
		if ro || p.has("P", "pretend") {
			return
		}
	case "parted":
		if p.has("l", "list", "h", "help", "v", "version") {
			return
		}
		write, print := false, false
		for _, w := range p.operands {
			write = write || contains(partedWrite, strings.ToLower(w.Value))
			print = print || strings.EqualFold(w.Value, "print")
		}
		if print && !write {
			return
		}
	}
	a.diskRule(c, p.operands, "disk.partition", "rewrites the partition table of")
}

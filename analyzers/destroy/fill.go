package destroy

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// FillThreshold is the size of a single write from which filling the
// disk is asked about (disk.fill): 10 GiB, well above a swap file, a test
// image or a build artefact, well below what leaves a laptop's disk
// full. A full disk stops more than the write: toolwall's session memory
// and audit log, the agent's own files and every build fail with it.
const FillThreshold = 10 << 30

// endless are the device files that never run out of bytes to read.
func endless(p string) bool {
	switch p {
	case "/dev/zero", "/dev/urandom", "/dev/random", "/dev/full":
		return true
	}
	return false
}

// fill judges a command that fills the disk: space allocated (the
// catalog's fill-size option: fallocate -l), bytes copied from an endless
// source (dd's bs × count, head -c N /dev/zero, the catalog's fill-size
// of a printer reading one) to a file, or an endless source copied with
// no bound at all (dd if=/dev/zero without count, cat /dev/zero > f,
// yes > f). From FillThreshold on, unbounded, or with a size only known
// at run time, it asks (disk.fill).
// Writes to devices are the disk.* rules' (a block device) or harmless
// (/dev/null); truncate's size is sparse and takes no space.
func (a *run) fill(all []*shell.Command, i int, c *shell.Command, prog string) {
	file := ""
	for _, e := range c.Effects {
		if (e.Kind == shell.Writes || e.Kind == shell.Appends) && !e.Remote && !strings.HasPrefix(e.Path, "/dev/") {
			file = e.Word.Raw
			if e.Path != "" {
				file = e.Path
			}
			break
		}
	}
	if file == "" {
		return
	}
	var size float64
	bounded, dynamic := true, false
	switch {
	case c.Inv.Has("punch-hole", "dig-holes", "collapse-range"):
		return
	case prog == "dd":
		if !readsEndless(c) {
			return
		}
		count := c.Inv.Values("count")
		if len(count) == 0 {
			bounded = false
			break
		}
		bs := 512.0
		for _, w := range c.Inv.Values("bs", "obs") {
			if n, ok := parseSize(w.Value, true); ok && !w.Dynamic {
				bs = n
			}
		}
		if count[len(count)-1].Dynamic {
			bounded, dynamic = false, true // a count only known at run time
			break
		}
		n, ok := parseSize(count[len(count)-1].Value, true)
		if !ok {
			return
		}
		size = bs * n
	case len(c.Inv.Values("fill-size")) > 0:
		if prog != "fallocate" && !readsEndless(c) && !fedEndless(all, i, c) {
			return
		}
		v := c.Inv.Values("fill-size")
		w := v[len(v)-1]
		if w.Dynamic {
			bounded, dynamic = false, true
			break
		}
		n, ok := parseSize(strings.TrimPrefix(w.Value, "+"), false)
		if !ok {
			return
		}
		size = n
	case prog == "cat" && readsEndless(c), c.Name == "yes" && len(c.Args) <= 2:
		bounded = false
	default:
		return
	}
	if bounded && size < FillThreshold {
		return
	}
	how := "it writes " + humanSize(size) + " to " + file
	switch {
	case dynamic:
		how = "it fills " + file + " with a size only known at run time"
	case !bounded:
		how = "it copies an endless stream of bytes to " + file + " until the disk is full"
	}
	a.ask("disk.fill", quote(c)+" needs confirmation: "+how+"; a full disk stops toolwall's session memory and audit log, the agent's own files and every build with it. "+
		"Write only the size you need (under "+humanSize(FillThreshold)+"), or ask the user.")
}

// readsEndless reports whether c reads an endless device: an operand,
// an input option (dd if=) or a < redirect.
func readsEndless(c *shell.Command) bool {
	for _, e := range c.Effects {
		if e.Kind == shell.Reads && endless(e.Path) {
			return true
		}
	}
	for _, r := range c.Redirects {
		if r.Op == "<" && !r.Target.Dynamic && endless(r.Target.Value) {
			return true
		}
	}
	return false
}

// fedEndless reports whether c reads a pipe whose writer reads an
// endless device or is yes (cat /dev/urandom | head -c 20G > f).
func fedEndless(all []*shell.Command, i int, c *shell.Command) bool {
	if c.Pipeline == 0 || i == 0 {
		return false
	}
	for j := i - 1; j >= 0; j-- {
		p := all[j]
		if p.Piped != c.Piped || p.Depth != c.Depth {
			continue
		}
		if p.Pipeline == c.Pipeline-1 {
			return readsEndless(p) || p.Name == "yes"
		}
	}
	return false
}

// parseSize reads a size as dd, fallocate and head write it: a number
// with an optional multiplier, K M G T P E (powers of 1024, also with
// "iB"), KB MB GB … (powers of 1000), and for dd also c (1), w (2) and
// b (512). It reports false for anything else.
func parseSize(s string, dd bool) (float64, bool) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	if i == 0 {
		return 0, false
	}
	n, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, false
	}
	suf := s[i:]
	if dd {
		switch suf {
		case "c":
			return n, true
		case "w":
			return n * 2, true
		case "b":
			return n * 512, true
		}
	}
	if suf == "" {
		return n, true
	}
	k := strings.IndexByte("KMGTPE", strings.ToUpper(suf[:1])[0])
	if k < 0 {
		return 0, false
	}
	base := 1024.0
	switch strings.ToUpper(suf[1:]) {
	case "", "IB":
	case "B":
		base = 1000
	default:
		return 0, false
	}
	return n * math.Pow(base, float64(k+1)), true
}

// humanSize writes n bytes in GiB (or MiB below one GiB).
func humanSize(n float64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.4g GiB", n/(1<<30))
	}
	return fmt.Sprintf("%.4g MiB", n/(1<<20))
}

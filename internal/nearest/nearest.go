// Package nearest names the closest of the known names to a mistyped
// one, for "did you mean" suggestions (rule ids, configuration keys).
package nearest

// Name returns the name of names closest to s in edit distance (ties:
// the first in order), "" when names is empty.
func Name(s string, names []string) string {
	best, bestD := "", -1
	for _, c := range names {
		if d := Distance(s, c); bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Likely returns the name of names closest to s when it is close enough
// to be a slip of the keyboard (at most a third of s's length off, and at
// least 2 edits allowed), else "".
func Likely(s string, names []string) string {
	n := Name(s, names)
	if n == "" || Distance(s, n) > max(2, len(s)/3) {
		return ""
	}
	return n
}

// Distance is the Levenshtein distance between a and b, in bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

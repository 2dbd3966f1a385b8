package ops

import (
	"strings"
)

// sqlHit is the first destructive statement found in a SQL text.
type sqlHit struct {
	// kind names it for the reason: "DROP TABLE", "TRUNCATE",
	// "DELETE without WHERE", ...
	kind string
	// rule is the rule id.
	rule string
}

// dropKind reports the objects whose DROP loses data or access.
func dropKind(kind string) bool {
	switch kind {
	case "database", "schema", "table", "keyspace", "owned", "user", "role", "tablespace", "columnfamily":
		return true
	}
	return false
}

// alterDropKept reports ALTER TABLE … DROP targets that lose no rows.
func alterDropKept(what string) bool {
	switch what {
	case "constraint", "index", "default", "not", "primary", "foreign", "key", "check", "identity", "expression",
		"trigger", "projection":
		return true
	}
	return false
}

// scanSQL looks for a destructive statement in text: DROP of a database,
// schema, table, keyspace, user or role; TRUNCATE; DELETE or UPDATE with
// no WHERE (or a constant-true one); ALTER TABLE … DROP of a column or
// partition. Keywords are matched case-insensitively on SQL tokens, with
// comments and string literals skipped, statement by statement.
func scanSQL(text string) (sqlHit, bool) {
	for _, st := range sqlStatements(text) {
		if h, ok := sqlStatement(st); ok {
			return h, true
		}
	}
	return sqlHit{}, false
}

// sqlStatement classifies one statement's tokens.
func sqlStatement(t []string) (sqlHit, bool) {
	if len(t) > 0 && t[0] == "with" {
		t = afterCTE(t)
	}
	if len(t) == 0 {
		return sqlHit{}, false
	}
	at := func(i int) string {
		if i < len(t) {
			return t[i]
		}
		return ""
	}
	switch t[0] {
	case "drop":
		kind := at(1)
		if kind == "temporary" || kind == "temp" {
			return sqlHit{}, false
		}
		if kind == "materialized" || kind == "foreign" {
			kind = at(2)
		}
		if dropKind(kind) {
			return sqlHit{kind: "DROP " + strings.ToUpper(kind), rule: "db.drop"}, true
		}
	case "truncate":
		return sqlHit{kind: "TRUNCATE", rule: "db.truncate"}, true
	case "delete":
		if !hasWhere(t) {
			return sqlHit{kind: "DELETE without WHERE", rule: "db.delete-all"}, true
		}
	case "update":
		if !hasWhere(t) {
			return sqlHit{kind: "UPDATE without WHERE", rule: "db.delete-all"}, true
		}
	case "alter":
		if at(1) != "table" {
			return sqlHit{}, false
		}
		for i := 2; i < len(t); i++ {
			if t[i] != "drop" {
				continue
			}
			next := at(i + 1)
			if next == "column" || next == "partition" || !alterDropKept(next) {
				return sqlHit{kind: "ALTER TABLE … DROP", rule: "db.drop"}, true
			}
		}
	}
	return sqlHit{}, false
}

// afterCTE returns the tokens of a WITH statement from its main verb on:
// the first DELETE, UPDATE, INSERT or SELECT outside parentheses.
func afterCTE(t []string) []string {
	depth := 0
	for i, w := range t {
		switch w {
		case "(":
			depth++
		case ")":
			depth--
		case "delete", "update", "insert", "select":
			if depth == 0 {
				return t[i:]
			}
		}
	}
	return nil
}

// hasWhere reports whether a DELETE/UPDATE statement has a WHERE that is
// not constant-true ("1=1", "true", "1").
func hasWhere(t []string) bool {
	for i, w := range t {
		if w != "where" {
			continue
		}
		if constantTrue(strings.Join(t[i+1:], "")) {
			return false
		}
		// "id > 0 OR 1=1": one constant-true alternative at the top
		// level makes the whole condition true.
		depth, start := 0, i+1
		for j := i + 1; j <= len(t); j++ {
			if j < len(t) {
				switch t[j] {
				case "(":
					depth++
				case ")":
					depth--
				}
				if t[j] != "or" || depth != 0 {
					continue
				}
			}
			if j > start && constantTrue(strings.Join(t[start:j], "")) {
				return false
			}
			start = j + 1
		}
		return true
	}
	return false
}

// constantTrue reports a condition that holds for every row: "", "1",
// "true", "1=1", "'a'='a'", "1<>0", "not false".
func constantTrue(cond string) bool {
	switch cond {
	case "", "1", "true", "1=1", "0=0", "'1'='1'", "1<>0", "not false", "notfalse":
		return true
	}
	return tautology(cond)
}

// tautology reports "X=X" for a literal X without operators.
func tautology(cond string) bool {
	l, r, ok := strings.Cut(cond, "=")
	return ok && l != "" && l == r && !strings.ContainsAny(l, "<>!=()")
}

// sqlStatements splits text into statements of lower-cased tokens: words
// (letters, digits, _, $, ., quoted identifiers), and single-character
// punctuation. Comments (-- and /* */) are dropped; a string literal
// becomes one token "'…'" (its content lower-cased, so "'1'='1'" reads as
// a tautology). Statements end at ";".
func sqlStatements(text string) [][]string {
	var out [][]string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, cur)
		}
		cur = nil
	}
	s := strings.ToLower(text)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				i = len(s)
			} else {
				i += end + 4
			}
		case c == ';':
			flush()
			i++
		case c == '\'':
			j := i + 1
			for j < len(s) {
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			end := min(j+1, len(s))
			cur = append(cur, s[i:end])
			i = end
		case c == '"' || c == '`':
			j := strings.IndexByte(s[i+1:], c)
			end := len(s)
			if j >= 0 {
				end = i + 1 + j + 1
			}
			cur = append(cur, s[i:end])
			i = end
		case isSQLWord(c):
			j := i
			for j < len(s) && isSQLWord(s[j]) {
				j++
			}
			cur = append(cur, s[i:j])
			i = j
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		default:
			cur = append(cur, s[i:i+1])
			i++
		}
	}
	flush()
	return out
}

func isSQLWord(c byte) bool {
	return c == '_' || c == '$' || c == '.' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80
}

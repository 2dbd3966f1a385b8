// Package rows reads the tab-separated case tables that tests keep in
// testdata files.
//
// A table is a text file of lines. A line that starts with '#' is a
// comment; a line with no tab that is empty or only spaces is blank. Both
// are skipped. Every other line is a row: its fields are the text between
// tabs, taken as written (no quoting, no trimming). A trailing carriage
// return is dropped. Rows keep their line number, so a test can report a
// failing case as file:line.
//
// Read wants a fixed number of fields, ReadMin a least number (the rest
// optional), and ReadRest a least number whose last field keeps any tabs
// that follow. Fields that must hold a newline or a tab write it as \n or
// \t; Unescape turns those back.
package rows

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Row is one data line of a table.
type Row struct {
	File   string   // the table's base name, as failure messages show it
	Line   int      // 1-based line number in the file
	Fields []string // the tab-separated fields
}

// Pos is the row's place, "file:line".
func (r Row) Pos() string { return fmt.Sprintf("%s:%d", r.File, r.Line) }

// Read returns the rows of the table at path, failing tb if the file
// cannot be read or if a row has other than cols fields. A cols of 0 or
// less accepts any number of fields.
func Read(tb testing.TB, path string, cols int) []Row {
	tb.Helper()
	rs := read(tb, path)
	for _, r := range rs {
		if cols > 0 && len(r.Fields) != cols {
			tb.Fatalf("%s: %d fields, want %d", r.Pos(), len(r.Fields), cols)
		}
	}
	return rs
}

// ReadMin is Read for tables whose rows have at least min fields, the
// ones past min being optional.
func ReadMin(tb testing.TB, path string, min int) []Row {
	tb.Helper()
	rs := read(tb, path)
	for _, r := range rs {
		if len(r.Fields) < min {
			tb.Fatalf("%s: %d fields, want at least %d", r.Pos(), len(r.Fields), min)
		}
	}
	return rs
}

// ReadRest is ReadMin for tables whose last of n fields is free text
// that may hold tabs: each row has at least n fields, and its fields from
// the nth on are joined back, tabs and all, into the nth.
func ReadRest(tb testing.TB, path string, n int) []Row {
	tb.Helper()
	rs := ReadMin(tb, path, n)
	for i, r := range rs {
		rs[i].Fields = append(r.Fields[:n-1:n-1], strings.Join(r.Fields[n-1:], "\t"))
	}
	return rs
}

func read(tb testing.TB, path string) []Row {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return Parse(filepath.Base(path), string(data))
}

// Parse splits text, the content of the table named name, into rows
// without checking their width.
func Parse(name, text string) []Row {
	var out []Row
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.HasPrefix(line, "#") || !strings.Contains(line, "\t") && strings.TrimSpace(line) == "" {
			continue
		}
		out = append(out, Row{File: name, Line: i + 1, Fields: strings.Split(line, "\t")})
	}
	return out
}

// unescaper undoes the escapes tables use to hold a newline or a tab
// inside one field.
var unescaper = strings.NewReplacer(`\n`, "\n", `\t`, "\t")

// Unescape turns the two-character sequences \n and \t of a field into a
// newline and a tab.
func Unescape(field string) string { return unescaper.Replace(field) }

package rows_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/internal/rows"
)

// TestParse plays testdata/parse.tsv, itself read with Read: each table
// and the rows Parse finds in it.
func TestParse(t *testing.T) {
	for _, r := range rows.Read(t, "testdata/parse.tsv", 2) {
		in := strings.ReplaceAll(rows.Unescape(r.Fields[0]), "¶", "\r")
		var got []string
		for _, p := range rows.Parse("t", in) {
			got = append(got, strconv.Itoa(p.Line)+":"+strings.Join(p.Fields, "|"))
		}
		want := r.Fields[1]
		if want == "-" {
			want = ""
		}
		if g := strings.Join(got, ";"); g != want {
			t.Errorf("%s: got %q, want %q", r.Pos(), g, want)
		}
	}
}

// TestPos checks the place a row reports.
func TestPos(t *testing.T) {
	rs := rows.Read(t, "testdata/parse.tsv", 2)
	if len(rs) == 0 || rs[0].Pos() != "parse.tsv:3" {
		t.Fatalf("first row %+v", rs)
	}
}

// TestReadRest reads testdata/rest.tsv, whose rows say how many fields
// they hold once the third takes the rest of the line.
func TestReadRest(t *testing.T) {
	for _, r := range rows.ReadRest(t, "testdata/rest.tsv", 3) {
		if len(r.Fields) != 3 || r.Fields[2] != rows.Unescape(r.Fields[1]) {
			t.Errorf("%s: fields %q", r.Pos(), r.Fields)
		}
	}
}
